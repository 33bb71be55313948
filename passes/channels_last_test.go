package passes

import (
	"testing"

	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// dwsepBlock is a MobileNetV2-style block: a 1×1 expansion, a depthwise
// 3×3 and a 1×1 projection, ReLU6 after the first two, and a residual add
// when the block keeps its shape.
type dwsepBlock struct {
	Expand, Depthwise, Project *nn.Conv2d
	residual                   bool
	expandResidual             bool // x added to the expansion's output (C = E)
}

func newDwsepBlock(c, e, o, stride int) *dwsepBlock {
	return &dwsepBlock{
		Expand:    nn.NewConv2d(c, e, 1),
		Depthwise: nn.NewConv2d(e, e, 3, nn.Stride(stride), nn.Padding(1), nn.Groups(e)),
		Project:   nn.NewConv2d(e, o, 1),
		residual:  c == o && stride == 1,
	}
}

func (m *dwsepBlock) Forward(x *tensor.Tensor) *tensor.Tensor {
	h := m.Expand.Forward(x)
	if m.expandResidual {
		h = tensor.Add(h, x)
	}
	h = tensor.Relu6(h)
	h = tensor.Relu6(m.Depthwise.Forward(h))
	h = m.Project.Forward(h)
	if m.residual {
		h = tensor.Add(h, x)
	}
	return h
}

// TestChannelsLast checks the channels-last pass on depthwise-separable
// blocks, running each graph before and after: a wide block (64→384→64
// at 7², with its residual) runs on channels-last images between one
// permute at its start and one at its end, its expansion as a linear
// layer with ReLU6, its depthwise convolution as depthwise_conv2d_nhwc
// and its projection as a linear_residual taking the block's input in
// channels-last order from the first permute; a stride-2 wide block
// (no residual) likewise; a narrow block (24→144→24, under
// channelsLastMin) stays as it was, and so does a block whose expansion
// alone is narrow.
func TestChannelsLast(t *testing.T) {
	for _, tc := range []struct {
		name             string
		block            *dwsepBlock
		input            string
		permutes, nhwc   int
		linearAct, convs int
		residual         int
	}{
		// The projection takes the residual in its GEMM (linear_residual).
		{"wide", newDwsepBlock(64, 384, 64, 1), "x=f32[N,64,7,7]", 2, 1, 1, 0, 1},
		{"wide, stride 2", newDwsepBlock(64, 384, 96, 2), "x=f32[N,64,9,9]", 2, 1, 1, 0, 0},
		{"narrow", newDwsepBlock(24, 144, 24, 1), "x=f32[N,24,8,8]", 0, 0, 0, 3, 0},
		// A narrow expansion: the wide depthwise convolution and
		// projection after it stay too.
		{"narrow expansion", newDwsepBlock(32, 192, 64, 2), "x=f32[N,32,12,12]", 0, 0, 0, 3, 0},
	} {
		g := trace(t, tc.block, tc.input)
		randomize(g, 21)
		after, _ := applyAndCompare(t, g, 1e-4, Default...)
		convs := count(after, "conv2d") + count(after, "conv2d_act") + count(after, "conv2d_residual")
		if count(after, "permute") != tc.permutes || count(after, "depthwise_conv2d_nhwc") != tc.nhwc ||
			count(after, "linear_act") != tc.linearAct || convs != tc.convs || count(after, "linear_residual") != tc.residual {
			t.Errorf("%s: %d permutes, %d depthwise_conv2d_nhwc, %d linear_act, %d convolutions, %d linear_residual; want %d, %d, %d, %d, %d:\n%s",
				tc.name, count(after, "permute"), count(after, "depthwise_conv2d_nhwc"), count(after, "linear_act"), convs,
				count(after, "linear_residual"), tc.permutes, tc.nhwc, tc.linearAct, tc.convs, tc.residual, after)
		}
	}
}
