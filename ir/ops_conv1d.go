// This file declares conv1d, the 1-D convolution.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() {
	RegisterOp(&Op{
		Name:   "conv1d",
		Torch:  "F.conv1d",
		Go:     GoForm{Function: "Conv1d", Hand: true},
		Module: &ModuleForm{Name: "Conv1d", Torch: "torch.nn.Conv1d", Params: []string{"weight", "bias"}, Hand: true},
		Doc: "conv1d(x, weight, bias, stride, padding, groups) is the 1-D cross-correlation of x [N,C,L] with weight " +
			"[O,C/groups,K] plus bias [O] (optional), zero padding, dilation 1: [N,O,OL].",
		Operands: []Operand{{"input", TensorOperand}, {"weight", TensorOperand}, {"bias", OptionalOperand}},
		Attrs: []Attr{
			{Name: "stride", Kind: IntAttr, Default: 1},
			{Name: "padding", Kind: IntAttr, Default: 0},
			{Name: "groups", Kind: IntAttr, Default: 1},
		},
		Infer: func(s *Sig) ([]Type, error) {
			x, w := s.Args[0].Type, s.Args[1].Type
			if err := wantFloat(x, w); err != nil {
				return nil, err
			}
			if len(x.Shape) != 3 || len(w.Shape) != 3 {
				return nil, fmt.Errorf("got input %v and weight %v, want [N,C,L] and [O,C/groups,K]", x.Shape, w.Shape)
			}
			wd, ok := w.Shape.Ints()
			if !ok || !x.Shape[2].IsConst() {
				return nil, fmt.Errorf("weight %v and the length of input %v must be constant", w.Shape, x.Shape)
			}
			o, k, groups, stride, pad := wd[0], wd[2], s.Int("groups"), s.Int("stride"), s.Int("padding")
			if groups < 1 || o%groups != 0 || stride < 1 || pad < 0 {
				return nil, fmt.Errorf("groups %d, stride %d, padding %d: want groups ≥ 1 dividing %d, stride ≥ 1, padding ≥ 0", groups, stride, pad, o)
			}
			if want := Const(wd[1] * groups); x.Shape[1] != want {
				return nil, fmt.Errorf("input %v has %v channels, weight %v with groups %d wants %v", x.Shape, x.Shape[1], w.Shape, groups, want)
			}
			if !s.Args[2].Absent {
				if b := s.Args[2].Type; b.DType != Float32 || !b.Shape.Equal(ConstShape(o)) {
					return nil, fmt.Errorf("bias %v, want f32[%d]", b, o)
				}
			}
			l := x.Shape[2].Coef + 2*pad
			if l < k {
				return nil, fmt.Errorf("kernel %d is longer than the padded input %d", k, l)
			}
			return []Type{{DType: Float32, Shape: Shape{x.Shape[0], Const(o), Const((l-k)/stride + 1)}}}, nil
		},
		Kernel: runtime.Conv1d,
	})
}
