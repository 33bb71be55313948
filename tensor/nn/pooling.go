// This file defines the 2-D pooling modules: MaxPool2d and
// AdaptiveAvgPool2d.

package nn

import (
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
)

// MaxPool2d is torch.nn.MaxPool2d with square windows, dilation 1 and
// ceil_mode false. A zero Stride means KernelSize, as torch's default.
type MaxPool2d struct {
	KernelSize int
	Stride     int
	Padding    int
}

// NewMaxPool2d returns a k×k max pooling with the given stride and padding.
func NewMaxPool2d(k, stride, padding int) *MaxPool2d {
	return &MaxPool2d{KernelSize: k, Stride: stride, Padding: padding}
}

// Forward pools the last two dims of x [N, C, H, W].
func (m *MaxPool2d) Forward(x *tensor.Tensor) *tensor.Tensor {
	stride := m.Stride
	if stride == 0 {
		stride = m.KernelSize
	}
	k, s, p := []int{m.KernelSize, m.KernelSize}, []int{stride, stride}, []int{m.Padding, m.Padding}
	attrs := []ir.Kwarg{{Name: "kernel_size", Value: k}, {Name: "stride", Value: s}, {Name: "padding", Value: p}}
	return tensor.CallModule(m, "MaxPool2d", attrs, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.MaxPool2d(a[0], k, s, p)}
	}, x)[0]
}

// AdaptiveAvgPool2d is torch.nn.AdaptiveAvgPool2d: it averages the last
// two dims down to OutputSize (height, width).
type AdaptiveAvgPool2d struct {
	OutputSize [2]int
}

// NewAdaptiveAvgPool2d returns an adaptive average pooling to h×w;
// NewAdaptiveAvgPool2d(1, 1) is the global average pool of ResNets.
func NewAdaptiveAvgPool2d(h, w int) *AdaptiveAvgPool2d {
	return &AdaptiveAvgPool2d{OutputSize: [2]int{h, w}}
}

// Forward pools x [N, C, H, W] to [N, C, OutputSize[0], OutputSize[1]].
func (m *AdaptiveAvgPool2d) Forward(x *tensor.Tensor) *tensor.Tensor {
	size := []int{m.OutputSize[0], m.OutputSize[1]}
	attrs := []ir.Kwarg{{Name: "output_size", Value: size}}
	return tensor.CallModule(m, "AdaptiveAvgPool2d", attrs, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.AdaptiveAvgPool2d(a[0], size)}
	}, x)[0]
}
