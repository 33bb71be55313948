// Package fxdoc is the module of the torch.fx documentation:
// topk(sum(relu(linear(x + linear.weight)), dim=-1), k=3).
package fxdoc

import (
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

//go:generate go tool fxgen -type FXDoc -input "x=f32[N,5,4]" -output fxdoc_fx.go

// FXDoc has an unused parameter Param [3,4] and a Linear(4,5), as in the
// torch.fx documentation.
type FXDoc struct {
	Param  *tensor.Tensor
	Linear *nn.Linear
}

// NewFXDoc returns the module with random parameters.
func NewFXDoc() *FXDoc {
	return &FXDoc{Param: tensor.Rand(1, 3, 4), Linear: nn.NewLinear(4, 5)}
}

// Forward returns the 3 largest row sums and their indices for x [N,5,4].
func (m *FXDoc) Forward(x *tensor.Tensor) (values, indices *tensor.Tensor) {
	y := m.Linear.Forward(tensor.Add(x, m.Linear.Weight)).Relu()
	return tensor.TopK(tensor.Sum(y, -1), 3, -1)
}
