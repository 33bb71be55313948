// Package mlp is the multilayer perceptron of the fxgen model zoo:
// fc1 Linear(784,512) → ReLU → fc2 Linear(512,512) → ReLU → fc3
// Linear(512,10).
package mlp

import (
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

//go:generate go tool fxgen -type MLP -input "x=f32[N,784]"

// MLP is a three-layer perceptron over flattened 28×28 images.
type MLP struct {
	Fc1 *nn.Linear
	Fc2 *nn.Linear
	Fc3 *nn.Linear
}

// NewMLP returns an MLP with PyTorch's default initialisation.
func NewMLP() *MLP {
	return &MLP{Fc1: nn.NewLinear(784, 512), Fc2: nn.NewLinear(512, 512), Fc3: nn.NewLinear(512, 10)}
}

// Forward maps x [N,784] to logits [N,10].
func (m *MLP) Forward(x *tensor.Tensor) *tensor.Tensor {
	x = tensor.Relu(m.Fc1.Forward(x))
	x = tensor.Relu(m.Fc2.Forward(x))
	return m.Fc3.Forward(x)
}
