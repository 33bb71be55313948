// This file registers the ops of the channels-last layout that the
// channels-last pass gives chains of 1×1 and depthwise convolutions.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() {
	RegisterOp(&Op{
		Name:      "depthwise_conv2d_nhwc",
		PerSample: true,
		Doc: "depthwise_conv2d_nhwc(x, weight, bias, stride, padding, act) is the depthwise convolution of the " +
			"channels-last images x [N,H,W,C] with weight [C,1,KH,KW] plus bias [C] (optional), zero padding, then act " +
			"(0 none, 1 relu, 2 gelu, 3 relu6, 4 silu): [N,OH,OW,C], conv2d with groups = C in NHWC (made by the channels-last pass).",
		Operands: []Operand{{"input", TensorOperand}, {"weight", TensorOperand}, {"bias", OptionalOperand}},
		Attrs: []Attr{
			{Name: "stride", Kind: IntsAttr, Default: []int{1, 1}},
			{Name: "padding", Kind: IntsAttr, Default: []int{0, 0}},
			{Name: "act", Kind: IntAttr},
		},
		Infer: func(s *Sig) ([]Type, error) {
			x, w := s.Args[0].Type, s.Args[1].Type
			if err := wantFloat(x, w); err != nil {
				return nil, err
			}
			if err := checkActAttr(s, "act"); err != nil {
				return nil, err
			}
			if len(x.Shape) != 4 || len(w.Shape) != 4 {
				return nil, fmt.Errorf("got input %v and weight %v, want [N,H,W,C] and [C,1,KH,KW]", x.Shape, w.Shape)
			}
			wdims, ok := w.Shape.Ints()
			if !ok || wdims[1] != 1 || x.Shape[3] != Const(wdims[0]) {
				return nil, fmt.Errorf("weight %v for input %v: want [C,1,KH,KW] with C the input's last dim", w.Shape, x.Shape)
			}
			c := wdims[0]
			if !s.Args[2].Absent {
				if b := s.Args[2].Type; b.DType != Float32 || !b.Shape.Equal(ConstShape(c)) {
					return nil, fmt.Errorf("bias %v, want f32[%d]", b, c)
				}
			}
			oh, ow, err := window2d(s, x.Shape[:3], wdims[2:], false)
			if err != nil {
				return nil, err
			}
			return []Type{{DType: Float32, Shape: Shape{x.Shape[0], Const(oh), Const(ow), Const(c)}}}, nil
		},
		Kernel:   runtime.DepthwiseConv2dNHWC,
		Prepared: &Prepared{Operand: 1, Prepare: runtime.PrepareDepthwiseNHWC, Kernel: runtime.DepthwiseConv2dNHWCPrepared},
	})
}
