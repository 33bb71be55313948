// This file declares squeeze and full_like.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() {
	RegisterOp(&Op{
		Name:     "squeeze",
		Reshape:  true,
		Torch:    "torch.squeeze, Tensor.squeeze",
		Go:       GoForm{Method: "Squeeze", Function: "Squeeze", Variadic: true, Returns: "input without its dims of size 1 among dim (every one when dim is empty; none may be symbolic)"},
		Doc:      "squeeze(x, dim) removes the dims of size 1 among dim (every dim when empty), as in PyTorch; a symbolic dim cannot be squeezed, since it may be 1 only at run time.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "dim", Kind: IntsAttr, Default: []int{}, ShapeOnly: true}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			drop := make([]bool, len(x.Shape))
			for i, d := range x.Shape {
				if len(s.Ints("dim")) == 0 && !d.IsConst() {
					// Eager code would drop it when it is 1 at run time.
					return nil, fmt.Errorf("squeeze of %v with no dims: the symbolic dim %v may be 1 at run time; name the dims to squeeze", x.Shape, d)
				}
				drop[i] = len(s.Ints("dim")) == 0 && d == Const(1)
			}
			for _, v := range s.Ints("dim") {
				d, ok := runtime.NormalizeDim(v, len(x.Shape))
				if !ok {
					return nil, fmt.Errorf("dim %d out of range for %v", v, x.Shape)
				}
				if !x.Shape[d].IsConst() {
					return nil, fmt.Errorf("squeeze of dim %d of %v: the symbolic dim %v may be 1 at run time; squeeze only dims of constant size", v, x.Shape, x.Shape[d])
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
