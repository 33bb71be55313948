// This file defines Sequential, a chain of modules named 0, 1, ...

package nn

import "github.com/fxgen/fxgen/tensor"

// Sequential applies its modules in order, as torch.nn.Sequential; their
// parameters are named by position (0.weight, 2.bias, ...). It is traced
// through; each child decides whether it is a leaf.
type Sequential struct {
	Layers []Module `fx:",inline"`
}

// NewSequential returns the chain of layers.
func NewSequential(layers ...Module) *Sequential { return &Sequential{Layers: layers} }

// Forward applies the layers in order.
func (s *Sequential) Forward(x *tensor.Tensor) *tensor.Tensor {
	for _, l := range s.Layers {
		x = l.Forward(x)
	}
	return x
}
