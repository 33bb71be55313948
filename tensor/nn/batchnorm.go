// This file defines BatchNorm2d, batch normalization in inference mode.

package nn

import (
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
)

// BatchNorm2d is torch.nn.BatchNorm2d in inference (eval) mode: it
// normalizes each channel of x [N, C, H, W] with the running statistics,
// (x - RunningMean)/√(RunningVar + Eps)·Weight + Bias. Weight and Bias are
// [C] or nil (affine=False). NumBatchesTracked is the 0-d int64 buffer of
// PyTorch's state dicts, there so that they load strictly; inference does
// not read it.
type BatchNorm2d struct {
	Weight            *tensor.Tensor
	Bias              *tensor.Tensor
	RunningMean       *tensor.Tensor
	RunningVar        *tensor.Tensor
	NumBatchesTracked *tensor.Tensor
	Eps               float64
}

// NewBatchNorm2d returns a BatchNorm2d over c channels initialised like
// PyTorch's: weight 1, bias 0, running mean 0, running variance 1, eps 1e-5
// (changed by the option Eps: nn.NewBatchNorm2d(64, nn.Eps(1e-3))).
func NewBatchNorm2d(c int, opts ...Option) *BatchNorm2d {
	cfg := configure("NewBatchNorm2d", config{eps: 1e-5}, opts, "Eps")
	ones := make([]float32, c)
	for i := range ones {
		ones[i] = 1
	}
	return &BatchNorm2d{
		Weight:            tensor.FromFloat32(ones, c),
		Bias:              tensor.FromFloat32(make([]float32, c), c),
		RunningMean:       tensor.FromFloat32(make([]float32, c), c),
		RunningVar:        tensor.FromFloat32(append([]float32{}, ones...), c),
		NumBatchesTracked: tensor.FromInt64([]int64{0}),
		Eps:               cfg.eps,
	}
}

// Forward normalizes x [N, C, ...].
func (b *BatchNorm2d) Forward(x *tensor.Tensor) *tensor.Tensor {
	attrs := []ir.Kwarg{{Name: "eps", Value: b.Eps}}
	return tensor.CallModule(b, "BatchNorm2d", attrs, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.BatchNorm(a[0], b.Weight, b.Bias, b.RunningMean, b.RunningVar, b.Eps)}
	}, x)[0]
}
