// Package resnet20 is the CIFAR-10 ResNet-20 of He et al. in the fxgen
// model zoo: conv1 3×3 (3→16) → bn1 → ReLU → layer1, layer2, layer3 of
// three BasicBlocks at widths 16, 32, 64 (the first block of layers 2 and 3
// with stride 2 and a 1×1 conv + BatchNorm downsample) → global average
// pool → flatten → fc Linear(64,10). Parameter names follow PyTorch
// (layer2.0.downsample.1.running_mean).
package resnet20

import (
	"github.com/fxgen/fxgen/example_models/internal/resblock"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

//go:generate go tool fxgen -type ResNet20 -input "x=f32[N,3,32,32]" -output resnet20_fx.go

// ResNet20 classifies 32×32 RGB images into 10 classes.
type ResNet20 struct {
	Conv1   *nn.Conv2d
	Bn1     *nn.BatchNorm2d
	Relu    *nn.ReLU
	Layer1  []*resblock.BasicBlock
	Layer2  []*resblock.BasicBlock
	Layer3  []*resblock.BasicBlock
	Avgpool *nn.AdaptiveAvgPool2d
	Fc      *nn.Linear
}

// NewResNet20 returns a ResNet-20 with PyTorch's default initialisation
// and BatchNorm running statistics of a fresh model (mean 0, variance 1).
func NewResNet20() *ResNet20 {
	return &ResNet20{
		Conv1:   nn.NewConv2d(3, 16, 3, nn.Padding(1), nn.Bias(false)),
		Bn1:     nn.NewBatchNorm2d(16),
		Relu:    &nn.ReLU{},
		Layer1:  newLayer(16, 16, 3, 1),
		Layer2:  newLayer(16, 32, 3, 2),
		Layer3:  newLayer(32, 64, 3, 2),
		Avgpool: nn.NewAdaptiveAvgPool2d(1, 1),
		Fc:      nn.NewLinear(64, 10),
	}
}

// Forward maps images x [N,3,32,32] to logits [N,10].
func (m *ResNet20) Forward(x *tensor.Tensor) *tensor.Tensor {
	x = m.Relu.Forward(m.Bn1.Forward(m.Conv1.Forward(x)))
	for _, layer := range [][]*resblock.BasicBlock{m.Layer1, m.Layer2, m.Layer3} {
		for _, b := range layer {
			x = b.Forward(x)
		}
	}
	x = tensor.Flatten(m.Avgpool.Forward(x), 1, -1)
	return m.Fc.Forward(x)
}

// newLayer returns n BasicBlocks from in to out channels, the first with
// the given stride.
func newLayer(in, out, n, stride int) []*resblock.BasicBlock {
	blocks := []*resblock.BasicBlock{resblock.NewBasicBlock(in, out, stride)}
	for i := 1; i < n; i++ {
		blocks = append(blocks, resblock.NewBasicBlock(out, out, 1))
	}
	return blocks
}
