// This file checks ResNet18 against PyTorch: the deterministic fill of
// testutil.FillStateDict on both sides (PyTorch's 46 MB of weights are not
// committed), eager and compiled outputs compared with PyTorch's.

package resnet18

import (
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/parity"
	"github.com/fxgen/fxgen/internal/testutil"
)

// parityTolerance bounds the max abs error against PyTorch relative to
// max|PyTorch output|: float32 convolutions of up to 4608 terms summed in
// another order, through 18 layers.
const parityTolerance = 1e-4

func TestPyTorchParity(t *testing.T) {
	f := parity.Load(t)
	m := NewResNet18()
	f.Prepare(t, m) // the fill, after checking the state-dict names
	c := NewResNet18Compiled(m)
	// The script fills the input too: element i is HashUniform("x", i).
	x, want := testutil.HashInput("x", 1, 3, 224, 224), f.Tensor(t, "out")
	fxgentest.AllClose(t, "eager", m.Forward(x), want, parity.Tolerance(want, parityTolerance))
	fxgentest.AllClose(t, "compiled", c.Forward(x), want, parity.Tolerance(want, parityTolerance))
}
