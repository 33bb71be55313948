// This file checks MLP against PyTorch: PyTorch's weights loaded by name,
// eager and compiled outputs compared with PyTorch's.

package mlp

import (
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/parity"
)

// parityTolerance bounds the max abs error against PyTorch relative to
// max|PyTorch output|: float32 sums of up to 784 terms in another order.
const parityTolerance = 1e-4

func TestPyTorchParity(t *testing.T) {
	f := parity.Load(t)
	m := NewMLP()
	f.Prepare(t, m)
	// Compiled after the load: packed weights are snapshots.
	c := NewMLPCompiled(m)
	x, want := f.Tensor(t, "x"), f.Tensor(t, "out")
	fxgentest.AllClose(t, "eager", m.Forward(x), want, parity.Tolerance(want, parityTolerance))
	fxgentest.AllClose(t, "compiled", c.Forward(x), want, parity.Tolerance(want, parityTolerance))
}
