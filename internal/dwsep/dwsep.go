// Package dwsep holds MobileNetV2-style depthwise-separable blocks (a 1×1
// expansion, a depthwise 3×3 and a 1×1 projection, ReLU after the first
// two) of the shapes the channels-last pass rewrites, compiled by fxgen:
// the end-to-end check of that pass, and what scripts/vs_pytorch -layers
// times for those shapes.
package dwsep

import (
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

//go:generate go tool fxgen -type Block7 -input "x=f32[N,160,7,7]" -output block7_fx.go
//go:generate go tool fxgen -type Block14 -input "x=f32[N,96,14,14]" -output block14_fx.go
//go:generate go tool fxgen -type Block14S2 -input "x=f32[N,96,14,14]" -output block14s2_fx.go

// Block is a depthwise-separable block of c input, e expanded and o
// output channels, stride s in the depthwise convolution.
type Block struct {
	Expand, Depthwise, Project *nn.Conv2d
}

// NewBlock returns a block with random parameters.
func NewBlock(c, e, o, s int) *Block {
	return &Block{
		Expand:    nn.NewConv2d(c, e, 1),
		Depthwise: nn.NewConv2d(e, e, 3, nn.Stride(s), nn.Padding(1), nn.Groups(e)),
		Project:   nn.NewConv2d(e, o, 1),
	}
}

// Forward computes the block.
func (m *Block) Forward(x *tensor.Tensor) *tensor.Tensor {
	h := tensor.Relu(m.Expand.Forward(x))
	h = tensor.Relu(m.Depthwise.Forward(h))
	return m.Project.Forward(h)
}

// Block7 is the 160→960→160 block at 7².
type Block7 struct{ B *Block }

// NewBlock7 returns it with random parameters.
func NewBlock7() *Block7 { return &Block7{NewBlock(160, 960, 160, 1)} }

// Forward computes the block.
func (m *Block7) Forward(x *tensor.Tensor) *tensor.Tensor { return m.B.Forward(x) }

// Block14 is the 96→576→96 block at 14².
type Block14 struct{ B *Block }

// NewBlock14 returns it with random parameters.
func NewBlock14() *Block14 { return &Block14{NewBlock(96, 576, 96, 1)} }

// Forward computes the block.
func (m *Block14) Forward(x *tensor.Tensor) *tensor.Tensor { return m.B.Forward(x) }

// Block14S2 is the 96→576→160 block at 14² with stride 2.
type Block14S2 struct{ B *Block }

// NewBlock14S2 returns it with random parameters.
func NewBlock14S2() *Block14S2 { return &Block14S2{NewBlock(96, 576, 160, 2)} }

// Forward computes the block.
func (m *Block14S2) Forward(x *tensor.Tensor) *tensor.Tensor { return m.B.Forward(x) }
