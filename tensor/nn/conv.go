// This file defines Conv2d, the 2-D convolution layer.

package nn

import (
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

// NewConv2d returns a k×k convolution from in to out channels, with a bias
// when bias is set, initialised like PyTorch's: weight and bias uniform in
// ±1/√(in·k·k).
func NewConv2d(in, out, k, stride, padding int, bias bool) *Conv2d {
	b := fanInBound(in * k * k)
	c := &Conv2d{Weight: uniform(b, out, in, k, k), Stride: stride, Padding: padding, Groups: 1}
	if bias {
		c.Bias = uniform(b, out)
	}
	return c
}

// Forward convolves x [N, InChannels, H, W] to [N, OutChannels, OH, OW].
func (c *Conv2d) Forward(x *tensor.Tensor) *tensor.Tensor {
	stride, padding, groups := []int{max(c.Stride, 1), max(c.Stride, 1)}, []int{c.Padding, c.Padding}, max(c.Groups, 1)
	attrs := []ir.Kwarg{{Name: "stride", Value: stride}, {Name: "padding", Value: padding}, {Name: "groups", Value: groups}}
	return tensor.CallModule(c, "Conv2d", attrs, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Conv2d(a[0], c.Weight, c.Bias, stride, padding, groups)}
	}, x)[0]
}
