// This file declares the reduction ops: sum and topk.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() {
	RegisterOp(&Op{
		Name:     "sum",
		Torch:    "torch.sum, Tensor.sum",
		Go:       GoForm{Method: "Sum", Function: "Sum", Hand: true},
		Doc:      "sum(x, dim, keepdim) sums over dim (every dim when empty).",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "dim", Kind: IntsAttr, Default: []int{}}, {Name: "keepdim", Kind: BoolAttr, Default: false}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			out, err := reducedShape(x.Shape, s.Ints("dim"), s.Bool("keepdim"))
			if err != nil {
				return nil, err
			}
			dt := Int64
			if x.DType == Float32 {
				dt = Float32
			}
			return []Type{{DType: dt, Shape: out}}, nil
		},
		Kernel: runtime.Sum,
	})
	RegisterOp(&Op{
		Name:     "topk",
		Torch:    "torch.topk, Tensor.topk",
		Go:       GoForm{Method: "TopK", Function: "TopK", Hand: true},
		Doc:      "topk(x, k, dim, largest) is the (values, int64 indices) of the k largest entries along dim.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs: []Attr{
			{Name: "k", Kind: IntAttr},
			{Name: "dim", Kind: IntAttr, Default: -1},
			{Name: "largest", Kind: BoolAttr, Default: true},
		},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			if err := wantFloat(x); err != nil {
				return nil, err
			}
			d, ok := runtime.NormalizeDim(s.Int("dim"), len(x.Shape))
			if !ok {
				return nil, fmt.Errorf("dim %d out of range for %v", s.Int("dim"), x.Shape)
			}
			k := s.Int("k")
			if size := x.Shape[d]; k < 0 || size.IsConst() && k > size.Coef {
				return nil, fmt.Errorf("k = %d out of range for dim %d of %v", k, d, x.Shape)
			}
			shape := x.Shape.Clone()
			shape[d] = Const(k)
			return []Type{{DType: Float32, Shape: shape}, {DType: Int64, Shape: shape.Clone()}}, nil
		},
		Kernel: runtime.TopK,
	})
	RegisterOp(&Op{
		Name:     "getitem",
		Torch:    "operator.getitem",
		Doc:      "getitem(t, index) is result index of the multi-result node t.",
		Operands: []Operand{{"input", TupleOperand}},
		Attrs:    []Attr{{Name: "index", Kind: IntAttr}},
		Infer: func(s *Sig) ([]Type, error) {
			tup, i := s.Args[0].Tuple, s.Int("index")
			if i < 0 || i >= len(tup) {
				return nil, fmt.Errorf("index %d out of range for %d results", i, len(tup))
			}
			return []Type{tup[i]}, nil
		},
	})
}

// reducedShape returns the shape of a reduction of a tensor of shape x
// over dims (every dim when empty), keeping them with size 1 when keep.
func reducedShape(x Shape, dims []int, keep bool) (Shape, error) {
	reduced := make([]bool, len(x))
	for _, d := range dims {
		nd, ok := runtime.NormalizeDim(d, len(x))
		if !ok {
			return nil, fmt.Errorf("dim %d out of range for %v", d, x)
		}
		reduced[nd] = true
	}
	out := Shape{}
	for i, d := range x {
		switch {
		case !reduced[i] && len(dims) > 0:
			out = append(out, d)
		case keep:
			out = append(out, Const(1))
		}
	}
	return out, nil
}
