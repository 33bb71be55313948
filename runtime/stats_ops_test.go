package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// panicText returns the message of fn's panic, or "" when it returns.
func panicText(fn func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	fn()
	return ""
}

// TestExtremesNaN checks that max, min, argmax and argmin take the first
// NaN, as PyTorch does, and that ties keep the first position.
func TestExtremesNaN(t *testing.T) {
	nan := float32(math.NaN())
	x := &Array{DType: Float32, Shape: []int{2, 4}, F32: []float32{1, nan, 5, nan, 2, 2, -1, -1}}
	vals, idx := NewArray(Float32, 2), NewArray(Int64, 2)
	MaxDim(vals, idx, x, 1, false)
	if !math.IsNaN(float64(vals.F32[0])) || idx.I64[0] != 1 || vals.F32[1] != 2 || idx.I64[1] != 0 {
		t.Errorf("MaxDim: values %v indices %v, want [NaN 2] [1 0]", vals.F32, idx.I64)
	}
	MinDim(vals, idx, x, 1, false)
	if !math.IsNaN(float64(vals.F32[0])) || idx.I64[0] != 1 || vals.F32[1] != -1 || idx.I64[1] != 2 {
		t.Errorf("MinDim: values %v indices %v, want [NaN -1] [1 2]", vals.F32, idx.I64)
	}
	ArgMax(idx, x, -1, false)
	if idx.I64[0] != 1 || idx.I64[1] != 0 {
		t.Errorf("ArgMax: %v, want [1 0]", idx.I64)
	}
	ArgMin(idx, x, -1, false)
	if idx.I64[0] != 1 || idx.I64[1] != 2 {
		t.Errorf("ArgMin: %v, want [1 2]", idx.I64)
	}
	xi := &Array{DType: Int64, Shape: []int{3}, I64: []int64{4, 9, 9}}
	vi, ii := NewArray(Int64), NewArray(Int64)
	MaxDim(vi, ii, xi, 0, false)
	if vi.I64[0] != 9 || ii.I64[0] != 1 {
		t.Errorf("MaxDim i64: %v at %v, want 9 at 1", vi.I64, ii.I64)
	}
}

// TestVarSmallCount checks the divisor rule: one element with the
// unbiased estimate is NaN (0/0), and Mean/Var of NaN input are NaN.
func TestVarSmallCount(t *testing.T) {
	x := &Array{DType: Float32, Shape: []int{2, 1}, F32: []float32{3, float32(math.NaN())}}
	out := NewArray(Float32, 2)
	Var(out, x, []int{1}, 1, false)
	if !math.IsNaN(float64(out.F32[0])) || !math.IsNaN(float64(out.F32[1])) {
		t.Errorf("Var of one element, correction 1: %v, want [NaN NaN]", out.F32)
	}
	Var(out, x, []int{1}, 0, false)
	if out.F32[0] != 0 || !math.IsNaN(float64(out.F32[1])) {
		t.Errorf("Var of one element, correction 0: %v, want [0 NaN]", out.F32)
	}
	Mean(out, x, []int{-1}, true)
	if out.F32[0] != 3 || !math.IsNaN(float64(out.F32[1])) {
		t.Errorf("Mean: %v, want [3 NaN]", out.F32)
	}
}

// TestAvgPool2dWorkers checks that planes spread over workers give what
// one worker does.
func TestAvgPool2dWorkers(t *testing.T) {
	x := randArray(rand.New(rand.NewPCG(3, 4)), 2, 40, 33, 35) // above poolParallelMin
	oh, ow := PoolOutSize(33, 3, 2, 1, true), PoolOutSize(35, 3, 2, 1, true)
	one, many := nanArray(2, 40, oh, ow), nanArray(2, 40, oh, ow)
	prev := Workers()
	defer SetWorkers(prev)
	SetWorkers(1)
	AvgPool2d(one, x, []int{3}, []int{2}, []int{1}, true, false)
	SetWorkers(2)
	AvgPool2d(many, x, []int{3}, []int{2}, []int{1}, true, false)
	if err := closeArrays(many, one, 0); err != nil {
		t.Error(err)
	}
}

// TestStatsOpsReject checks that bad arguments panic with the kernel's
// name and the reason.
func TestStatsOpsReject(t *testing.T) {
	w := NewArray(Float32, 4, 2)
	ix := &Array{DType: Int64, Shape: []int{3}, I64: []int64{0, 1, 4}}
	f32 := func(s ...int) *Array { return NewArray(Float32, s...) }
	i64 := func(v ...int64) *Array { return &Array{DType: Int64, Shape: []int{len(v)}, I64: v} }
	for _, c := range []struct {
		fn   func()
		want string
	}{
		{func() { EmbeddingBag(f32(1, 2), ix, i64(0), w, EmbeddingBagSum) }, "index 4 at position 2"},
		{func() { EmbeddingBag(f32(2, 2), i64(0, 1), i64(1, 2), w, EmbeddingBagSum) }, "want 0 first"},
		{func() { EmbeddingBag(f32(2, 2), i64(0, 1), i64(0, 3), w, EmbeddingBagSum) }, "at most 2"},
		{func() { EmbeddingBag(f32(1, 2), i64(0, 1), i64(0), w, 3) }, "mode 3"},
		{func() { Gather(f32(3), f32(3), i64(0, 3, 1), 0) }, "index 3 at position 1"},
		{func() { Gather(f32(3), f32(2), i64(0, 1, 1), 0) }, ""}, // index may be larger only in dim
		{func() { ArgMax(NewArray(Int64, 2), f32(2, 0), 1, false) }, "is empty"},
		{func() { Mean(f32(2), f32(2, 3), []int{2}, false) }, "dim 2 out of range"},
		{func() { Where(f32(3), &Array{DType: Bool, Shape: []int{2}, B: make([]bool, 2)}, f32(3), f32(3)) }, "do not broadcast"},
		{func() { AvgPool2d(f32(1, 1, 1, 1), f32(1, 1, 4, 4), []int{2}, nil, []int{2}, false, true) }, "do not fit x"},
		{func() { InterpolateBilinear(f32(1, 2, 3, 3), f32(1, 1, 2, 2), false, 0, 0) }, "does not resample"},
	} {
		got := panicText(c.fn)
		if c.want == "" {
			if got != "" {
				t.Errorf("unexpected panic %q", got)
			}
			continue
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("panic %q, want it to contain %q", got, c.want)
		}
	}
}

// TestConv1dAgainstReference checks Conv1d, grouped and strided, against
// the loop of its doc comment.
func TestConv1dAgainstReference(t *testing.T) { forEachISA(t, testConv1dAgainstReference) }

func testConv1dAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ n, cin, l, o, k, s, p, g int }{
		{2, 4, 17, 6, 3, 1, 1, 1}, {1, 6, 30, 6, 5, 2, 2, 3}, {3, 8, 9, 8, 3, 1, 0, 8}, {1, 3, 64, 16, 7, 3, 3, 1},
	} {
		x, w, b := randArray(r, c.n, c.cin, c.l), randArray(r, c.o, c.cin/c.g, c.k), randArray(r, c.o)
		ol := (c.l+2*c.p-c.k)/c.s + 1
		got, want := nanArray(c.n, c.o, ol), NewArray(Float32, c.n, c.o, ol)
		cg, og := c.cin/c.g, c.o/c.g
		for n := 0; n < c.n; n++ {
			for o := 0; o < c.o; o++ {
				for j := 0; j < ol; j++ {
					s := float64(b.F32[o])
					for ci := 0; ci < cg; ci++ {
						for q := 0; q < c.k; q++ {
							if z := j*c.s - c.p + q; z >= 0 && z < c.l {
								s += float64(x.F32[(n*c.cin+(o/og)*cg+ci)*c.l+z]) * float64(w.F32[(o*cg+ci)*c.k+q])
							}
						}
					}
					want.F32[(n*c.o+o)*ol+j] = float32(s)
				}
			}
		}
		Conv1d(got, x, w, b, c.s, c.p, c.g)
		if err := closeArrays(got, want, 1e-5); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

// TestSurfaceKernelsAllocs: the kernels behind the PyTorch surface's ops
// allocate nothing once warm (compiled Forward calls them every call), on
// every tier.
func TestSurfaceKernelsAllocs(t *testing.T) { forEachISA(t, testSurfaceKernelsAllocs) }

func testSurfaceKernelsAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	r := rand.New(rand.NewPCG(1, 2))
	x := randArray(r, 2, 3, 8, 8)
	cases := map[string]func(){}
	o1 := NewArray(Float32, 2, 3)
	cases["Mean"] = func() { Mean(o1, x, []int{2, 3}, false) }
	cases["Var"] = func() { Var(o1, x, []int{2, 3}, 1, false) }
	v, i := NewArray(Float32, 2, 3, 8), NewArray(Int64, 2, 3, 8)
	cases["MaxDim"] = func() { MaxDim(v, i, x, 3, false) }
	cases["ArgMax"] = func() { ArgMax(i, x, 3, false) }
	ap := NewArray(Float32, 2, 3, 4, 4)
	cases["AvgPool2d"] = func() { AvgPool2d(ap, x, []int{2}, nil, []int{0}, false, true) }
	up := NewArray(Float32, 2, 3, 16, 16)
	cases["Nearest"] = func() { InterpolateNearest(up, x, 2, 2) }
	cases["Bilinear"] = func() { InterpolateBilinear(up, x, false, 2, 2) }
	w := randArray(r, 10, 4)
	idx := &Array{DType: Int64, Shape: []int{6}, I64: []int64{1, 2, 3, 4, 5, 6}}
	off := &Array{DType: Int64, Shape: []int{2}, I64: []int64{0, 3}}
	eb := NewArray(Float32, 2, 4)
	cases["EmbeddingBag"] = func() { EmbeddingBag(eb, idx, off, w, EmbeddingBagMean) }
	gi := &Array{DType: Int64, Shape: []int{2, 3, 8, 8}, I64: make([]int64, 2*3*64)}
	go1 := NewArray(Float32, 2, 3, 8, 8)
	cases["Gather"] = func() { Gather(go1, x, gi, 1) }
	cond := NewArray(Bool, 8)
	zero := Float32Scalar(0)
	cases["Where"] = func() { Where(go1, cond, x, zero) }
	xs, ws, bs := randArray(r, 2, 3, 20), randArray(r, 4, 3, 3), randArray(r, 4)
	c1 := NewArray(Float32, 2, 4, 20)
	cases["Conv1d"] = func() { Conv1d(c1, xs, ws, bs, 1, 1, 1) }
	cases["FullLike"] = func() { FullLike(go1, x, 1) }
	cases["Exp"] = func() { Exp(go1, x) }
	cases["Clamp"] = func() { Clamp(go1, x, 0, 1) }
	cases["Adopt"] = func() { Adopt("x", go1, Float32, []int{2, 3, 8, 8}, x) }
	ex := NewArray(Float32, 2, 3, 8, 8)
	x1 := randArray(r, 1, 3, 8, 8)
	sz := []*Array{Int64Scalar(2), Int64Scalar(-1), Int64Scalar(-1), Int64Scalar(-1)}
	cases["Expand"] = func() { Expand(ex, x1, sz) }
	for name, f := range cases {
		f()
		if got := testing.AllocsPerRun(20, f); got != 0 {
			t.Errorf("%s: %v allocations per call, want 0", name, got)
		}
	}
}
