// This file tests Embedding against a reference loop and its range checks.

package runtime

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestEmbeddingAgainstReference(t *testing.T) { forEachISA(t, testEmbeddingAgainstReference) }

func testEmbeddingAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, c := range []struct {
		idx      []int
		num, dim int
	}{{[]int{}, 3, 5}, {[]int{1}, 1, 1}, {[]int{7}, 10, 3}, {[]int{3, 5}, 1000, 64}, {[]int{2, 0}, 4, 4}} {
		w := randArray(r, c.num, c.dim)
		idx := NewArray(Int64, c.idx...)
		for i := range idx.I64 {
			idx.I64[i] = r.Int64N(int64(c.num))
		}
		if idx.Len() > 0 {
			idx.I64[0] = int64(c.num - 1) // the last row
		}
		outShape := append(append([]int{}, c.idx...), c.dim)
		out := NewArray(Float32, outShape...)
		Embedding(out, idx, w)
		for i, ix := range idx.I64 {
			for j := 0; j < c.dim; j++ {
				if got, want := out.F32[i*c.dim+j], w.F32[int(ix)*c.dim+j]; got != want {
					t.Fatalf("indices %v position %d column %d: got %v, want %v", c.idx, i, j, got, want)
				}
			}
		}
	}
}

func TestEmbeddingOutOfRange(t *testing.T) { forEachISA(t, testEmbeddingOutOfRange) }

func testEmbeddingOutOfRange(t *testing.T) {
	w := NewArray(Float32, 4, 2)
	for _, bad := range []int64{4, -1, 1 << 40} {
		func() {
			defer func() {
				r := recover()
				msg, _ := r.(string)
				if !strings.Contains(msg, "runtime: Embedding: index") || !strings.Contains(msg, "out of range [0, 4)") {
					t.Errorf("index %d: got panic %v, want an out-of-range message", bad, r)
				}
			}()
			Embedding(NewArray(Float32, 3, 2), FromInt64([]int64{0, bad, 1}, 3), w)
		}()
	}
}
