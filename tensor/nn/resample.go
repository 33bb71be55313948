// This file defines AvgPool2d and Upsample.

package nn

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
)

// AvgPool2d is torch.nn.AvgPool2d with square windows: the mean of each
// KernelSize×KernelSize window of the last two dims, moved by Stride
// (0 means KernelSize), over Padding zeros on each side.
type AvgPool2d struct {
	KernelSize, Stride, Padding int
	CeilMode                    bool // keep a last partial window
	CountIncludePad             bool // divide by the padding a window covers too
}

// NewAvgPool2d returns a k×k average pooling with PyTorch's defaults
// (stride k, padding 0, ceil_mode false, count_include_pad true), changed
// by the options Stride, Padding, CeilMode and CountIncludePad.
func NewAvgPool2d(k int, opts ...Option) *AvgPool2d {
	cfg := configure("NewAvgPool2d", config{stride: k, countIncludePad: true}, opts, "Stride", "Padding", "CeilMode", "CountIncludePad")
	if k < 1 || cfg.stride < 1 || cfg.padding < 0 || 2*cfg.padding > k {
		panic(fmt.Sprintf("nn.NewAvgPool2d(%d): stride %d, padding %d: want k, stride ≥ 1 and padding at most k/2", k, cfg.stride, cfg.padding))
	}
	return &AvgPool2d{KernelSize: k, Stride: cfg.stride, Padding: cfg.padding, CeilMode: cfg.ceilMode, CountIncludePad: cfg.countIncludePad}
}

// Forward pools the last two dims of x [N, C, H, W] or [C, H, W].
func (m *AvgPool2d) Forward(x *tensor.Tensor) *tensor.Tensor {
	stride := m.Stride
	if stride == 0 {
		stride = m.KernelSize
	}
	k, s, p := []int{m.KernelSize, m.KernelSize}, []int{stride, stride}, []int{m.Padding, m.Padding}
	attrs := []ir.Kwarg{{Name: "kernel_size", Value: k}, {Name: "stride", Value: s}, {Name: "padding", Value: p},
		{Name: "ceil_mode", Value: m.CeilMode}, {Name: "count_include_pad", Value: m.CountIncludePad}}
	return tensor.CallModule(m, "AvgPool2d", attrs, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.AvgPool2d(a[0], k, s, p, m.CeilMode, m.CountIncludePad)}
	}, x)[0]
}

// Upsample is torch.nn.Upsample for 2-D inputs: tensor.Interpolate with
// its fields as the options (Size or ScaleFactor; Mode "nearest" or
// "bilinear"; AlignCorners).
type Upsample struct {
	Size         []int
	ScaleFactor  []float64
	Mode         string
	AlignCorners bool
}

// NewUpsample returns an Upsample by a scale factor in the mode "nearest"
// or "bilinear", as torch.nn.Upsample(scale_factor=scale, mode=mode).
func NewUpsample(scale float64, mode string) *Upsample {
	return &Upsample{ScaleFactor: []float64{scale}, Mode: mode}
}

// Forward resamples the last two dims of x [N, C, H, W] or [C, H, W].
func (m *Upsample) Forward(x *tensor.Tensor) *tensor.Tensor {
	o := tensor.InterpolateOptions{Size: m.Size, ScaleFactor: m.ScaleFactor, Mode: m.Mode, AlignCorners: m.AlignCorners}
	op, attrs := tensor.InterpolateOp(x.Dim(-2), x.Dim(-1), o)
	kind := "UpsampleNearest"
	if op == "upsample_bilinear2d" {
		kind = "UpsampleBilinear"
	}
	return tensor.CallModule(m, kind, attrs, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Interpolate(a[0], o)}
	}, x)[0]
}
