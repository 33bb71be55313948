package fxdoc

import (
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/tensor"
)

// tolerance bounds |compiled - eager| relative to max(1, max|eager|): both
// run the same runtime kernels. Indices must match exactly.
const tolerance = 1e-6

// compiled describes the model to the tests every compiled model shares.
var compiled = testutil.Compiled{
	New:     func() any { return NewFXDoc() },
	Eager:   func(m any) testutil.Forward { return pair(m.(*FXDoc).Forward) },
	Compile: func(m any) testutil.Forward { return pair(NewFXDocCompiled(m.(*FXDoc)).Forward) },
	Inputs: func(n int, seed uint64) []*tensor.Tensor {
		return []*tensor.Tensor{fxgentest.RandFloat32(seed, n, 5, 4)}
	},
	Batches:   []int{1, 7, 3},
	Tolerance: tolerance,
}

func pair(f func(x *tensor.Tensor) (values, indices *tensor.Tensor)) testutil.Forward {
	return func(in []*tensor.Tensor) []*tensor.Tensor {
		v, i := f(in[0])
		return []*tensor.Tensor{v, i}
	}
}

func TestCompiledMatchesEagerEveryTier(t *testing.T) { compiled.MatchesEagerEveryTier(t) }
func TestCompiledConcurrent(t *testing.T)            { compiled.Concurrent(t) }
func TestCompiledAllocsEveryTier(t *testing.T)       { compiled.AllocsEveryTier(t) }
func TestCompiledBuiltBeforeLoad(t *testing.T)       { compiled.BuiltBeforeLoad(t) }

func BenchmarkForward(b *testing.B) {
	m := NewFXDoc()
	c := NewFXDocCompiled(m)
	for _, n := range []int{1, 1024} {
		x := fxgentest.RandFloat32(1, n, 5, 4)
		testutil.BenchForward(b, n, 0, func() { m.Forward(x) }, func() { c.Forward(x) })
	}
}
