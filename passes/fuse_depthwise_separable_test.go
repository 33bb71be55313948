package passes

import (
	"testing"

	"github.com/fxgen/fxgen/tensor/nn"
)

// TestFuseDepthwiseSeparable checks the pass on depthwise-separable
// blocks, running each graph before and after the default pipeline: a
// narrow block at 56² (an expanded image of 1.8 MB) becomes one
// depthwise_separable node, its residual included, and so do one without
// a residual and a stride-2 one; blocks at 40² (0.9 MB: under
// the threshold), a wide block (channels last), a block whose expansion
// has a residual of its own and one whose depthwise convolution doubles
// the channels keep their convolutions.
func TestFuseDepthwiseSeparable(t *testing.T) {
	for _, tc := range []struct {
		name       string
		block      *dwsepBlock
		input      string
		fused      int
		convs      int
		residual   bool
		nhwcLayout bool
	}{
		{"56², residual", newDwsepBlock(24, 144, 24, 1), "x=f32[N,24,56,56]", 1, 0, true, false},
		{"56², no residual", newDwsepBlock(24, 144, 32, 1), "x=f32[N,24,56,56]", 1, 0, false, false},
		{"40²", newDwsepBlock(24, 144, 24, 1), "x=f32[N,24,40,40]", 0, 3, false, false},
		{"stride 2", newDwsepBlock(24, 144, 32, 2), "x=f32[N,24,56,56]", 1, 0, false, false},
		{"stride 2, 40²", newDwsepBlock(24, 144, 32, 2), "x=f32[N,24,40,40]", 0, 3, false, false},
		{"wide", newDwsepBlock(64, 384, 64, 1), "x=f32[N,64,56,56]", 0, 0, false, true},
		{"a residual on the expansion", expandResidualBlock(), "x=f32[N,32,112,112]", 0, 3, false, false},
		{"a channel multiplier", multiplierBlock(), "x=f32[N,24,56,56]", 0, 3, false, false},
	} {
		g := trace(t, tc.block, tc.input)
		randomize(g, 23)
		after, _ := applyAndCompare(t, g, 1e-4, Default...)
		convs := count(after, "conv2d") + count(after, "conv2d_act") + count(after, "conv2d_residual")
		if got := count(after, "depthwise_separable"); got != tc.fused || convs != tc.convs {
			t.Errorf("%s: %d depthwise_separable, %d convolutions; want %d and %d:\n%s", tc.name, got, convs, tc.fused, tc.convs, after)
		}
		if nhwc := count(after, "depthwise_conv2d_nhwc") > 0; nhwc != tc.nhwcLayout {
			t.Errorf("%s: channels last %v, want %v:\n%s", tc.name, nhwc, tc.nhwcLayout, after)
		}
		for _, n := range after.Nodes() {
			if n.Target == "depthwise_separable" {
				if res := n.Args()[7] != nil; res != tc.residual {
					t.Errorf("%s: residual %v, want %v:\n%s", tc.name, res, tc.residual, after)
				}
				if a1, _ := n.Kwarg("act1"); a1 != 3 {
					t.Errorf("%s: act1 %v, want 3 (relu6)", tc.name, a1)
				}
				if st, _ := n.Kwarg("stride"); st != tc.block.Depthwise.Stride {
					t.Errorf("%s: stride %v, want %d", tc.name, st, tc.block.Depthwise.Stride)
				}
			}
		}
	}
}

// expandResidualBlock is a 32→32→32 block at 112² whose input is added to
// its expansion's output: the fused op has no place for that residual.
func expandResidualBlock() *dwsepBlock {
	b := newDwsepBlock(32, 32, 32, 1)
	b.expandResidual = true
	return b
}

// multiplierBlock is a 24→144→24 block whose depthwise convolution makes
// two channels of each (weights [288, 1, 3, 3]).
func multiplierBlock() *dwsepBlock {
	b := newDwsepBlock(24, 144, 24, 1)
	b.Depthwise = nn.NewConv2d(144, 288, 3, nn.Padding(1), nn.Groups(144))
	b.Project = nn.NewConv2d(288, 24, 1)
	return b
}
