// Package tiny is a small model for fxgen's end-to-end tests.
package tiny

import (
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

//go:generate $FXGEN -type Tiny -input "x=f32[N,4]" -concrete double=true

// Tiny is one linear layer and a ReLU, with an optional scale.
type Tiny struct {
	FC *nn.Linear
}

// NewTiny returns a Tiny with 4 inputs and 3 outputs.
func NewTiny() *Tiny { return &Tiny{FC: nn.NewLinear(4, 3)} }

// Forward returns relu(fc(x)), scaled by 2 when double is set.
func (m *Tiny) Forward(x *tensor.Tensor, double bool) *tensor.Tensor {
	y := m.FC.Forward(x).Relu()
	if double {
		y = y.MulScalar(2)
	}
	return y
}
