// This file checks DLRM against PyTorch: PyTorch's weights (or the shared
// deterministic fill), eager and compiled outputs compared with PyTorch's.

package dlrm

import (
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/parity"
)

// parityTolerance bounds the max abs error against PyTorch relative to
// max|PyTorch output|: float32 sums of up to 512 terms in another order.
const parityTolerance = 1e-5

func TestPyTorchParity(t *testing.T) {
	f := parity.Load(t)
	m := NewDLRM()
	f.Prepare(t, m)
	// Compiled after the load: packed weights are snapshots.
	c := NewDLRMCompiled(m)
	dense, sparse, want := f.Tensor(t, "dense"), f.Tensor(t, "sparse"), f.Tensor(t, "out")
	fxgentest.AllClose(t, "eager", m.Forward(dense, sparse), want, parity.Tolerance(want, parityTolerance))
	fxgentest.AllClose(t, "compiled", c.Forward(dense, sparse), want, parity.Tolerance(want, parityTolerance))
}
