// This file defines Conv1d, the 1-D convolution layer.

package nn

import (
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
)

// Conv1d is torch.nn.Conv1d with zero padding and dilation 1: Weight is
// [OutChannels, InChannels/Groups, K], Bias [OutChannels] or nil.
type Conv1d struct {
	Weight  *tensor.Tensor
	Bias    *tensor.Tensor
	Stride  int
	Padding int
	Groups  int
}

// NewConv1d returns a convolution of kernel size k from in to out
// channels with PyTorch's defaults (stride 1, padding 0, groups 1, with
// bias), changed by the options Stride, Padding, Groups and Bias, and
// initialised like PyTorch's: uniform in ±1/√(in/groups·k).
func NewConv1d(in, out, k int, opts ...Option) *Conv1d {
	w, b, cfg := newConvParams("NewConv1d", in, out, []int{k}, opts)
	return &Conv1d{Weight: w, Bias: b, Stride: cfg.stride, Padding: cfg.padding, Groups: cfg.groups}
}

// Forward convolves x [N, InChannels, L] to [N, OutChannels, OL].
func (c *Conv1d) Forward(x *tensor.Tensor) *tensor.Tensor {
	stride, groups := max(c.Stride, 1), max(c.Groups, 1)
	attrs := []ir.Kwarg{{Name: "stride", Value: stride}, {Name: "padding", Value: c.Padding}, {Name: "groups", Value: groups}}
	return tensor.CallModule(c, "Conv1d", attrs, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Conv1d(a[0], c.Weight, c.Bias, stride, c.Padding, groups)}
	}, x)[0]
}
