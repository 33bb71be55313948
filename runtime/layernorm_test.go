// This file tests LayerNorm against a float64 reference loop.

package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestLayerNormAgainstReference(t *testing.T) { forEachISA(t, testLayerNormAgainstReference) }

func testLayerNormAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 7))
	for _, c := range []struct {
		shape, norm []int
		affine      [2]bool
		shift       float32
	}{
		{[]int{1, 1}, []int{1}, [2]bool{true, true}, 0},
		{[]int{3, 7}, []int{7}, [2]bool{true, true}, 0},
		{[]int{2, 3, 5}, []int{3, 5}, [2]bool{true, false}, 0},
		{[]int{4, 9}, []int{9}, [2]bool{false, true}, 1000}, // large mean
		{[]int{5, 17}, []int{17}, [2]bool{false, false}, 0},
		{[]int{2, 128, 256}, []int{256}, [2]bool{true, true}, 0}, // parallel rows
		{[]int{6}, []int{6}, [2]bool{true, true}, -3},
	} {
		x := randArray(r, c.shape...)
		for i := range x.F32 {
			x.F32[i] = x.F32[i]*3 + c.shift
		}
		var w, b *Array
		if c.affine[0] {
			w = randArray(r, c.norm...)
		}
		if c.affine[1] {
			b = randArray(r, c.norm...)
		}
		const eps = 1e-5
		out := NewArray(Float32, c.shape...)
		for i := range out.F32 {
			out.F32[i] = float32(math.NaN()) // the kernel must write everything
		}
		LayerNorm(out, x, w, b, c.norm, eps)
		d := NumElements(c.norm)
		for row := 0; row < x.Len()/d; row++ {
			var mean, v float64
			for j := 0; j < d; j++ {
				mean += float64(x.F32[row*d+j])
			}
			mean /= float64(d)
			for j := 0; j < d; j++ {
				c := float64(x.F32[row*d+j]) - mean
				v += c * c
			}
			v /= float64(d)
			for j := 0; j < d; j++ {
				want := (float64(x.F32[row*d+j]) - mean) / math.Sqrt(v+eps)
				if w != nil {
					want *= float64(w.F32[j])
				}
				if b != nil {
					want += float64(b.F32[j])
				}
				got := float64(out.F32[row*d+j])
				if math.Abs(got-want) > 2e-6*math.Max(1, math.Abs(want)) {
					t.Fatalf("shape %v norm %v row %d element %d: got %v, want %v", c.shape, c.norm, row, j, got, want)
				}
			}
		}
	}
}

func TestLayerNormConstantRow(t *testing.T) { forEachISA(t, testLayerNormConstantRow) }

func testLayerNormConstantRow(t *testing.T) {
	x := FromFloat32([]float32{5, 5, 5, 5}, 1, 4)
	out := NewArray(Float32, 1, 4)
	LayerNorm(out, x, nil, FromFloat32([]float32{1, 2, 3, 4}, 4), []int{4}, 1e-5)
	for i, want := range []float32{1, 2, 3, 4} {
		if out.F32[i] != want {
			t.Errorf("element %d: got %v, want %v (a constant row normalizes to 0)", i, out.F32[i], want)
		}
	}
}

func TestLayerNormPanics(t *testing.T) { forEachISA(t, testLayerNormPanics) }

func testLayerNormPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"shape not trailing": func() { LayerNorm(NewArray(Float32, 2, 3), NewArray(Float32, 2, 3), nil, nil, []int{2}, 1e-5) },
		"bad weight": func() {
			LayerNorm(NewArray(Float32, 2, 3), NewArray(Float32, 2, 3), NewArray(Float32, 2), nil, []int{3}, 1e-5)
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
