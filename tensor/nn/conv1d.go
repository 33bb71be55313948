// This file defines Conv1d, the 1-D convolution layer.

package nn

import (
	"fmt"

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
	cfg := configure("NewConv1d", config{stride: 1, groups: 1, bias: true}, opts, "Stride", "Padding", "Groups", "Bias")
	switch {
	case in < 1 || out < 1 || k < 1 || cfg.stride < 1 || cfg.padding < 0:
		panic(fmt.Sprintf("nn.NewConv1d(%d, %d, %d): stride %d, padding %d: want positive sizes and padding ≥ 0", in, out, k, cfg.stride, cfg.padding))
	case cfg.groups < 1 || in%cfg.groups != 0 || out%cfg.groups != 0:
		panic(fmt.Sprintf("nn.NewConv1d(%d, %d, ...): %d groups do not divide the input and output channels", in, out, cfg.groups))
	}
	b := fanInBound(in / cfg.groups * k)
	c := &Conv1d{Weight: uniform(b, out, in/cfg.groups, k), Stride: cfg.stride, Padding: cfg.padding, Groups: cfg.groups}
	if cfg.bias {
		c.Bias = uniform(b, out)
	}
	return c
}

// Forward convolves x [N, InChannels, L] to [N, OutChannels, OL].
func (c *Conv1d) Forward(x *tensor.Tensor) *tensor.Tensor {
	stride, groups := max(c.Stride, 1), max(c.Groups, 1)
	attrs := []ir.Kwarg{{Name: "stride", Value: stride}, {Name: "padding", Value: c.Padding}, {Name: "groups", Value: groups}}
	return tensor.CallModule(c, "Conv1d", attrs, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Conv1d(a[0], c.Weight, c.Bias, stride, c.Padding, groups)}
	}, x)[0]
}
