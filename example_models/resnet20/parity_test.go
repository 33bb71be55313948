// This file checks ResNet20 against PyTorch: PyTorch's weights (with
// randomised BatchNorm statistics) loaded by name, eager and compiled
// outputs compared with PyTorch's.

package resnet20

import (
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/parity"
)

// parityTolerance bounds the max abs error against PyTorch relative to
// max|PyTorch output|: float32 convolutions summed in another order.
const parityTolerance = 1e-4

func TestPyTorchParity(t *testing.T) {
	f := parity.Load(t)
	m := NewResNet20()
	f.Prepare(t, m)
	c := NewResNet20Compiled(m)
	x, want := f.Tensor(t, "x"), f.Tensor(t, "out")
	fxgentest.AllClose(t, "eager", m.Forward(x), want, parity.Tolerance(want, parityTolerance))
	fxgentest.AllClose(t, "compiled", c.Forward(x), want, parity.Tolerance(want, parityTolerance))
}
