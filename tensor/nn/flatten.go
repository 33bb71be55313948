// This file defines Flatten, the module form of tensor.Flatten.

package nn

import (
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
)

// Flatten is the module form of tensor.Flatten, by default from dim 1.
type Flatten struct{ StartDim, EndDim int }

// NewFlatten returns a Flatten over dims 1..-1, as torch.nn.Flatten.
func NewFlatten() *Flatten { return &Flatten{StartDim: 1, EndDim: -1} }

// Forward merges dims StartDim..EndDim.
func (f *Flatten) Forward(x *tensor.Tensor) *tensor.Tensor {
	attrs := []ir.Kwarg{{Name: "start_dim", Value: f.StartDim}, {Name: "end_dim", Value: f.EndDim}}
	return tensor.CallModule(f, "Flatten", attrs, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Flatten(a[0], f.StartDim, f.EndDim)}
	}, x)[0]
}
