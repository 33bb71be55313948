// This file checks the compiled lstm against eager execution and benchmarks both.

package lstm

import (
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/tensor"
)

// tolerance bounds |compiled - eager| relative to max(1, max|eager|): both
// run the same runtime kernels in the same order, so they agree to rounding.
const tolerance = 1e-6

// compiled describes the model to the tests every compiled model shares.
var compiled = testutil.Compiled{
	New:     func() any { return NewLSTM() },
	Eager:   func(m any) testutil.Forward { return three(m.(*LSTM).Forward) },
	Compile: func(m any) testutil.Forward { return three(NewLSTMCompiled(m.(*LSTM)).Forward) },
	Inputs: func(n int, seed uint64) []*tensor.Tensor {
		return []*tensor.Tensor{fxgentest.RandFloat32(seed, n, Steps, 128), fxgentest.RandFloat32(seed+1, n, 256), fxgentest.RandFloat32(seed+2, n, 256)}
	},
	Batches:   []int{1, 3, 2},
	Tolerance: tolerance,
}

func three(f func(x, h0, c0 *tensor.Tensor) (h, c *tensor.Tensor)) testutil.Forward {
	return func(in []*tensor.Tensor) []*tensor.Tensor {
		h, c := f(in[0], in[1], in[2])
		return []*tensor.Tensor{h, c}
	}
}

func TestCompiledMatchesEagerEveryTier(t *testing.T) { compiled.MatchesEagerEveryTier(t) }
func TestCompiledConcurrent(t *testing.T)            { compiled.Concurrent(t) }
func TestCompiledAllocsEveryTier(t *testing.T)       { compiled.AllocsEveryTier(t) }
func TestCompiledBuiltBeforeLoad(t *testing.T)       { compiled.BuiltBeforeLoad(t) }
func TestCompiledNilInputs(t *testing.T)             { compiled.NilInputs(t) }
func TestCompiledBadInputs(t *testing.T)             { compiled.BadInputs(t) }

func TestCompiledRejectsBadInput(t *testing.T) {
	c := NewLSTMCompiled(NewLSTM())
	defer func() {
		if r := recover(); r == nil {
			t.Errorf("Forward accepted h0 of batch 3 with x of batch 2")
		}
	}()
	c.Forward(fxgentest.RandFloat32(1, 2, Steps, 128), fxgentest.RandFloat32(2, 3, 256), fxgentest.RandFloat32(3, 2, 256))
}

// flops is 2 multiply-adds per weight per sample and step for ih and hh.
func flops(n int) float64 { return 2 * float64(n) * Steps * (128 + 256) * 1024 }

func BenchmarkForward(b *testing.B) {
	m := NewLSTM()
	c := NewLSTMCompiled(m)
	for _, n := range []int{1, 64} {
		x := fxgentest.RandFloat32(1, n, Steps, 128)
		h0 := fxgentest.RandFloat32(2, n, 256)
		c0 := fxgentest.RandFloat32(3, n, 256)
		testutil.BenchForward(b, n, flops(n), func() { m.Forward(x, h0, c0) }, func() { c.Forward(x, h0, c0) })
	}
}
