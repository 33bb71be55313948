// This file declares the ops that change only the shape: reshape, flatten.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() {
	RegisterOp(&Op{
		Name:     "reshape",
		Reshape:  true,
		Torch:    "torch.reshape, Tensor.reshape",
		Go:       GoForm{Method: "Reshape", Function: "Reshape", Hand: true},
		Doc:      "reshape(x, shape) views x with another shape of as many elements; one entry may be -1.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "shape", Kind: IntsAttr, ShapeOnly: true}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			shape, err := ReshapeShape(x.Shape, s.Ints("shape"))
			if err != nil {
				return nil, err
			}
			return []Type{{DType: x.DType, Shape: shape}}, nil
		},
		Kernel: runtime.Copy,
	})
	RegisterOp(&Op{
		Name:     "view",
		Reshape:  true,
		Torch:    "Tensor.view",
		Go:       GoForm{Method: "View", Hand: true},
		Doc:      "view(x, shape) is reshape: tensors are always contiguous.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "shape", Kind: IntsAttr, ShapeOnly: true}},
		Infer:    LookupOp("reshape").Infer,
		Kernel:   runtime.Copy,
	})
	RegisterOp(&Op{
		Name:     "flatten",
		Reshape:  true,
		Torch:    "torch.flatten, Tensor.flatten",
		Go:       GoForm{Method: "Flatten", Function: "Flatten", Hand: true},
		Module:   &ModuleForm{Name: "Flatten", Torch: "torch.nn.Flatten", Hand: true},
		Doc:      "flatten(x, start_dim, end_dim) merges dims start_dim..end_dim into one.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs: []Attr{
			{Name: "start_dim", Kind: IntAttr, Default: 0, ShapeOnly: true},
			{Name: "end_dim", Kind: IntAttr, Default: -1, ShapeOnly: true},
		},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			rank := max(len(x.Shape), 1)
			a, ok1 := runtime.NormalizeDim(s.Int("start_dim"), rank)
			b, ok2 := runtime.NormalizeDim(s.Int("end_dim"), rank)
			if !ok1 || !ok2 || a > b {
				return nil, fmt.Errorf("dims %d..%d out of range for %v", s.Int("start_dim"), s.Int("end_dim"), x.Shape)
			}
			if len(x.Shape) == 0 {
				return []Type{{DType: x.DType, Shape: ConstShape(1)}}, nil
			}
			merged, ok := x.Shape[a : b+1].NumElements()
			if !ok {
				return nil, fmt.Errorf("cannot merge dims %v of %v: a product of symbols", x.Shape[a:b+1], x.Shape)
			}
			out := append(append(x.Shape[:a].Clone(), merged), x.Shape[b+1:]...)
			return []Type{{DType: x.DType, Shape: out}}, nil
		},
		Kernel: runtime.Copy,
	})
}

// ReshapeShape resolves a reshape target (which may hold one -1) against
// the symbolic shape of the input.
func ReshapeShape(in Shape, target []int) (Shape, error) {
	total, ok := in.NumElements()
	if !ok {
		return nil, fmt.Errorf("cannot reshape %v: its size is a product of symbols", in)
	}
	known, infer := 1, -1
	for i, d := range target {
		switch {
		case d == -1 && infer < 0:
			infer = i
		case d < 0:
			return nil, fmt.Errorf("bad target shape %v: at most one -1 and no other negative size", target)
		default:
			known *= d
		}
	}
	if !ConstShape(target...).Countable() {
		// known wrapped around: say so rather than print its wrong value.
		return nil, fmt.Errorf("cannot reshape %v to %v: the target has more elements than an int can count", in, target)
	}
	out := ConstShape(target...)
	if infer >= 0 {
		d, ok := total.Div(Const(known))
		if !ok || known == 0 {
			return nil, fmt.Errorf("cannot reshape %v (%v elements) to %v", in, total, target)
		}
		out[infer] = d
		return out, nil
	}
	if total != Const(known) {
		return nil, fmt.Errorf("cannot reshape %v (%v elements) to %v (%d elements); use -1 for the symbolic dim", in, total, target, known)
	}
	return out, nil
}
