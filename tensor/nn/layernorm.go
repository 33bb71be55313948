// This file defines LayerNorm, layer normalization over trailing dims.

package nn

import (
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
)

// LayerNorm normalizes its input over the trailing dims NormalizedShape and
// applies the elementwise affine Weight and Bias (each of shape
// NormalizedShape, or nil), as torch.nn.LayerNorm.
type LayerNorm struct {
	Weight          *tensor.Tensor
	Bias            *tensor.Tensor
	NormalizedShape []int   `fx:"-"`
	Eps             float64 `fx:"-"`
}

// NewLayerNorm returns a LayerNorm over the trailing dims shape with
// PyTorch's defaults: eps 1e-5, weight 1 and bias 0.
func NewLayerNorm(shape ...int) *LayerNorm {
	return &LayerNorm{
		Weight:          tensor.Ones(tensor.Dims(shape)...),
		Bias:            tensor.Zeros(tensor.Dims(shape)...),
		NormalizedShape: append([]int{}, shape...),
		Eps:             1e-5,
	}
}

// Forward normalizes x of shape [..., NormalizedShape...].
func (l *LayerNorm) Forward(x *tensor.Tensor) *tensor.Tensor {
	attrs := []ir.Kwarg{{Name: "normalized_shape", Value: l.NormalizedShape}, {Name: "eps", Value: l.Eps}}
	return tensor.CallModule(l, "LayerNorm", attrs, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.LayerNorm(a[0], l.NormalizedShape, l.Weight, l.Bias, l.Eps)}
	}, x)[0]
}
