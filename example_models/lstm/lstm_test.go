// This file checks the compiled lstm against eager execution and benchmarks both.

package lstm

import (
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
)

// tolerance bounds |compiled - eager| relative to max(1, max|eager|): both
// run the same runtime kernels in the same order, so they agree to rounding.
const tolerance = 1e-6

func TestCompiledMatchesEager(t *testing.T) {
	m := NewLSTM()
	c := NewLSTMCompiled(m)
	for _, n := range []int{1, 3, 1} { // 1 again: the workspace shrinks back
		x := testutil.RandFloat32(uint64(n), n, Steps, 128)
		h0 := testutil.RandFloat32(uint64(n)+10, n, 256)
		c0 := testutil.RandFloat32(uint64(n)+20, n, 256)
		gh, gc := c.Forward(x, h0, c0)
		wh, wc := m.Forward(x, h0, c0)
		if err := testutil.Close(gh, wh, tolerance); err != nil {
			t.Errorf("N=%d h: %v", n, err)
		}
		if err := testutil.Close(gc, wc, tolerance); err != nil {
			t.Errorf("N=%d c: %v", n, err)
		}
	}
}

func TestCompiledRejectsBadInput(t *testing.T) {
	c := NewLSTMCompiled(NewLSTM())
	defer func() {
		if r := recover(); r == nil {
			t.Errorf("Forward accepted h0 of batch 3 with x of batch 2")
		}
	}()
	c.Forward(testutil.RandFloat32(1, 2, Steps, 128), testutil.RandFloat32(2, 3, 256), testutil.RandFloat32(3, 2, 256))
}

// flops is 2 multiply-adds per weight per sample and step for ih and hh.
func flops(n int) float64 { return 2 * float64(n) * Steps * (128 + 256) * 1024 }

func BenchmarkForward(b *testing.B) {
	m := NewLSTM()
	c := NewLSTMCompiled(m)
	for _, n := range []int{1, 64} {
		x := testutil.RandFloat32(1, n, Steps, 128)
		h0 := testutil.RandFloat32(2, n, 256)
		c0 := testutil.RandFloat32(3, n, 256)
		testutil.BenchForward(b, n, flops(n), func() { m.Forward(x, h0, c0) }, func() { c.Forward(x, h0, c0) })
	}
}
