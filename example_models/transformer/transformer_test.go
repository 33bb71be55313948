// This file checks the compiled transformer against eager execution and benchmarks both.

package transformer

import (
	"math"
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/tensor"
)

// tolerance bounds |compiled - eager| relative to max(1, max|eager|): both
// run the same runtime kernels in the same order, so they agree to rounding.
const tolerance = 1e-5

// compiled describes the model to the tests every compiled model shares.
var compiled = testutil.Compiled{
	New:     func() any { return NewTransformer() },
	Eager:   func(m any) testutil.Forward { return testutil.Unary(m.(*Transformer).Forward) },
	Compile: func(m any) testutil.Forward { return testutil.Unary(NewTransformerCompiled(m.(*Transformer)).Forward) },
	Inputs: func(n int, seed uint64) []*tensor.Tensor {
		return []*tensor.Tensor{fxgentest.RandInt64(seed, Vocab, n, Seq)}
	},
	Batches:   []int{1, 3, 2},
	Tolerance: tolerance,
}

func TestCompiledMatchesEagerEveryTier(t *testing.T) { compiled.MatchesEagerEveryTier(t) }
func TestCompiledConcurrent(t *testing.T)            { compiled.Concurrent(t) }
func TestCompiledAllocsEveryTier(t *testing.T)       { compiled.AllocsEveryTier(t) }
func TestCompiledBuiltBeforeLoad(t *testing.T)       { compiled.BuiltBeforeLoad(t) }

// TestCausal checks that the logits at position p do not depend on tokens
// after p: changing the last token changes only the last position.
func TestCausal(t *testing.T) {
	c := NewTransformerCompiled(NewTransformer())
	a := fxgentest.RandInt64(5, Vocab, 1, Seq)
	b := tensor.FromInt64(append([]int64{}, a.Int64s()...), 1, Seq)
	b.Int64s()[Seq-1] = (a.Int64s()[Seq-1] + 1) % Vocab
	la := append([]float32{}, c.Forward(a).Float32s()...)
	lb := c.Forward(b).Float32s()
	for i := range la {
		pos := i / Vocab
		same := la[i] == lb[i]
		if pos < Seq-1 && !same {
			t.Fatalf("position %d changed when only the last token did: got %v, want %v", pos, lb[i], la[i])
		}
	}
	if la[(Seq-1)*Vocab] == lb[(Seq-1)*Vocab] && la[Seq*Vocab-1] == lb[Seq*Vocab-1] {
		t.Errorf("the last position did not change with its token")
	}
	for _, v := range la {
		if math.IsNaN(float64(v)) {
			t.Fatalf("NaN in the logits")
		}
	}
}

// flops counts the multiply-adds of the Linears per token and of the two
// attention products per sequence.
func flops(n int) float64 {
	perToken := Layers*(Width*3*Width+Width*Width+2*Width*4*Width) + Width*Vocab
	attention := Layers * 2 * Heads * Seq * Seq * head
	return 2 * float64(n) * float64(Seq*perToken+attention)
}

func BenchmarkForward(b *testing.B) {
	m := NewTransformer()
	c := NewTransformerCompiled(m)
	for _, n := range []int{1, 8} {
		tokens := fxgentest.RandInt64(1, Vocab, n, Seq)
		testutil.BenchForward(b, n, flops(n), func() { m.Forward(tokens) }, func() { c.Forward(tokens) })
	}
}
