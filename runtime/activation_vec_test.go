package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestActivationVecMatchesPortable checks the vector activation kernels
// element by element against the portable loops they stand in for, on
// special values, a sweep of magnitudes and every tail length, with guard
// values after the output to catch stray writes.
func TestActivationVecMatchesPortable(t *testing.T) {
	if !activationVec(taskGelu, nil, nil) {
		t.Skip("no vector activation kernels in this build or on this CPU")
	}
	xs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, -0.5, 1e-3, -1e-3, 0x1p-7, -0x1p-7, 0x1.01p-7,
		1e-30, -1e-30, 1e-45, 3, -3, 5.5, -5.5, 9, -9, 10, -10, 14, -14, 20, -20, 40, -40, 88, -88, 89, -89,
		100, -100, 400, -400, 1e6, -1e6, 3.4e38, -3.4e38,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 20000 {
		xs = append(xs, float32(rng.NormFloat64()*math.Pow(10, rng.Float64()*4-2)))
	}
	kinds := []struct {
		name     string
		kind     int
		portable func(out, x []float32)
	}{{"gelu", taskGelu, geluF32}, {"sigmoid", taskSigmoid, sigmoidF32}, {"tanh", taskTanh, tanhF32}}
	for _, k := range kinds {
		want := make([]float32, len(xs))
		k.portable(want, xs)
		got := make([]float32, len(xs)+1)
		got[len(xs)] = 12345
		if !activationVec(k.kind, got[:len(xs)], xs) {
			t.Fatalf("%s: no vector kernel", k.name)
		}
		if got[len(xs)] != 12345 {
			t.Errorf("%s: wrote past the output", k.name)
		}
		for i, x := range xs {
			if !sameUpToULP(got[i], want[i]) {
				t.Errorf("%s(%v): vector %v, portable %v", k.name, x, got[i], want[i])
			}
		}
		// Every tail length: the masked tail computes what the full
		// lanes compute, and stops at n.
		for n := 0; n <= 17; n++ {
			out := make([]float32, n+8)
			for i := range out {
				out[i] = -7
			}
			activationVec(k.kind, out[:n], xs[:n])
			for i := range n {
				if math.Float32bits(out[i]) != math.Float32bits(got[i]) {
					t.Errorf("%s, n=%d: element %d is %v, want %v", k.name, n, i, out[i], got[i])
				}
			}
			for i := n; i < len(out); i++ {
				if out[i] != -7 {
					t.Errorf("%s, n=%d: wrote element %d", k.name, n, i)
				}
			}
		}
	}
}

// sameUpToULP reports whether a and b are both NaN or differ by at most one
// float32 unit in the last place (the two paths round the same float64
// formulas, evaluated in a different order).
func sameUpToULP(a, b float32) bool {
	if a != a || b != b {
		return a != a && b != b
	}
	if a == b {
		return true
	}
	if math.Signbit(float64(a)) != math.Signbit(float64(b)) {
		return false
	}
	d := int64(math.Float32bits(a)) - int64(math.Float32bits(b))
	return d == 1 || d == -1
}
