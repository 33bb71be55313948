package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// pointwiseInputs returns n values cycling through the special ones (NaN,
// ±Inf, ±0, the thresholds of hardtanh, relu6 and hardswish) and random
// ones in ±10.
func pointwiseInputs(r *rand.Rand, n int) []float32 {
	special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)),
		-3, 3, -1, 1, 6, -6, 2.5, -2.5, 1e-30, -1e30}
	xs := make([]float32, n)
	for i := range xs {
		if i%3 == 0 {
			xs[i] = special[(i/3)%len(special)]
		} else {
			xs[i] = float32(r.Float64()*20 - 10)
		}
	}
	return xs
}

// sameF32 reports whether got matches want within tol relative (NaN
// matches NaN, infinities match exactly).
func sameF32(got float32, want float64, tol float64) bool {
	g := float64(got)
	switch {
	case math.IsNaN(want):
		return math.IsNaN(g)
	case math.IsInf(want, 0) || want == 0:
		return g == want
	}
	return math.Abs(g-want) <= tol*math.Abs(want)+1e-37
}

// TestPointwiseUnary checks every unary pointwise kernel against its
// reference loop in float64 for lengths around small vector widths, with
// guard values after out to catch stray writes, on every tier.
func TestPointwiseUnary(t *testing.T) { forEachISA(t, testPointwiseUnary) }

func testPointwiseUnary(t *testing.T) {
	relu6 := func(v float64) float64 { return math.Min(math.Max(v, 0), 6) }
	clamp := func(lo, hi float64) func(float64) float64 {
		return func(v float64) float64 {
			if math.IsNaN(v) {
				return v
			}
			return math.Min(math.Max(v, lo), hi)
		}
	}
	cases := []struct {
		name   string
		kernel func(out, x *Array)
		ref    func(float64) float64
		tol    float64
	}{
		{"Relu6", Relu6, func(v float64) float64 {
			if math.IsNaN(v) {
				return v
			}
			return relu6(v)
		}, 0},
		{"Hardtanh(-1,1)", func(o, x *Array) { Hardtanh(o, x, -1, 1) }, clamp(-1, 1), 0},
		{"Hardtanh(2,-1)", func(o, x *Array) { Hardtanh(o, x, 2, -1) }, func(v float64) float64 {
			if math.IsNaN(v) {
				return v
			}
			return -1
		}, 0},
		{"Clamp(-2.5,inf)", func(o, x *Array) { Clamp(o, x, -2.5, math.Inf(1)) }, clamp(-2.5, math.Inf(1)), 0},
		{"Clamp(nan,1)", func(o, x *Array) { Clamp(o, x, math.NaN(), 1) }, func(float64) float64 { return math.NaN() }, 0},
		{"Hardswish", Hardswish, func(v float64) float64 { return v * relu6(v+3) / 6 }, 3e-7},
		{"Hardsigmoid", Hardsigmoid, func(v float64) float64 { return relu6(v+3) / 6 }, 3e-7},
		{"Exp", Exp, math.Exp, 1e-7},
		{"Log", Log, math.Log, 1e-7},
		{"Rsqrt", Rsqrt, func(v float64) float64 { return 1 / math.Sqrt(v) }, 1e-7},
		{"Abs", Abs, math.Abs, 0},
		{"Sqrt", Sqrt, math.Sqrt, 0},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		for _, n := range []int{0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100} {
			xs := pointwiseInputs(r, n)
			x := FromFloat32(xs, n)
			buf := make([]float32, n+4)
			for i := range buf {
				buf[i] = 12345
			}
			out := &Array{DType: Float32, Shape: []int{n}, F32: buf[:n]}
			c.kernel(out, x)
			for i, v := range xs {
				want := c.ref(float64(v))
				// The kernels round the reference's float64 result of the
				// float32 input; the float32 cases compute in float32.
				if !sameF32(out.F32[i], float64(float32(want)), c.tol) {
					t.Errorf("%s n=%d: x[%d] = %v: got %v, want %v", c.name, n, i, v, out.F32[i], float32(want))
				}
			}
			for i, g := range buf[n:] {
				if g != 12345 {
					t.Errorf("%s n=%d: guard %d overwritten: %v", c.name, n, i, g)
				}
			}
		}
	}
}

// TestUnaryMapsSameBits checks that each tier's kernel of every unaryMap
// gives the bits of its portable map (NaN for NaN) over the special values
// and random ones, at every length around the vector widths, from every
// alignment, without writing past out.
func TestUnaryMapsSameBits(t *testing.T) {
	forEachISA(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		for m := range unaryMaps {
			for n := 0; n <= 40; n++ {
				for off := 0; off < 3; off++ {
					xs := pointwiseInputs(r, n+off)[off:]
					buf := make([]float32, off+n+9)
					for i := range buf {
						buf[i] = 12345
					}
					out := buf[off : off+n]
					unarySlice(m, out, xs)
					want := make([]float32, n)
					mapSlice(want, xs, unaryPortable[m])
					if i := sameBits(out, want); i >= 0 {
						t.Fatalf("map %d n=%d off=%d: x[%d] = %v (%#x): got %v (%#x), want %v (%#x)", m, n, off, i,
							xs[i], math.Float32bits(xs[i]), out[i], math.Float32bits(out[i]), want[i], math.Float32bits(want[i]))
					}
					for i, g := range buf[off+n:] {
						if g != 12345 {
							t.Fatalf("map %d n=%d off=%d: guard %d overwritten: %v", m, n, off, i, g)
						}
					}
					for i, g := range buf[:off] {
						if g != 12345 {
							t.Fatalf("map %d n=%d off=%d: guard before out %d overwritten: %v", m, n, off, i, g)
						}
					}
				}
			}
		}
	})
}

// TestAbsInt64 checks Abs on int64.
func TestAbsInt64(t *testing.T) {
	x := FromInt64([]int64{-3, 0, 5, math.MinInt64 + 1}, 4)
	out := NewArray(Int64, 4)
	Abs(out, x)
	for i, want := range []int64{3, 0, 5, math.MaxInt64} {
		if out.I64[i] != want {
			t.Errorf("Abs(%d) = %d, want %d", x.I64[i], out.I64[i], want)
		}
	}
}

// TestPointwiseBinary checks Minimum, Maximum and Pow against reference
// loops, with NaN and infinities, broadcasting a row against a column.
func TestPointwiseBinary(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		name   string
		kernel func(out, a, b *Array)
		ref    func(x, y float64) float64
	}{
		{"Minimum", Minimum, func(x, y float64) float64 {
			if math.IsNaN(x) || math.IsNaN(y) {
				return math.NaN()
			}
			if x < y {
				return x
			}
			return y
		}},
		{"Maximum", Maximum, func(x, y float64) float64 {
			if math.IsNaN(x) || math.IsNaN(y) {
				return math.NaN()
			}
			if x > y {
				return x
			}
			return y
		}},
		{"Pow", Pow, math.Pow},
	}
	for _, c := range cases {
		for _, dims := range [][2]int{{1, 1}, {3, 5}, {7, 17}, {16, 9}} {
			m, n := dims[0], dims[1]
			as, bs := pointwiseInputs(r, m), pointwiseInputs(r, n)
			out := NewArray(Float32, m, n)
			c.kernel(out, FromFloat32(as, m, 1), FromFloat32(bs, n))
			for i := range m {
				for j := range n {
					want := float32(c.ref(float64(as[i]), float64(bs[j])))
					if !sameF32(out.F32[i*n+j], float64(want), 0) {
						t.Errorf("%s(%v, %v) = %v, want %v", c.name, as[i], bs[j], out.F32[i*n+j], want)
					}
				}
			}
		}
	}
	out := NewArray(Int64, 3)
	Maximum(out, FromInt64([]int64{-1, 5, 2}, 3), FromInt64([]int64{0}, 1))
	if got := out.I64; got[0] != 0 || got[1] != 5 || got[2] != 2 {
		t.Errorf("Maximum int64 = %v, want [0 5 2]", got)
	}
}
