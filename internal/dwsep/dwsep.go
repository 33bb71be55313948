// Package dwsep holds MobileNetV2-style depthwise-separable blocks (a 1×1
// expansion, a depthwise 3×3 and a 1×1 projection, ReLU after the first
// two) at the shapes of a 224² MobileNetV2, compiled by fxgen: an
// end-to-end check of the channels-last pass (which rewrites the wide
// ones) and of batch slices (the narrow ones at high resolution), and
// what scripts/vs_pytorch -layers times.
package dwsep

import (
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

//go:generate go tool fxgen -type Block7 -input "x=f32[N,160,7,7]" -output block7_fx.go
//go:generate go tool fxgen -type Block14 -input "x=f32[N,96,14,14]" -output block14_fx.go
//go:generate go tool fxgen -type Block14S2 -input "x=f32[N,96,14,14]" -output block14s2_fx.go
//go:generate go tool fxgen -type Block112 -input "x=f32[N,32,112,112]" -output block112_fx.go
//go:generate go tool fxgen -type Block56 -input "x=f32[N,24,56,56]" -output block56_fx.go
//go:generate go tool fxgen -type Block28 -input "x=f32[N,32,28,28]" -output block28_fx.go
//go:generate go tool fxgen -type Block112S2 -input "x=f32[N,16,112,112]" -output block112s2_fx.go
//go:generate go tool fxgen -type Block56S2 -input "x=f32[N,24,56,56]" -output block56s2_fx.go
//go:generate go tool fxgen -type Block28S2 -input "x=f32[N,32,28,28]" -output block28s2_fx.go

// Block is a depthwise-separable block of c input, e expanded and o
// output channels, stride s in the depthwise convolution. The types below
// embed it at each shape: fxgen names a compiled model after its type, so
// each shape needs one.
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
type Block7 struct{ *Block }

// NewBlock7 returns it with random parameters.
func NewBlock7() *Block7 { return &Block7{NewBlock(160, 960, 160, 1)} }

// Block14 is the 96→576→96 block at 14².
type Block14 struct{ *Block }

// NewBlock14 returns it with random parameters.
func NewBlock14() *Block14 { return &Block14{NewBlock(96, 576, 96, 1)} }

// Block14S2 is the 96→576→160 block at 14² with stride 2.
type Block14S2 struct{ *Block }

// NewBlock14S2 returns it with random parameters.
func NewBlock14S2() *Block14S2 { return &Block14S2{NewBlock(96, 576, 160, 2)} }

// Block112 is the 32→96→24 block at 112².
type Block112 struct{ *Block }

// NewBlock112 returns it with random parameters.
func NewBlock112() *Block112 { return &Block112{NewBlock(32, 96, 24, 1)} }

// Block56 is the 24→144→24 block at 56².
type Block56 struct{ *Block }

// NewBlock56 returns it with random parameters.
func NewBlock56() *Block56 { return &Block56{NewBlock(24, 144, 24, 1)} }

// Block28 is the 32→192→32 block at 28².
type Block28 struct{ *Block }

// NewBlock28 returns it with random parameters.
func NewBlock28() *Block28 { return &Block28{NewBlock(32, 192, 32, 1)} }

// Block112S2 is the 16→96→24 block at 112² with stride 2.
type Block112S2 struct{ *Block }

// NewBlock112S2 returns it with random parameters.
func NewBlock112S2() *Block112S2 { return &Block112S2{NewBlock(16, 96, 24, 2)} }

// Block56S2 is the 24→144→32 block at 56² with stride 2.
type Block56S2 struct{ *Block }

// NewBlock56S2 returns it with random parameters.
func NewBlock56S2() *Block56S2 { return &Block56S2{NewBlock(24, 144, 32, 2)} }

// Block28S2 is the 32→192→64 block at 28² with stride 2.
type Block28S2 struct{ *Block }

// NewBlock28S2 returns it with random parameters.
func NewBlock28S2() *Block28S2 { return &Block28S2{NewBlock(32, 192, 64, 2)} }
