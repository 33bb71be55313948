// This file tests MaskedFill against a reference loop over broadcast masks.

package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMaskedFillAgainstReference(t *testing.T) { forEachISA(t, testMaskedFillAgainstReference) }

func testMaskedFillAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	for _, c := range [][2][]int{
		{{2, 4, 5, 5}, {5, 5}}, {{3, 5}, {3, 5}}, {{3, 5}, {1, 5}}, {{3, 5}, {3, 1}},
		{{2, 3, 4}, {2, 1, 4}}, {{7}, {}}, {{1, 4, 3}, {1, 1, 3}}, {{0, 3}, {3}},
	} {
		xs, ms := c[0], c[1]
		x := randArray(r, xs...)
		mask := NewArray(Bool, ms...)
		for i := range mask.B {
			mask.B[i] = r.IntN(3) == 0
		}
		for _, v := range []float64{math.Inf(-1), 2.5} {
			out := NewArray(Float32, xs...)
			MaskedFill(out, x, mask, v)
			for i := range out.F32 {
				want := x.F32[i]
				if mask.B[refIndex(unravel(i, xs), ms, xs)] {
					want = float32(v)
				}
				if out.F32[i] != want {
					t.Fatalf("x %v mask %v element %d: got %v, want %v", xs, ms, i, out.F32[i], want)
				}
			}
		}
	}
	// Other dtypes.
	xi := FromInt64([]int64{1, 2, 3}, 3)
	oi := NewArray(Int64, 3)
	MaskedFill(oi, xi, FromBool([]bool{false, true, false}, 3), 9)
	if oi.I64[1] != 9 || oi.I64[0] != 1 || oi.I64[2] != 3 {
		t.Errorf("int64: got %v, want [1 9 3]", oi.I64)
	}
}

func TestMaskedFillRejectsWideMask(t *testing.T) { forEachISA(t, testMaskedFillRejectsWideMask) }

func testMaskedFillRejectsWideMask(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("a mask [2,3] was accepted for x [3]")
		}
	}()
	MaskedFill(NewArray(Float32, 3), NewArray(Float32, 3), NewArray(Bool, 2, 3), 0)
}
