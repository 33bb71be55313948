// This file tests the narrow linear path against a reference loop.

package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// linearRef is the reference loop of LinearActPacked in float64.
func linearRef(x, w, bias *Array, act Activation) *Array {
	outF, in := w.Shape[0], w.Shape[1]
	rows := x.Len() / in
	out := NewArray(Float32, append(append([]int{}, x.Shape[:len(x.Shape)-1]...), outF)...)
	for r := 0; r < rows; r++ {
		for j := 0; j < outF; j++ {
			var s float64
			for p := 0; p < in; p++ {
				s += float64(x.F32[r*in+p]) * float64(w.F32[j*in+p])
			}
			if bias != nil {
				s += float64(bias.F32[j])
			}
			switch act {
			case ActReLU:
				if s < 0 {
					s = 0
				}
			case ActGELU:
				s = geluF64(s)
			}
			out.F32[r*outF+j] = float32(s)
		}
	}
	return out
}

func TestLinearNarrow(t *testing.T) { forEachISA(t, testLinearNarrow) }

func testLinearNarrow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, rows := range []int{2, 7, 5120} {
		for _, dims := range [][2]int{{1, 1}, {4, 5}, {3, 16}, {16, 16}, {16, 1}, {17, 5}, {4, 17}} {
			in, outF := dims[0], dims[1]
			x, w := randArray(r, rows, in), randArray(r, outF, in)
			if rows > 2 {
				x.F32[in] = float32(math.NaN())    // row 1 is NaN in every column
				x.F32[2*in] = float32(math.Inf(1)) // row 2 is ±Inf or NaN
			}
			pw := PackLinear(w)
			for _, bias := range []*Array{nil, randArray(r, outF)} {
				for act := Activation(ActNone); act <= ActGELU; act++ {
					want := linearRef(x, w, bias, act)
					// got's backing slice runs on into guard values
					// that must stay as they are.
					const guard = 32
					store := make([]float32, rows*outF+guard)
					for i := range store {
						store[i] = 12345
					}
					got := &Array{DType: Float32, Shape: []int{rows, outF}, F32: store[:rows*outF]}
					LinearActPacked(got, x, pw, bias, int(act))
					if err := closeArrays(got, want, 1e-5); err != nil {
						t.Errorf("rows %d, in %d, out %d, bias %v, act %d: %v", rows, in, outF, bias != nil, act, err)
					}
					for i, v := range store[rows*outF:] {
						if v != 12345 {
							t.Fatalf("rows %d, in %d, out %d: guard value %d past the output changed to %v", rows, in, outF, i, v)
						}
					}
				}
			}
		}
	}
}

// TestLinearNarrowWorkers checks that the narrow path gives the same bits
// on 1 and 2 workers.
func TestLinearNarrowWorkers(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	prev := Workers()
	defer SetWorkers(prev)
	for _, dims := range [][3]int{{16384, 4, 5}, {2048, 16, 16}} { // past narrowParallelMin
		rows, in, outF := dims[0], dims[1], dims[2]
		x, w, bias := randArray(r, rows, in), randArray(r, outF, in), randArray(r, outF)
		pw := PackLinear(w)
		var outs [2]*Array
		for i, n := range []int{1, 2} {
			SetWorkers(n)
			outs[i] = NewArray(Float32, rows, outF)
			LinearActPacked(outs[i], x, pw, bias, int(ActReLU))
		}
		for i := range outs[0].F32 {
			if math.Float32bits(outs[0].F32[i]) != math.Float32bits(outs[1].F32[i]) {
				t.Fatalf("%v: element %d: %v on 1 worker, %v on 2", dims, i, outs[0].F32[i], outs[1].F32[i])
			}
		}
	}
}
