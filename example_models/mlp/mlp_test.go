package mlp

import (
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/tensor"
)

// tolerance bounds |compiled - eager| relative to max(1, max|eager|): both
// run the same runtime kernels, so they should agree to rounding.
const tolerance = 1e-6

// compiled describes the model to the tests every compiled model shares.
var compiled = testutil.Compiled{
	New:     func() any { return NewMLP() },
	Eager:   func(m any) testutil.Forward { return testutil.Unary(m.(*MLP).Forward) },
	Compile: func(m any) testutil.Forward { return testutil.Unary(NewMLPCompiled(m.(*MLP)).Forward) },
	Inputs: func(n int, seed uint64) []*tensor.Tensor {
		return []*tensor.Tensor{fxgentest.RandFloat32(seed, n, 784)}
	},
	Batches:   []int{1, 7, 3},
	Tolerance: tolerance,
}

func TestCompiledMatchesEagerEveryTier(t *testing.T) { compiled.MatchesEagerEveryTier(t) }
func TestCompiledConcurrent(t *testing.T)            { compiled.Concurrent(t) }
func TestCompiledAllocsEveryTier(t *testing.T)       { compiled.AllocsEveryTier(t) }
func TestCompiledBuiltBeforeLoad(t *testing.T)       { compiled.BuiltBeforeLoad(t) }
func TestCompiledNilInputs(t *testing.T)             { compiled.NilInputs(t) }
func TestCompiledBadInputs(t *testing.T)             { compiled.BadInputs(t) }

func TestCompiledRejectsBadInput(t *testing.T) {
	c := NewMLPCompiled(NewMLP())
	defer func() {
		if r := recover(); r == nil {
			t.Errorf("Forward accepted an input of shape [2,783]")
		}
	}()
	c.Forward(fxgentest.RandFloat32(1, 2, 783))
}

func BenchmarkForward(b *testing.B) {
	m := NewMLP()
	c := NewMLPCompiled(m)
	for _, n := range []int{1, 256} {
		x := fxgentest.RandFloat32(1, n, 784)
		flops := 2.0 * float64(n) * (784*512 + 512*512 + 512*10)
		testutil.BenchForward(b, n, flops, func() { m.Forward(x) }, func() { c.Forward(x) })
	}
}
