package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// avgPoolRef is the reference loop of AvgPool2d's doc comment, summed in
// float64.
func avgPoolRef(x *Array, kh, kw, sh, sw, ph, pw int, ceilMode, includePad bool) *Array {
	r := len(x.Shape)
	h, w := x.Shape[r-2], x.Shape[r-1]
	oh, ow := PoolOutSize(h, kh, sh, ph, ceilMode), PoolOutSize(w, kw, sw, pw, ceilMode)
	out := NewArray(Float32, append(append([]int{}, x.Shape[:r-2]...), oh, ow)...)
	for pl := 0; pl < NumElements(x.Shape[:r-2]); pl++ {
		for i := 0; i < oh; i++ {
			for j := 0; j < ow; j++ {
				y0, z0 := i*sh-ph, j*sw-pw
				y1, z1 := min(y0+kh, h+ph), min(z0+kw, w+pw)
				n := (y1 - y0) * (z1 - z0)
				y0, z0, y1, z1 = max(y0, 0), max(z0, 0), min(y1, h), min(z1, w)
				if !includePad {
					n = (y1 - y0) * (z1 - z0)
				}
				var s float64
				for y := y0; y < y1; y++ {
					for z := z0; z < z1; z++ {
						s += float64(x.F32[(pl*h+y)*w+z])
					}
				}
				out.F32[(pl*oh+i)*ow+j] = float32(s / float64(n))
			}
		}
	}
	return out
}

func TestAvgPool2dAgainstReference(t *testing.T) { forEachISA(t, testAvgPool2dAgainstReference) }

func testAvgPool2dAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	type pcase struct {
		shape         []int
		k, s, p       [2]int
		ceil, inclPad bool
	}
	cases := []pcase{
		{[]int{2, 3, 8, 8}, [2]int{2, 2}, [2]int{2, 2}, [2]int{0, 0}, false, true},        // 2×2/2, whole vectors
		{[]int{1, 4, 35, 33}, [2]int{3, 3}, [2]int{1, 1}, [2]int{1, 1}, false, true},      // 3×3/1 pad 1, vector tails
		{[]int{1, 4, 35, 33}, [2]int{3, 3}, [2]int{1, 1}, [2]int{1, 1}, false, false},     // without the padding's count
		{[]int{2, 40, 33, 35}, [2]int{3, 3}, [2]int{2, 2}, [2]int{1, 1}, true, false},     // ceil mode, parallel
		{[]int{1, 2, 7, 5}, [2]int{3, 2}, [2]int{2, 1}, [2]int{1, 1}, true, true},         // uneven window and stride
		{[]int{3, 9, 17}, [2]int{1, 5}, [2]int{1, 3}, [2]int{0, 2}, false, true},          // one row per window, rank 3
		{[]int{1, 1, 1, 1}, [2]int{1, 1}, [2]int{1, 1}, [2]int{0, 0}, false, true},        // smallest
		{[]int{1, 2, 20, 70}, [2]int{7, 7}, [2]int{3, 5}, [2]int{3, 3}, true, true},       // large window
		{[]int{1, 64, 14, 14}, [2]int{14, 14}, [2]int{14, 14}, [2]int{0, 0}, false, true}, // global
		{[]int{1, 2, 9, 20}, [2]int{3, 1}, [2]int{2, 1}, [2]int{1, 0}, false, true},       // one column per window, vector rows
		{[]int{1, 3, 20, 40}, [2]int{5, 5}, [2]int{1, 1}, [2]int{2, 2}, false, false},     // 5×5/1, vector rows
	}
	for ci, c := range cases {
		x := randArray(r, c.shape...)
		if ci == 1 {
			// Non-finite inputs reach exactly the windows that cover them.
			x.F32[3*33+5] = float32(math.NaN())
			x.F32[35*33+20*33+7] = float32(math.Inf(1))
			x.F32[2*35*33+33-1] = float32(math.Inf(-1))
		}
		want := avgPoolRef(x, c.k[0], c.k[1], c.s[0], c.s[1], c.p[0], c.p[1], c.ceil, c.inclPad)
		got := nanArray(want.Shape...)
		AvgPool2d(got, x, c.k[:], c.s[:], c.p[:], c.ceil, c.inclPad)
		for i, w := range want.F32 {
			g := got.F32[i]
			bad := math.IsNaN(float64(w)) != math.IsNaN(float64(g)) ||
				math.IsInf(float64(w), 0) && g != w ||
				math.Abs(float64(g-w)) > 2e-6*max(1, math.Abs(float64(w)))
			if bad {
				t.Fatalf("AvgPool2d x%v k%v s%v p%v ceil %v pad %v: element %d (index %v): got %v, want %v",
					c.shape, c.k, c.s, c.p, c.ceil, c.inclPad, i, unravel(i, want.Shape), g, w)
			}
		}
	}
}

// BenchmarkAvgPool2d times average pooling at shapes CNNs use: a 3×3
// stride-1 window as Inception's branches do, DenseNet's 2×2 stride-2
// transition, and the global average of a ResNet head.
func BenchmarkAvgPool2d(b *testing.B) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, c := range []struct {
		name    string
		shape   []int
		k, s, p int
	}{
		{"3x3s1/64x56", []int{8, 64, 56, 56}, 3, 1, 1},
		{"2x2s2/128x56", []int{8, 128, 56, 56}, 2, 2, 0},
		{"global/512x7", []int{8, 512, 7, 7}, 7, 7, 0},
	} {
		x := randArray(r, c.shape...)
		h := c.shape[2]
		o := PoolOutSize(h, c.k, c.s, c.p, false)
		out := NewArray(Float32, c.shape[0], c.shape[1], o, o)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				AvgPool2d(out, x, []int{c.k}, []int{c.s}, []int{c.p}, false, true)
			}
		})
	}
	x := randArray(r, 8, 512, 7, 7)
	out := NewArray(Float32, 8, 512, 1, 1)
	b.Run("adaptive/512x7", func(b *testing.B) {
		for b.Loop() {
			AdaptiveAvgPool2d(out, x)
		}
	})
}
