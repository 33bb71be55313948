package mlp

import (
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
)

// tolerance bounds |compiled - eager| relative to max(1, max|eager|): both
// run the same runtime kernels, so they should agree to rounding.
const tolerance = 1e-6

func TestCompiledMatchesEager(t *testing.T) {
	m := NewMLP()
	c := NewMLPCompiled(m)
	for _, n := range []int{1, 7, 1} { // 1 again: the workspace shrinks back
		x := testutil.RandFloat32(uint64(n), n, 784)
		if err := testutil.Close(c.Forward(x), m.Forward(x), tolerance); err != nil {
			t.Errorf("N=%d: %v", n, err)
		}
	}
}

func TestCompiledRejectsBadInput(t *testing.T) {
	c := NewMLPCompiled(NewMLP())
	defer func() {
		if r := recover(); r == nil {
			t.Errorf("Forward accepted an input of shape [2,783]")
		}
	}()
	c.Forward(testutil.RandFloat32(1, 2, 783))
}

func BenchmarkForward(b *testing.B) {
	m := NewMLP()
	c := NewMLPCompiled(m)
	for _, n := range []int{1, 256} {
		x := testutil.RandFloat32(1, n, 784)
		flops := 2.0 * float64(n) * (784*512 + 512*512 + 512*10)
		testutil.BenchForward(b, n, flops, func() { m.Forward(x) }, func() { c.Forward(x) })
	}
}
