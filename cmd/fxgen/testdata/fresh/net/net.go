package net

import (
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

//go:generate go tool fxgen -type Net -input "x=f32[N,8]"

// Net is a two-layer perceptron.
type Net struct{ Fc1, Fc2 *nn.Linear }

// NewNet returns a Net with random weights.
func NewNet() *Net { return &Net{Fc1: nn.NewLinear(8, 16), Fc2: nn.NewLinear(16, 4)} }

// Forward runs the network.
func (m *Net) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.Fc2.Forward(tensor.Relu(m.Fc1.Forward(x)))
}
