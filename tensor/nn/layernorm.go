// This file defines LayerNorm, layer normalization over trailing dims.

package nn

import (
	"fmt"

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

// NewLayerNorm returns a LayerNorm over the last dim, of size d, with
// PyTorch's defaults (eps 1e-5, weight 1, bias 0), changed by the option
// Eps: nn.NewLayerNorm(768, nn.Eps(1e-6)). For a normalized shape of more
// than one dim, use NewLayerNormShape.
func NewLayerNorm(d int, opts ...Option) *LayerNorm {
	return newLayerNorm("NewLayerNorm", []int{d}, opts)
}

// NewLayerNormShape returns a LayerNorm over the trailing dims shape, as
// torch.nn.LayerNorm(shape) with a list; it takes the option Eps.
func NewLayerNormShape(shape []int, opts ...Option) *LayerNorm {
	return newLayerNorm("NewLayerNormShape", shape, opts)
}

func newLayerNorm(ctor string, shape []int, opts []Option) *LayerNorm {
	cfg := configure(ctor, config{eps: 1e-5}, opts, "Eps")
	for _, d := range shape {
		if d < 1 {
			panic(fmt.Sprintf("nn.%s: normalized shape %v: dims must be positive", ctor, shape))
		}
	}
	if len(shape) == 0 {
		panic("nn." + ctor + ": empty normalized shape")
	}
	return &LayerNorm{
		Weight:          tensor.Ones(tensor.Dims(shape)...),
		Bias:            tensor.Zeros(tensor.Dims(shape)...),
		NormalizedShape: append([]int{}, shape...),
		Eps:             cfg.eps,
	}
}

// Forward normalizes x of shape [..., NormalizedShape...].
func (l *LayerNorm) Forward(x *tensor.Tensor) *tensor.Tensor {
	attrs := []ir.Kwarg{{Name: "normalized_shape", Value: l.NormalizedShape}, {Name: "eps", Value: l.Eps}}
	return tensor.CallModule(l, "LayerNorm", attrs, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.LayerNorm(a[0], l.NormalizedShape, l.Weight, l.Bias, l.Eps)}
	}, x)[0]
}
