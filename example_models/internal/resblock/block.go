// Package resblock holds BasicBlock, the residual block that ResNet-18
// and ResNet-20 share.
package resblock

import (
	"strings"

	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// BasicBlock is two 3×3 convolutions with BatchNorm and a residual
// connection, as torchvision's BasicBlock: out = relu(bn2(conv2(relu(bn1(
// conv1(x))))) + identity), where identity is x, or Downsample(x) (a 1×1
// convolution and a BatchNorm, named downsample.0 and downsample.1) when
// the block changes the stride or the width. The one ReLU module is used
// twice, as in torchvision.
type BasicBlock struct {
	Conv1      *nn.Conv2d
	Bn1        *nn.BatchNorm2d
	Relu       *nn.ReLU
	Conv2      *nn.Conv2d
	Bn2        *nn.BatchNorm2d
	Downsample *nn.Sequential // nil when the shape is kept
}

// NewBasicBlock returns a block from in to out channels whose first
// convolution has the given stride.
func NewBasicBlock(in, out, stride int) *BasicBlock {
	b := &BasicBlock{
		Conv1: nn.NewConv2d(in, out, 3, nn.Stride(stride), nn.Padding(1), nn.Bias(false)),
		Bn1:   nn.NewBatchNorm2d(out),
		Relu:  &nn.ReLU{},
		Conv2: nn.NewConv2d(out, out, 3, nn.Padding(1), nn.Bias(false)),
		Bn2:   nn.NewBatchNorm2d(out),
	}
	if stride != 1 || in != out {
		b.Downsample = nn.NewSequential(nn.NewConv2d(in, out, 1, nn.Stride(stride), nn.Bias(false)), nn.NewBatchNorm2d(out))
	}
	return b
}

// Forward applies the block to x [N,in,H,W], giving [N,out,H/stride,W/stride].
func (b *BasicBlock) Forward(x *tensor.Tensor) *tensor.Tensor {
	identity := x
	out := b.Relu.Forward(b.Bn1.Forward(b.Conv1.Forward(x)))
	out = b.Bn2.Forward(b.Conv2.Forward(out))
	if b.Downsample != nil {
		identity = b.Downsample.Forward(x)
	}
	return b.Relu.Forward(tensor.Add(out, identity))
}

// IsBatchNorm reports whether the qualified module name is a BatchNorm of
// a ResNet built from BasicBlocks: bn1, bn2 and downsample.1, at any depth.
func IsBatchNorm(module string) bool {
	return strings.Contains(module, "bn") || strings.HasSuffix(module, "downsample.1")
}
