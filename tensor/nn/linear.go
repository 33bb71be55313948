// This file defines Linear, the fully connected layer.

package nn

import (
	"github.com/fxgen/fxgen/tensor"
)

// Linear computes x·Weightᵀ + Bias. Weight is [OutFeatures, InFeatures]
// and Bias [OutFeatures] or nil, as in torch.nn.Linear.
type Linear struct {
	Weight *tensor.Tensor
	Bias   *tensor.Tensor
}

// NewLinear returns a Linear from in to out features, with a bias unless
// the option Bias(false) is given (nn.NewLinear(768, 10, nn.Bias(false))),
// initialised like PyTorch's: weight and bias uniform in ±1/√in.
func NewLinear(in, out int, opts ...Option) *Linear {
	cfg := configure("NewLinear", config{bias: true}, opts, "Bias")
	b := fanInBound(in)
	l := &Linear{Weight: uniform(b, out, in)}
	if cfg.bias {
		l.Bias = uniform(b, out)
	}
	return l
}

// Forward applies the layer to x of shape [..., in].
func (l *Linear) Forward(x *tensor.Tensor) *tensor.Tensor {
	return tensor.CallModule(l, "Linear", nil, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Linear(a[0], l.Weight, l.Bias)}
	}, x)[0]
}
