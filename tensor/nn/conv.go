// This file defines Conv2d, the 2-D convolution layer.

package nn

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
)

// Conv2d is torch.nn.Conv2d with square stride and padding, zero padding
// and dilation 1: Weight is [OutChannels, InChannels/Groups, KH, KW], Bias
// [OutChannels] or nil. Stride, Padding and Groups are configuration, not
// parameters; a zero Stride or Groups means 1.
type Conv2d struct {
	Weight  *tensor.Tensor
	Bias    *tensor.Tensor
	Stride  int
	Padding int
	Groups  int
}

// NewConv2d returns a k×k convolution from in to out channels with
// PyTorch's defaults (stride 1, padding 0, groups 1, with bias), changed by
// the options Stride, Padding, Groups and Bias:
//
//	nn.NewConv2d(64, 128, 3, nn.Stride(2), nn.Padding(1), nn.Bias(false))
//
// It is initialised like PyTorch's: weight and bias uniform in
// ±1/√(in/groups·k·k). It panics when the channels do not divide into the
// groups or a size is out of range.
func NewConv2d(in, out, k int, opts ...Option) *Conv2d {
	w, b, cfg := newConvParams("NewConv2d", in, out, []int{k, k}, opts)
	return &Conv2d{Weight: w, Bias: b, Stride: cfg.stride, Padding: cfg.padding, Groups: cfg.groups}
}

// newConvParams reads a convolution constructor's options (Stride,
// Padding, Groups, Bias; PyTorch's defaults 1, 0, 1, true) and returns its
// weight [out, in/groups, kernel...] and bias [out] (nil without),
// initialised like PyTorch's: uniform in ±1/√(in/groups·Πkernel). It
// panics, naming ctor, on sizes out of range.
func newConvParams(ctor string, in, out int, kernel []int, opts []Option) (w, b *tensor.Tensor, cfg config) {
	cfg = configure(ctor, config{stride: 1, groups: 1, bias: true}, opts, "Stride", "Padding", "Groups", "Bias")
	fan := in / max(cfg.groups, 1)
	for _, k := range kernel {
		if k < 1 {
			panic(fmt.Sprintf("nn.%s(%d, %d, %d): channels and kernel size must be positive", ctor, in, out, k))
		}
		fan *= k
	}
	switch {
	case in < 1 || out < 1:
		panic(fmt.Sprintf("nn.%s(%d, %d, %d): channels and kernel size must be positive", ctor, in, out, kernel[0]))
	case cfg.stride < 1 || cfg.padding < 0:
		panic(fmt.Sprintf("nn.%s: stride %d and padding %d: want stride ≥ 1, padding ≥ 0", ctor, cfg.stride, cfg.padding))
	case cfg.groups < 1 || in%cfg.groups != 0 || out%cfg.groups != 0:
		panic(fmt.Sprintf("nn.%s(%d, %d, ...): %d groups do not divide the input and output channels", ctor, in, out, cfg.groups))
	}
	bound := fanInBound(fan)
	w = uniform(bound, append([]int{out, in / cfg.groups}, kernel...)...)
	if cfg.bias {
		b = uniform(bound, out)
	}
	return w, b, cfg
}

// Forward convolves x [N, InChannels, H, W] to [N, OutChannels, OH, OW].
func (c *Conv2d) Forward(x *tensor.Tensor) *tensor.Tensor {
	stride, padding, groups := []int{max(c.Stride, 1), max(c.Stride, 1)}, []int{c.Padding, c.Padding}, max(c.Groups, 1)
	attrs := []ir.Kwarg{{Name: "stride", Value: stride}, {Name: "padding", Value: padding}, {Name: "groups", Value: groups}}
	return tensor.CallModule(c, "Conv2d", attrs, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Conv2d(a[0], c.Weight, c.Bias, stride, padding, groups)}
	}, x)[0]
}
