// This file checks FXDoc against PyTorch: PyTorch's weights loaded by name,
// eager and compiled outputs compared with PyTorch's.

package fxdoc

import (
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/parity"
)

// parityTolerance bounds the max abs error of the values against PyTorch
// relative to max|PyTorch output|; the indices must be equal (the script
// checks that the fixture has no ties).
const parityTolerance = 1e-4

func TestPyTorchParity(t *testing.T) {
	f := parity.Load(t)
	m := NewFXDoc()
	f.Prepare(t, m)
	c := NewFXDocCompiled(m) // after the load: packed weights are snapshots
	x := f.Tensor(t, "x")
	wantV, wantI := f.Tensor(t, "values"), f.Tensor(t, "indices")
	v, i := m.Forward(x)
	fxgentest.AllClose(t, "eager values", v, wantV, parity.Tolerance(wantV, parityTolerance))
	fxgentest.AllClose(t, "eager indices", i, wantI, fxgentest.Tolerance{})
	v, i = c.Forward(x)
	fxgentest.AllClose(t, "compiled values", v, wantV, parity.Tolerance(wantV, parityTolerance))
	fxgentest.AllClose(t, "compiled indices", i, wantI, fxgentest.Tolerance{})
}
