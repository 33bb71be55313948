// This file checks Transformer against PyTorch: PyTorch's weights (or the shared
// deterministic fill), eager and compiled outputs compared with PyTorch's.

package transformer

import (
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/parity"
)

// parityTolerance bounds the max abs error against PyTorch relative to
// max|PyTorch output|: float32 sums of up to 1024 terms in another order through four blocks, and GELU and exp within 1e-6 relative of the libm functions.
const parityTolerance = 1e-4

func TestPyTorchParity(t *testing.T) {
	f := parity.Load(t)
	m := NewTransformer()
	f.Prepare(t, m)
	// Compiled after the load: packed weights are snapshots.
	c := NewTransformerCompiled(m)
	tokens, want := f.Tensor(t, "tokens"), f.Tensor(t, "out")
	fxgentest.AllClose(t, "eager", m.Forward(tokens), want, parity.Tolerance(want, parityTolerance))
	fxgentest.AllClose(t, "compiled", c.Forward(tokens), want, parity.Tolerance(want, parityTolerance))
}
