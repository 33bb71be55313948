// This file tests Softmax against a float64 reference loop.

package runtime

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// refSoftmax is the textbook softmax along dim in float64 with math.Exp.
func refSoftmax(x *Array, dim int) []float64 {
	d, _ := NormalizeDim(dim, len(x.Shape))
	outer, size, inner := NumElements(x.Shape[:d]), x.Shape[d], NumElements(x.Shape[d+1:])
	out := make([]float64, x.Len())
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			at := func(j int) int { return (o*size+j)*inner + i }
			m := math.Inf(-1)
			for j := 0; j < size; j++ {
				m = math.Max(m, float64(x.F32[at(j)]))
			}
			var s float64
			for j := 0; j < size; j++ {
				s += math.Exp(float64(x.F32[at(j)]) - m)
			}
			for j := 0; j < size; j++ {
				out[at(j)] = math.Exp(float64(x.F32[at(j)])-m) / s
			}
		}
	}
	return out
}

func TestSoftmaxAgainstReference(t *testing.T) { forEachISA(t, testSoftmaxAgainstReference) }

func testSoftmaxAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	negInf := float32(math.Inf(-1))
	for _, c := range []struct {
		shape []int
		dim   int
		scale float32
	}{
		{[]int{1}, 0, 1}, {[]int{7}, -1, 1}, {[]int{3, 5}, 1, 1}, {[]int{3, 5}, 0, 1},
		{[]int{2, 3, 4}, 1, 10}, {[]int{2, 3, 5}, -1, 1000}, {[]int{4, 1, 3}, 1, 1},
		{[]int{2, 4, 33, 33}, -1, 30}, {[]int{5, 2 * elementwiseGrain / 16}, 0, 1},
		{[]int{3 * elementwiseGrain / 7, 7}, 1, 5}, // parallel rows
	} {
		x := randArray(r, c.shape...)
		for i := range x.F32 {
			x.F32[i] *= c.scale
			if i%5 == 2 {
				x.F32[i] = negInf // some -Inf entries, never a whole row of the big ones
			}
		}
		if len(c.shape) > 1 && c.shape[0] > 1 && c.scale == 1000 {
			x.F32[0] = 88 // exp overflows float32 without the max shift
		}
		out := NewArray(Float32, c.shape...)
		Softmax(out, x, c.dim)
		want := refSoftmax(x, c.dim)
		for i, w := range want {
			g := float64(out.F32[i])
			if math.IsNaN(w) != math.IsNaN(g) || math.Abs(g-w) > 1e-6*math.Max(w, 1e-30)+1e-7 {
				t.Fatalf("shape %v dim %d element %d (index %v): got %v, want %v", c.shape, c.dim, i, unravel(i, c.shape), g, w)
			}
		}
	}
}

func TestSoftmaxSpecialRows(t *testing.T) { forEachISA(t, testSoftmaxSpecialRows) }

func testSoftmaxSpecialRows(t *testing.T) {
	inf := float32(math.Inf(1))
	negInf := float32(math.Inf(-1))
	nan := float32(math.NaN())
	x := FromFloat32([]float32{
		negInf, 0, negInf, // one finite entry: exactly [0 1 0]
		negInf, negInf, negInf, // all -Inf: NaN, as in PyTorch
		1e30, 1e30, -1e30, // large values: finite
		1, nan, 2, // a NaN poisons the row
		inf, 0, 0, // +Inf: NaN (Inf - Inf), as in PyTorch
	}, 5, 3)
	want := []float32{0, 1, 0, nan, nan, nan, 0.5, 0.5, 0, nan, nan, nan, nan, nan, nan}
	for _, dim := range []int{1} {
		out := NewArray(Float32, 5, 3)
		Softmax(out, x, dim)
		for i, w := range want {
			g := out.F32[i]
			if math.IsNaN(float64(w)) != math.IsNaN(float64(g)) || !math.IsNaN(float64(w)) && g != w {
				t.Errorf("row %d element %d: got %v, want %v", i/3, i%3, g, w)
			}
		}
	}
	// The same rows along dim 0 of the transpose take the strided path.
	xt := NewArray(Float32, 3, 5)
	Transpose(xt, x, 0, 1)
	out := NewArray(Float32, 3, 5)
	Softmax(out, xt, 0)
	for i, w := range want {
		g := out.F32[(i%3)*5+i/3]
		if math.IsNaN(float64(w)) != math.IsNaN(float64(g)) || !math.IsNaN(float64(w)) && g != w {
			t.Errorf("strided row %d element %d: got %v, want %v", i/3, i%3, g, w)
		}
	}
}

func TestSoftmaxPanics(t *testing.T) { forEachISA(t, testSoftmaxPanics) }

func testSoftmaxPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"bad dim":   func() { Softmax(NewArray(Float32, 2, 3), NewArray(Float32, 2, 3), 2) },
		"bad out":   func() { Softmax(NewArray(Float32, 3, 2), NewArray(Float32, 2, 3), 1) },
		"int input": func() { Softmax(NewArray(Float32, 2), NewArray(Int64, 2), 0) },
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

// TestSoftmaxRowsTogether checks that softmaxKeptRows with every element
// kept, which softmaxRows runs on the vector tiers (all the rows in one
// call of a fused kernel; on the portable tier a row at a time through
// softmaxKeptRow), gives each row the bits softmaxRowsOne's steps give it
// alone, over odd and even row counts, short and long rows, and special
// rows (all -Inf, or a NaN) after the first and among the last.
func TestSoftmaxRowsTogether(t *testing.T) { forEachISA(t, testSoftmaxRowsTogether) }

func testSoftmaxRowsTogether(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for _, size := range []int{1, 7, 16, 77, 128, 301} {
		for _, rows := range []int{1, 2, 5, 8} {
			x := make([]float32, rows*size)
			for i := range x {
				x[i] = float32(rng.NormFloat64() * 6)
			}
			if rows >= 5 {
				for i := range size {
					x[size+i] = float32(math.Inf(-1)) // row 1: all -Inf
				}
				x[4*size+size/2] = float32(math.NaN()) // row 4: a NaN
			}
			got := make([]float32, len(x))
			softmaxKeptRows(got, x, size, rows, nil)
			want := make([]float32, len(x))
			for r := range rows {
				softmaxRowsOne(want, x, size, r, r+1, false)
			}
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
					t.Fatalf("size %d, %d rows: element %d of row %d is %v, alone %v", size, rows, i%size, i/size, got[i], want[i])
				}
			}
			// In place, as the attention's program runs it.
			softmaxKeptRows(x, x, size, rows, nil)
			for i := range want {
				if math.Float32bits(x[i]) != math.Float32bits(want[i]) && !(x[i] != x[i] && want[i] != want[i]) {
					t.Fatalf("in place, size %d, %d rows: element %d of row %d is %v, alone %v", size, rows, i%size, i/size, x[i], want[i])
				}
			}
		}
	}
}

// TestSoftmaxKeptRows checks softmaxKeptRows against the softmax of each
// row with its elements past the kept ones set to -Inf, bit for bit:
// rows of random lengths kept, and rows whose kept elements hold a NaN, a
// +Inf or only -Inf, or whose cut elements hold a NaN.
func TestSoftmaxKeptRows(t *testing.T) { forEachISA(t, testSoftmaxKeptRows) }

func testSoftmaxKeptRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	for _, size := range []int{1, 9, 28, 77, 128} {
		const rows = 9
		x := make([]float32, rows*size)
		for i := range x {
			x[i] = float32(rng.NormFloat64() * 6)
		}
		kept := make([]int, rows)
		for r := range kept {
			kept[r] = 1 + rng.IntN(size)
		}
		x[1*size+kept[1]-1] = nan
		x[2*size] = inf
		for i := range kept[3] {
			x[3*size+i] = -inf
		}
		if kept[4] < size {
			x[4*size+size-1] = nan // cut: no effect
		}
		want := slices.Clone(x)
		for r, n := range kept {
			for i := n; i < size; i++ {
				want[r*size+i] = -inf
			}
		}
		softmaxRowsOne(want, want, size, 0, rows, false)
		for _, inPlace := range []bool{false, true} {
			got := make([]float32, len(x))
			src := x
			if inPlace {
				copy(got, x)
				src = got
			}
			softmaxKeptRows(got, src, size, rows, kept)
			for i := range want {
				if g, w := got[i], want[i]; math.Float32bits(g) != math.Float32bits(w) && !(g != g && w != w) {
					t.Fatalf("size %d, in place %v: row %d (%d kept) element %d is %v, want %v", size, inPlace, i/size, kept[i/size], i%size, g, w)
				}
			}
		}
	}
}
