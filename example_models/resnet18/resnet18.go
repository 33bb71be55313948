// Package resnet18 is torchvision's ResNet-18 in the fxgen model zoo, with
// torchvision's module and parameter names: conv1 7×7/2 (3→64) → bn1 →
// ReLU → maxpool 3×3/2 → layer1…layer4 of two BasicBlocks each at widths
// 64, 128, 256, 512 (the first block of layers 2–4 with stride 2 and a
// 1×1 conv + BatchNorm downsample) → global average pool → flatten → fc
// Linear(512,1000). Weights saved from torchvision.models.resnet18 load by
// name.
package resnet18

import (
	"github.com/fxgen/fxgen/example_models/internal/resblock"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

//go:generate go tool fxgen -type ResNet18 -input "x=f32[N,3,224,224]" -output resnet18_fx.go

// ResNet18 classifies 224×224 RGB images into 1000 classes.
type ResNet18 struct {
	Conv1   *nn.Conv2d
	Bn1     *nn.BatchNorm2d
	Relu    *nn.ReLU
	Maxpool *nn.MaxPool2d
	Layer1  []*resblock.BasicBlock
	Layer2  []*resblock.BasicBlock
	Layer3  []*resblock.BasicBlock
	Layer4  []*resblock.BasicBlock
	Avgpool *nn.AdaptiveAvgPool2d
	Fc      *nn.Linear
}

// NewResNet18 returns a ResNet-18 with PyTorch's default layer
// initialisation and BatchNorm running statistics of a fresh model (mean 0,
// variance 1).
func NewResNet18() *ResNet18 {
	return &ResNet18{
		Conv1:   nn.NewConv2d(3, 64, 7, nn.Stride(2), nn.Padding(3), nn.Bias(false)),
		Bn1:     nn.NewBatchNorm2d(64),
		Relu:    &nn.ReLU{},
		Maxpool: nn.NewMaxPool2d(3, 2, 1),
		Layer1:  newLayer(64, 64, 1),
		Layer2:  newLayer(64, 128, 2),
		Layer3:  newLayer(128, 256, 2),
		Layer4:  newLayer(256, 512, 2),
		Avgpool: nn.NewAdaptiveAvgPool2d(1, 1),
		Fc:      nn.NewLinear(512, 1000),
	}
}

// Forward maps images x [N,3,224,224] to logits [N,1000].
func (m *ResNet18) Forward(x *tensor.Tensor) *tensor.Tensor {
	x = m.Maxpool.Forward(m.Relu.Forward(m.Bn1.Forward(m.Conv1.Forward(x))))
	for _, layer := range [][]*resblock.BasicBlock{m.Layer1, m.Layer2, m.Layer3, m.Layer4} {
		for _, b := range layer {
			x = b.Forward(x)
		}
	}
	x = tensor.Flatten(m.Avgpool.Forward(x), 1, -1)
	return m.Fc.Forward(x)
}

// newLayer returns two BasicBlocks from in to out channels, the first with
// the given stride.
func newLayer(in, out, stride int) []*resblock.BasicBlock {
	return []*resblock.BasicBlock{resblock.NewBasicBlock(in, out, stride), resblock.NewBasicBlock(out, out, 1)}
}
