// This file declares squeeze and full_like.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() {
	RegisterOp(&Op{
		Name:     "squeeze",
		Torch:    "torch.squeeze, Tensor.squeeze",
		Go:       GoForm{Method: "Squeeze", Function: "Squeeze", Variadic: true, Returns: "input without its dims of size 1 among dim (every one when dim is empty); a symbolic dim is kept"},
		Doc:      "squeeze(x, dim) removes the dims of size 1 among dim (every dim of constant size 1 when empty); a dim of another size, or symbolic, stays, as in PyTorch.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "dim", Kind: IntsAttr, Default: []int{}, ShapeOnly: true}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			drop := make([]bool, len(x.Shape))
			for i, d := range x.Shape {
				drop[i] = len(s.Ints("dim")) == 0 && d == Const(1)
			}
			for _, v := range s.Ints("dim") {
				d, ok := runtime.NormalizeDim(v, len(x.Shape))
				if !ok {
					return nil, fmt.Errorf("dim %d out of range for %v", v, x.Shape)
				}
				drop[d] = x.Shape[d] == Const(1)
			}
			out := Shape{}
			for i, d := range x.Shape {
				if !drop[i] {
					out = append(out, d)
				}
			}
			return []Type{{DType: x.DType, Shape: out}}, nil
		},
		Kernel: runtime.Copy,
	})
	RegisterOp(&Op{
		Name:     "full_like",
		Torch:    "torch.full_like, torch.zeros_like, torch.ones_like",
		Go:       GoForm{Function: "FullLike", Returns: "a tensor of input's type filled with fillValue (input's values are not read)"},
		Doc:      "full_like(x, fill_value) is a tensor of x's dtype and shape filled with fill_value; x's values are not read.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "fill_value", Kind: FloatAttr}},
		Infer:    anyUnary,
		Kernel:   runtime.FullLike,
	})
}
