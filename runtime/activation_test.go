// This file tests the smooth activation kernels against math-based references.

package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

func refSigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
func refGelu(x float64) float64    { return 0.5 * x * math.Erfc(-x/math.Sqrt2) }
func refSilu(x float64) float64    { return x / (1 + math.Exp(-x)) }

// refGeluTanh is 0.5·x·(1+tanh(u)) in the form that does not cancel,
// x/(1+e^{-2u}).
func refGeluTanh(x float64) float64 {
	u := math.Sqrt(2/math.Pi) * (x + 0.044715*x*x*x)
	return x / (1 + math.Exp(-2*u))
}

// activationInputs returns a dense sweep of [-lim, lim], a log sweep of
// tiny and huge magnitudes, special values and random values.
func activationInputs(lim float64) []float32 {
	var xs []float32
	for v := -lim; v <= lim; v += 1.0 / 1024 {
		xs = append(xs, float32(v))
	}
	for e := -40.0; e <= 38; e += 0.25 {
		m := float32(math.Pow(10, e))
		xs = append(xs, m, -m)
	}
	xs = append(xs, 0, float32(math.Copysign(0, -1)), math.MaxFloat32, -math.MaxFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)), 1e-45, -1e-45)
	r := rand.New(rand.NewPCG(1, 2))
	for range 10001 { // odd count
		xs = append(xs, float32(r.NormFloat64()*4))
	}
	return xs
}

// maxRelErr returns the largest |got-want| / |want| over the elements,
// counting results whose reference is below the smallest normal float32
// as exact when they agree to 1e-44 absolutely.
func checkActivation(t *testing.T, name string, kernel func(out, x *Array), ref func(float64) float64, xs []float32) float64 {
	t.Helper()
	x := FromFloat32(xs, len(xs))
	out := NewArray(Float32, len(xs))
	kernel(out, x)
	worst := 0.0
	for i, v := range xs {
		want := float64(float32(ref(float64(v))))
		got := float64(out.F32[i])
		if math.IsNaN(want) || math.IsNaN(got) {
			if math.IsNaN(want) != math.IsNaN(got) {
				t.Errorf("%s(%v): got %v, want %v", name, v, got, want)
			}
			continue
		}
		if math.IsInf(want, 0) || math.IsInf(got, 0) {
			if want != got {
				t.Errorf("%s(%v): got %v, want %v", name, v, got, want)
			}
			continue
		}
		d := math.Abs(got - want)
		if math.Abs(want) < 0x1p-126 {
			if d > 1e-44 {
				t.Errorf("%s(%v): got %v, want %v", name, v, got, want)
			}
			continue
		}
		worst = math.Max(worst, d/math.Abs(want))
		if d > 1e-6*math.Abs(want) {
			t.Errorf("%s(%v): got %v, want %v (relative error %.3g)", name, v, got, want, d/math.Abs(want))
			return worst
		}
	}
	return worst
}

func TestActivationsMatchMath(t *testing.T) { forEachISA(t, testActivationsMatchMath) }

func testActivationsMatchMath(t *testing.T) {
	xs := activationInputs(30)
	xs = append(xs, float32(math.NaN()))
	for _, c := range []struct {
		name   string
		kernel func(out, x *Array)
		ref    func(float64) float64
	}{
		{"Sigmoid", Sigmoid, refSigmoid},
		{"Tanh", Tanh, math.Tanh},
		{"Gelu", Gelu, refGelu},
		{"Silu", Silu, refSilu},
		{"GeluTanh", GeluTanh, refGeluTanh},
	} {
		worst := checkActivation(t, c.name, c.kernel, c.ref, xs)
		t.Logf("%s: max relative error %.3g over %d inputs (bound 1e-6)", c.name, worst, len(xs))
	}
}

// TestActivationsOddSizes checks every length around the parallel grain,
// with guard values after the output.
func TestActivationsOddSizes(t *testing.T) { forEachISA(t, testActivationsOddSizes) }

func testActivationsOddSizes(t *testing.T) {
	for _, n := range []int{0, 1, 7, 33, 2*elementwiseGrain - 1, 2 * elementwiseGrain, 3*elementwiseGrain + 5} {
		xs := make([]float32, n)
		r := rand.New(rand.NewPCG(uint64(n), 3))
		for i := range xs {
			xs[i] = float32(r.NormFloat64() * 3)
		}
		for _, k := range []struct {
			name   string
			kernel func(out, x *Array)
			ref    func(float64) float64
		}{{"Sigmoid", Sigmoid, refSigmoid}, {"Tanh", Tanh, math.Tanh}, {"Gelu", Gelu, refGelu}, {"Silu", Silu, refSilu}, {"GeluTanh", GeluTanh, refGeluTanh}} {
			buf := make([]float32, n+4)
			for i := range buf {
				buf[i] = 12345
			}
			k.kernel(FromFloat32(buf[:n], n), FromFloat32(xs, n))
			for i := 0; i < n; i++ {
				want := k.ref(float64(xs[i]))
				if d := math.Abs(float64(buf[i]) - want); d > 1e-6*math.Abs(want)+1e-38 {
					t.Fatalf("%s n=%d element %d: got %v, want %v", k.name, n, i, buf[i], want)
				}
			}
			for i := n; i < n+4; i++ {
				if buf[i] != 12345 {
					t.Fatalf("%s n=%d: wrote past the output at %d", k.name, n, i)
				}
			}
		}
	}
}

func TestActivationsPanicOnBadShape(t *testing.T) { forEachISA(t, testActivationsPanicOnBadShape) }

func testActivationsPanicOnBadShape(t *testing.T) {
	for name, k := range map[string]func(out, x *Array){"Sigmoid": Sigmoid, "Tanh": Tanh, "Gelu": Gelu, "Silu": Silu, "GeluTanh": GeluTanh} {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("%s accepted out [3] for x [4]", name)
				}
			}()
			k(NewArray(Float32, 3), NewArray(Float32, 4))
		}()
	}
}

func BenchmarkActivations(b *testing.B) {
	const n = 1 << 16
	x := NewArray(Float32, n)
	r := rand.New(rand.NewPCG(1, 1))
	for i := range x.F32 {
		x.F32[i] = float32(r.NormFloat64() * 3)
	}
	out := NewArray(Float32, n)
	for _, k := range []struct {
		name   string
		kernel func(out, x *Array)
		kind   int
	}{{"Sigmoid", Sigmoid, taskSigmoid}, {"Tanh", Tanh, taskTanh}, {"Gelu", Gelu, taskGelu}, {"Silu", Silu, taskSilu}, {"GeluTanh", GeluTanh, taskGeluTanh}} {
		b.Run(k.name, func(b *testing.B) {
			b.SetBytes(8 * n)
			for b.Loop() {
				k.kernel(out, x)
			}
		})
		// One goroutine, on each tier the CPU can run (generic is the
		// portable loop).
		b.Run(k.name+"/serial", func(b *testing.B) {
			forEachISABench(b, func(b *testing.B) {
				b.SetBytes(8 * n)
				for b.Loop() {
					activationF32(k.kind, out.F32, x.F32)
				}
			})
		})
	}
	// The GELUs' vector kernels take a fast path for x at least -4 (the
	// exact GELU) or -2.5 (the tanh GELU) and gather the others for the
	// general kernel: with σ = 3 above, 9 % and 20 % of the elements are
	// below; with σ = 1, 0.003 % and 0.6 %.
	narrow := NewArray(Float32, n)
	for i := range narrow.F32 {
		narrow.F32[i] = float32(r.NormFloat64())
	}
	for _, k := range []struct {
		name string
		kind int
	}{{"Gelu", taskGelu}, {"GeluTanh", taskGeluTanh}} {
		b.Run(k.name+"/sigma1/serial", func(b *testing.B) {
			forEachISABench(b, func(b *testing.B) {
				b.SetBytes(8 * n)
				for b.Loop() {
					activationF32(k.kind, out.F32, narrow.F32)
				}
			})
		})
	}
	b.Run("GeluMathErfc", func(b *testing.B) {
		b.SetBytes(8 * n)
		for b.Loop() {
			for i, v := range x.F32 {
				out.F32[i] = float32(refGelu(float64(v)))
			}
		}
	})
	b.Run("TanhMath", func(b *testing.B) {
		b.SetBytes(8 * n)
		for b.Loop() {
			for i, v := range x.F32 {
				out.F32[i] = float32(math.Tanh(float64(v)))
			}
		}
	})
}
