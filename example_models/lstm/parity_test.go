// This file checks LSTM against PyTorch: PyTorch's weights (or the shared
// deterministic fill), eager and compiled outputs compared with PyTorch's.

package lstm

import (
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/parity"
)

// parityTolerance bounds the max abs error against PyTorch relative to
// max|PyTorch output|: float32 sums of 384 terms per step in another order, over 16 steps.
const parityTolerance = 1e-5

func TestPyTorchParity(t *testing.T) {
	f := parity.Load(t)
	m := NewLSTM()
	f.Prepare(t, m)
	// Compiled after the load: packed weights are snapshots.
	c := NewLSTMCompiled(m)
	x, h0, c0 := f.Tensor(t, "x"), f.Tensor(t, "h0"), f.Tensor(t, "c0")
	wantH, wantC := f.Tensor(t, "h"), f.Tensor(t, "c")
	eh, ec := m.Forward(x, h0, c0)
	fxgentest.AllClose(t, "eager h", eh, wantH, parity.Tolerance(wantH, parityTolerance))
	fxgentest.AllClose(t, "eager c", ec, wantC, parity.Tolerance(wantC, parityTolerance))
	ch, cc := c.Forward(x, h0, c0)
	fxgentest.AllClose(t, "compiled h", ch, wantH, parity.Tolerance(wantH, parityTolerance))
	fxgentest.AllClose(t, "compiled c", cc, wantC, parity.Tolerance(wantC, parityTolerance))
}
