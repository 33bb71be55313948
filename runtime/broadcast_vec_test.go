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
