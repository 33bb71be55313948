// This file checks the compiled dlrm against eager execution and benchmarks both.

package dlrm

import (
	"fmt"
	"strings"
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
	New:     func() any { return NewDLRM() },
	Eager:   func(m any) testutil.Forward { return two(m.(*DLRM).Forward) },
	Compile: func(m any) testutil.Forward { return two(NewDLRMCompiled(m.(*DLRM)).Forward) },
	Inputs: func(n int, seed uint64) []*tensor.Tensor {
		return []*tensor.Tensor{fxgentest.RandFloat32(seed, n, 13), fxgentest.RandInt64(seed, 1000, n, Tables)}
	},
	Batches:   []int{1, 5, 3},
	Tolerance: tolerance,
}

func two(f func(dense, sparse *tensor.Tensor) *tensor.Tensor) testutil.Forward {
	return func(in []*tensor.Tensor) []*tensor.Tensor { return []*tensor.Tensor{f(in[0], in[1])} }
}

func TestCompiledMatchesEagerEveryTier(t *testing.T) { compiled.MatchesEagerEveryTier(t) }
func TestCompiledConcurrent(t *testing.T)            { compiled.Concurrent(t) }
func TestCompiledAllocsEveryTier(t *testing.T)       { compiled.AllocsEveryTier(t) }
func TestCompiledBuiltBeforeLoad(t *testing.T)       { compiled.BuiltBeforeLoad(t) }
func TestCompiledNilInputs(t *testing.T)             { compiled.NilInputs(t) }
func TestCompiledBadInputs(t *testing.T)             { compiled.BadInputs(t) }

// TestTrilIndex checks the flat indices i·9+j of DLRM's li, lj: the
// entries strictly below the diagonal of the 9×9 interactions, row-major.
func TestTrilIndex(t *testing.T) {
	got := fmt.Sprint(trilIndex.Int64s())
	want := "[9 18 19 27 28 29 36 37 38 39 45 46 47 48 49 54 55 56 57 58 59 63 64 65 66 67 68 69 72 73 74 75 76 77 78 79]"
	if got != want {
		t.Errorf("trilIndex = %s, want %s", got, want)
	}
}

func TestCompiledRejectsBadIndex(t *testing.T) {
	c := NewDLRMCompiled(NewDLRM())
	sparse := fxgentest.RandInt64(1, 1000, 2, Tables)
	sparse.Int64s()[11] = 1000 // row 1, table 3
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "runtime: Embedding: index 1000") || !strings.Contains(msg, "out of range [0, 1000)") {
			t.Errorf("got panic %q, want an Embedding out-of-range message", msg)
		}
	}()
	c.Forward(fxgentest.RandFloat32(1, 2, 13), sparse)
}

// flops counts the multiply-adds of the six Linears and the interaction.
func flops(n int) float64 {
	return 2 * float64(n) * (13*512 + 512*256 + 256*64 + 9*9*64 + 100*512 + 512*256 + 256*1)
}

func BenchmarkForward(b *testing.B) {
	m := NewDLRM()
	c := NewDLRMCompiled(m)
	for _, n := range []int{1, 2048} {
		dense := fxgentest.RandFloat32(1, n, 13)
		sparse := fxgentest.RandInt64(2, 1000, n, Tables)
		testutil.BenchForward(b, n, flops(n), func() { m.Forward(dense, sparse) }, func() { c.Forward(dense, sparse) })
	}
}
