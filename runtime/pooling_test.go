package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// maxPoolRef is the reference loop of MaxPool2d's doc comment.
func maxPoolRef(x *Array, kh, kw, sh, sw, ph, pw int) *Array {
	r := len(x.Shape)
	h, w := x.Shape[r-2], x.Shape[r-1]
	oh, ow := (h+2*ph-kh)/sh+1, (w+2*pw-kw)/sw+1
	out := NewArray(Float32, append(append([]int{}, x.Shape[:r-2]...), oh, ow)...)
	for pl := 0; pl < NumElements(x.Shape[:r-2]); pl++ {
		for i := 0; i < oh; i++ {
			for j := 0; j < ow; j++ {
				m := float32(math.Inf(-1))
				for p := 0; p < kh; p++ {
					for q := 0; q < kw; q++ {
						y, z := i*sh-ph+p, j*sw-pw+q
						if y >= 0 && y < h && z >= 0 && z < w {
							v := x.F32[(pl*h+y)*w+z]
							if v > m || math.IsNaN(float64(v)) {
								m = v
							}
						}
					}
				}
				out.F32[(pl*oh+i)*ow+j] = m
			}
		}
	}
	return out
}

// adaptiveAvgRef is the reference loop of AdaptiveAvgPool2d's doc comment.
func adaptiveAvgRef(x *Array, oh, ow int) *Array {
	r := len(x.Shape)
	h, w := x.Shape[r-2], x.Shape[r-1]
	out := NewArray(Float32, append(append([]int{}, x.Shape[:r-2]...), oh, ow)...)
	for pl := 0; pl < NumElements(x.Shape[:r-2]); pl++ {
		for i := 0; i < oh; i++ {
			y0, y1 := int(math.Floor(float64(i*h)/float64(oh))), int(math.Ceil(float64((i+1)*h)/float64(oh)))
			for j := 0; j < ow; j++ {
				z0, z1 := int(math.Floor(float64(j*w)/float64(ow))), int(math.Ceil(float64((j+1)*w)/float64(ow)))
				var s float64
				for y := y0; y < y1; y++ {
					for z := z0; z < z1; z++ {
						s += float64(x.F32[(pl*h+y)*w+z])
					}
				}
				out.F32[(pl*oh+i)*ow+j] = float32(s / float64((y1-y0)*(z1-z0)))
			}
		}
	}
	return out
}

func TestMaxPool2dAgainstReference(t *testing.T) { forEachISA(t, testMaxPool2dAgainstReference) }

func testMaxPool2dAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	type pcase struct{ shape, k, s, p []int }
	cases := []pcase{
		{[]int{1, 1, 1, 1}, []int{1}, nil, []int{0}},
		{[]int{2, 3, 8, 8}, []int{2}, nil, []int{0}},                // stride defaults to the kernel
		{[]int{1, 2, 9, 9}, []int{3}, []int{2}, []int{1}},           // the ResNet stem pool, odd size
		{[]int{2, 16, 56, 56}, []int{3}, []int{2}, []int{1}},        // parallel
		{[]int{3, 7, 5}, []int{3, 2}, []int{1, 2}, []int{1, 1}},     // rank 3, rectangular
		{[]int{1, 1, 2, 2}, []int{3}, []int{1}, []int{1}},           // window larger than the input
		{[]int{1, 2, 6, 7}, []int{2, 4}, []int{3, 1}, []int{1, 2}},  // pad = kernel/2
		{[]int{2, 1, 10, 3}, []int{4, 1}, []int{4, 1}, []int{0, 0}}, // a drop-off row
	}
	for range 60 {
		k := []int{1 + r.IntN(4), 1 + r.IntN(4)}
		c := pcase{[]int{1 + r.IntN(2), 1 + r.IntN(3), 1 + r.IntN(9), 1 + r.IntN(9)}, k,
			[]int{1 + r.IntN(3), 1 + r.IntN(3)}, []int{r.IntN(k[0]/2 + 1), r.IntN(k[1]/2 + 1)}}
		if c.shape[2]+2*c.p[0] < k[0] || c.shape[3]+2*c.p[1] < k[1] {
			continue
		}
		cases = append(cases, c)
	}
	// Rows wide enough for the vector row pass (windowMaxima) over at
	// least 16 interior windows, every stride up to 3.
	for range 40 {
		k := []int{1 + r.IntN(3), 1 + r.IntN(5)}
		c := pcase{[]int{1, 1 + r.IntN(3), 1 + r.IntN(6), 40 + r.IntN(110)}, k,
			[]int{1 + r.IntN(2), 1 + r.IntN(3)}, []int{r.IntN(k[0]/2 + 1), r.IntN(k[1]/2 + 1)}}
		if c.shape[2]+2*c.p[0] < k[0] {
			continue
		}
		cases = append(cases, c)
	}
	for _, c := range cases {
		x := randArray(r, c.shape...)
		if len(x.F32) > 3 {
			x.F32[3] = float32(math.NaN()) // NaN wins its windows
			x.F32[len(x.F32)*2/3] = float32(math.NaN())
		}
		kh, kw := pair2("test", "k", c.k)
		sh, sw := kh, kw
		if c.s != nil {
			sh, sw = pair2("test", "s", c.s)
		}
		ph, pw := pair2("test", "p", c.p)
		want := maxPoolRef(x, kh, kw, sh, sw, ph, pw)
		got := NewArray(Float32, want.Shape...)
		for i := range got.F32 {
			got.F32[i] = 12345 // not NaN: that would hide unwritten windows that hold the NaN
		}
		MaxPool2d(got, x, c.k, c.s, c.p)
		for i := range want.F32 {
			g, w := got.F32[i], want.F32[i]
			if g != w && !(g != g && w != w) {
				t.Fatalf("MaxPool2d x%v k%v s%v p%v: element %d (index %v): got %v, want %v", c.shape, c.k, c.s, c.p, i, unravel(i, want.Shape), g, w)
			}
		}
	}
}

func TestAdaptiveAvgPool2dAgainstReference(t *testing.T) {
	forEachISA(t, testAdaptiveAvgPool2dAgainstReference)
}

func testAdaptiveAvgPool2dAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	type acase struct{ shape, out []int }
	cases := []acase{
		{[]int{2, 3, 4, 4}, []int{1, 1}},      // global average (ResNet)
		{[]int{2, 64, 56, 56}, []int{1, 1}},   // parallel
		{[]int{1, 2, 8, 6}, []int{4, 3}},      // divides evenly
		{[]int{1, 2, 7, 5}, []int{3, 2}},      // overlapping windows
		{[]int{3, 5, 5}, []int{5, 5}},         // identity, rank 3
		{[]int{1, 1, 2, 3}, []int{4, 5}},      // output larger than the input
		{[]int{1, 1, 1, 1}, []int{1, 1}},      // smallest
		{[]int{2, 2, 10, 10}, []int{6, 1}},    // mixed
		{[]int{1, 512, 7, 7}, []int{1, 1}},    // ResNet-18 head
		{[]int{4, 1, 9, 11}, []int{2, 3}},     // uneven both ways
		{[]int{1, 3, 32, 32}, []int{7, 7}},    // uneven, larger
		{[]int{1, 2, 13, 17}, []int{13, 17}},  // identity
		{[]int{2, 3, 6, 6}, []int{3, 3}},      // 2×2 windows
		{[]int{1, 1, 100, 100}, []int{1, 99}}, // long windows
	}
	for _, c := range cases {
		x := randArray(r, c.shape...)
		want := adaptiveAvgRef(x, c.out[0], c.out[1])
		got := nanArray(want.Shape...)
		AdaptiveAvgPool2d(got, x)
		if err := closeArrays(got, want, 1e-5); err != nil {
			t.Fatalf("AdaptiveAvgPool2d x%v to %v: %v", c.shape, c.out, err)
		}
	}
}

func TestPoolingChecks(t *testing.T) { forEachISA(t, testPoolingChecks) }

func testPoolingChecks(t *testing.T) {
	x := NewArray(Float32, 1, 2, 5, 5)
	for _, c := range []struct {
		name string
		call func()
	}{
		{"max: bad out", func() { MaxPool2d(NewArray(Float32, 1, 2, 3, 3), x, []int{2}, nil, []int{0}) }},
		{"max: zero kernel", func() { MaxPool2d(NewArray(Float32, 1, 2, 5, 5), x, []int{0}, []int{1}, []int{0}) }},
		{"max: rank 2", func() { MaxPool2d(NewArray(Float32, 2, 2), NewArray(Float32, 5, 5), []int{2}, nil, []int{0}) }},
		{"max: three sizes", func() { MaxPool2d(NewArray(Float32, 1, 2, 2, 2), x, []int{2, 2, 2}, nil, []int{0}) }},
		{"avg: bad channels", func() { AdaptiveAvgPool2d(NewArray(Float32, 1, 3, 1, 1), x) }},
		{"avg: empty output", func() { AdaptiveAvgPool2d(NewArray(Float32, 1, 2, 0, 1), x) }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", c.name)
				}
			}()
			c.call()
		}()
	}
}

func TestPoolingAllocs(t *testing.T) { forEachISA(t, testPoolingAllocs) }

func testPoolingAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	r := rand.New(rand.NewPCG(1, 1))
	for _, c := range [...]int{4, 400} { // serial, parallel
		x := randArray(r, 2, c, 9, 9)
		mp, ap := NewArray(Float32, 2, c, 5, 5), NewArray(Float32, 2, c, 1, 1)
		k, s, p := []int{3, 3}, []int{2, 2}, []int{1, 1}
		MaxPool2d(mp, x, k, s, p)
		AdaptiveAvgPool2d(ap, x)
		if n := testing.AllocsPerRun(10, func() { MaxPool2d(mp, x, k, s, p) }); n != 0 {
			t.Errorf("MaxPool2d x%v allocates %v times per call, want 0", x.Shape, n)
		}
		if n := testing.AllocsPerRun(10, func() { AdaptiveAvgPool2d(ap, x) }); n != 0 {
			t.Errorf("AdaptiveAvgPool2d x%v allocates %v times per call, want 0", x.Shape, n)
		}
	}
}

// TestMaxRows checks max pooling's row maximum against Go's max bit for
// bit on every tier: lengths with and without a vector tail, NaN in
// either operand, ±0 both ways round, ±Inf.
func TestMaxRows(t *testing.T) { forEachISA(t, testMaxRows) }

func testMaxRows(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	negZero := float32(math.Copysign(0, -1))
	special := []float32{nan, inf, -inf, 0, negZero, 1, -1}
	for n := 0; n <= 40; n++ {
		a, b := make([]float32, n), make([]float32, n)
		for i := range a {
			a[i], b[i] = r.Float32()*2-1, r.Float32()*2-1
			if r.IntN(3) == 0 {
				a[i] = special[r.IntN(len(special))]
			}
			if r.IntN(3) == 0 {
				b[i] = special[r.IntN(len(special))]
			}
		}
		got := make([]float32, n)
		maxRows(got, a, b)
		for i := range got {
			want := max(a[i], b[i])
			if math.Float32bits(got[i]) != math.Float32bits(want) && !(got[i] != got[i] && want != want) {
				t.Fatalf("n=%d: max(%v, %v) = %v, want %v", n, a[i], b[i], got[i], want)
			}
		}
	}
}

// BenchmarkMaxPool2d times the ResNet stem's 3×3 stride-2 max pooling.
func BenchmarkMaxPool2d(b *testing.B) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{1, 8} {
		x := randArray(r, n, 64, 112, 112)
		out := NewArray(Float32, n, 64, 56, 56)
		b.Run(fmt.Sprintf("stem/N=%d", n), func(b *testing.B) {
			for b.Loop() {
				MaxPool2d(out, x, []int{3}, []int{2}, []int{1})
			}
		})
	}
}
