package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBinaryVecMatchesLoops checks the vector loops of the four float32
// binary ops, on equal shapes and with a scalar, against plain loops for
// every length up to 70 (in place too), with NaN, ±Inf, ±0 and guard
// values after the output.
func TestBinaryVecMatchesLoops(t *testing.T) { forEachISA(t, testBinaryVecMatchesLoops) }

func testBinaryVecMatchesLoops(t *testing.T) {
	if !binarySameVec(opAdd, nil, nil, nil) {
		skipWithoutVec(t, "binary ops")
	}
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 1e-40}
	rng := rand.New(rand.NewPCG(12, 12))
	val := func() float32 {
		if rng.IntN(6) == 0 {
			return specials[rng.IntN(len(specials))]
		}
		return float32(rng.NormFloat64())
	}
	ref := func(op binaryOp, x, y float32) float32 {
		switch op {
		case opAdd:
			return x + y
		case opSub:
			return x - y
		case opMul:
			return x * y
		}
		return x / y
	}
	same := func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) || (x != x && y != y) }
	for _, op := range []binaryOp{opAdd, opSub, opMul, opDiv} {
		for n := 0; n <= 70; n++ {
			a, b := make([]float32, n), make([]float32, n)
			for i := range a {
				a[i], b[i] = val(), val()
			}
			s := val()
			o := make([]float32, n+1)
			o[n] = 3
			binarySameVec(op, o[:n], a, b)
			os := make([]float32, n+1)
			os[n] = 3
			binaryScalarVec(op, os[:n], a, s)
			inPlace := append([]float32(nil), a...)
			binarySameVec(op, inPlace, inPlace, b)
			for i := range n {
				if want := ref(op, a[i], b[i]); !same(o[i], want) || !same(inPlace[i], want) {
					t.Errorf("op %d, n=%d: %v op %v = %v (in place %v), want %v", op, n, a[i], b[i], o[i], inPlace[i], want)
				}
				if want := ref(op, a[i], s); !same(os[i], want) {
					t.Errorf("op %d, n=%d: %v op scalar %v = %v, want %v", op, n, a[i], s, os[i], want)
				}
			}
			if o[n] != 3 || os[n] != 3 {
				t.Errorf("op %d, n=%d: wrote past the output", op, n)
			}
		}
	}
}

// TestDivScalarByPowerOfTwo checks that a division by a scalar power of
// two, which binaryScalarF32 does as a multiplication by its reciprocal,
// gives the quotient's bits for every power of two of either sign and for
// normal, subnormal, tiny, huge and special dividends, and that other
// divisors (subnormal powers of two included) are left to the division.
func TestDivScalarByPowerOfTwo(t *testing.T) { forEachISA(t, testDivScalarByPowerOfTwo) }

func testDivScalarByPowerOfTwo(t *testing.T) {
	xs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 3, 0.1, -7.25, 1e-40, -1e-44, 1e-45,
		math.SmallestNonzeroFloat32, 0x1p-126, 0x1.fffffep-127, 1.5e-38, 3.4e38, -math.MaxFloat32, 0x1p127,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	rng := rand.New(rand.NewPCG(5, 5))
	for range 200 {
		xs = append(xs, float32(rng.NormFloat64()*math.Pow(2, float64(rng.IntN(300)-150))))
	}
	out := make([]float32, len(xs))
	for e := -126; e <= 127; e++ {
		for _, sign := range []float32{1, -1} {
			s := sign * float32(math.Ldexp(1, e))
			if _, ok := exactReciprocal(s); !ok {
				t.Fatalf("exactReciprocal(%g) = false", s)
			}
			binaryScalarF32(opDiv, out, xs, s)
			for i, x := range xs {
				want := x / s
				if math.Float32bits(out[i]) != math.Float32bits(want) && !(want != want && out[i] != out[i]) {
					t.Fatalf("%g / %g = %g (%#x), want %g (%#x)", x, s, out[i], math.Float32bits(out[i]), want, math.Float32bits(want))
				}
			}
		}
	}
	for _, s := range []float32{0, 3, 0.1, 0x1p-127, 0x1p-149, float32(math.Inf(1)), float32(math.NaN()), 1.0000001} {
		if _, ok := exactReciprocal(s); ok {
			t.Errorf("exactReciprocal(%g) = true", s)
		}
	}
}
