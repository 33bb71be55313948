// This file defines Linear, the fully connected layer.

package nn

import (
	"github.com/fxgen/fxgen/ir"
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

// ReLU is the module form of tensor.Relu. Its one unexported byte gives
// every ReLU its own address: Go may give all zero-size values the same
// one, and the tracer tells modules apart by address, so that a ReLU
// reused within a block (as in torchvision's ResNets) keeps its own name.
type ReLU struct{ _ byte }

// Forward returns max(x, 0).
func (r *ReLU) Forward(x *tensor.Tensor) *tensor.Tensor {
	return tensor.CallModule(r, "ReLU", nil, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Relu(a[0])}
	}, x)[0]
}

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

// Module is a module with one tensor in and one out.
type Module interface {
	Forward(x *tensor.Tensor) *tensor.Tensor
}

// Call calls a user submodule's Forward through the tracer's module hook:
// eagerly it is m.Forward(x); while tracing, m is traced through, or kept as
// one opaque call_module node when the tracer is told it is a leaf.
func Call(m Module, x *tensor.Tensor) *tensor.Tensor {
	return tensor.CallModule(m, "", nil, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{m.Forward(a[0])}
	}, x)[0]
}
