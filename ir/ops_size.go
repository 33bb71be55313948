// This file declares the ops of symbolic sizes: size (a tensor's dim as a
// 0-d int64 value), floordiv of sizes, and the ops whose result shape is
// given by a list of sizes (expand, full) or by another tensor
// (expand_as).

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() {
	RegisterOp(&Op{
		Name:     "size",
		Doc:      "size(x, dim) is the size of dimension dim of x as a 0-d int64 value (torch.fx's x.size(dim)); its static value is the dim of x's type.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "dim", Kind: IntAttr}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			if _, ok := runtime.NormalizeDim(s.Int("dim"), len(x.Shape)); !ok {
				return nil, fmt.Errorf("dim %d out of range for %v", s.Int("dim"), x.Shape)
			}
			return []Type{{DType: Int64, Shape: Shape{}}}, nil
		},
		Kernel: runtime.SizeOf,
	})
	RegisterOp(&Op{
		Name:     "floordiv",
		Doc:      "floordiv(a, b) is a // b, rounded toward negative infinity, on int64 values with broadcasting.",
		Operands: []Operand{{"input", NumberOperand}, {"other", NumberOperand}},
		Infer: func(s *Sig) ([]Type, error) {
			x, y := s.Args[0].Type, s.Args[1].Type
			if x.DType != Int64 || y.DType != Int64 {
				return nil, fmt.Errorf("got %v and %v, want int64 operands", x, y)
			}
			shape, err := BroadcastShapes(x.Shape, y.Shape)
			if err != nil {
				return nil, err
			}
			return []Type{{DType: Int64, Shape: shape}}, nil
		},
		Kernel: runtime.FloorDiv,
	})
	RegisterOp(&Op{
		Name: "expand",
		Doc: "expand(x, size) is x broadcast to size (PyTorch's expand, computed as a copy): size may have more dims than x, " +
			"each is an int or a size value, and -1 keeps x's dim.",
		Operands: []Operand{{"input", TensorOperand}, {"size", ListOperand}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			sizes, err := staticSizes(s.Args[1])
			if err != nil {
				return nil, err
			}
			lead := len(sizes) - len(x.Shape)
			if lead < 0 {
				return nil, fmt.Errorf("%d sizes for %v: give at least one per dim", len(sizes), x.Shape)
			}
			out := make(Shape, len(sizes))
			for i, d := range sizes {
				j := i - lead
				switch {
				case d == Const(-1) && j < 0:
					return nil, fmt.Errorf("size %d is -1 for a new leading dim of %v", i, x.Shape)
				case d == Const(-1):
					out[i] = x.Shape[j]
				case d.Coef < 0:
					return nil, fmt.Errorf("size %d is %v", i, d)
				case j >= 0 && x.Shape[j] != d && x.Shape[j] != Const(1):
					return nil, fmt.Errorf("cannot expand %v to %v: dim %d is %v, want 1 or %v", x.Shape, formatDims(sizes), j, x.Shape[j], d)
				default:
					out[i] = d
				}
			}
			return []Type{{DType: x.DType, Shape: out}}, nil
		},
		Kernel: runtime.Expand,
	})
	RegisterOp(&Op{
		Name:     "expand_as",
		Doc:      "expand_as(x, other) is x broadcast to the shape of other (other's values are not read).",
		Operands: []Operand{{"input", TensorOperand}, {"other", TensorOperand}},
		Infer: func(s *Sig) ([]Type, error) {
			x, o := s.Args[0].Type, s.Args[1].Type
			shape, err := BroadcastShapes(x.Shape, o.Shape)
			if err != nil || !shape.Equal(o.Shape) {
				return nil, fmt.Errorf("cannot expand %v to %v", x.Shape, o.Shape)
			}
			return []Type{{DType: x.DType, Shape: o.Shape.Clone()}}, nil
		},
		Kernel: runtime.ExpandAs,
	})
	RegisterOp(&Op{
		Name:     "full",
		Doc:      "full(size, fill_value, dtype) is a tensor of size (ints or size values) filled with fill_value.",
		Operands: []Operand{{"size", ListOperand}},
		Attrs: []Attr{
			{Name: "fill_value", Kind: FloatAttr},
			{Name: "dtype", Kind: DTypeAttr, Default: Float32, ShapeOnly: true},
		},
		Infer: func(s *Sig) ([]Type, error) {
			sizes, err := staticSizes(s.Args[0])
			if err != nil {
				return nil, err
			}
			for i, d := range sizes {
				if d.Coef < 0 {
					return nil, fmt.Errorf("size %d is %v", i, d)
				}
			}
			return []Type{{DType: s.DType("dtype"), Shape: Shape(sizes)}}, nil
		},
		Kernel: runtime.Full,
	})
}

// staticSizes returns the static values of a list operand of sizes.
func staticSizes(a ArgType) ([]Dim, error) {
	if len(a.Sizes) != len(a.List) {
		return nil, fmt.Errorf("want a list of sizes (ints or size values)")
	}
	out := make([]Dim, len(a.Sizes))
	for i, d := range a.Sizes {
		if d == nil {
			return nil, fmt.Errorf("size %d (%v) is not an int, nor a size value whose static value is a constant multiple of a symbol", i, a.List[i])
		}
		out[i] = *d
	}
	return out, nil
}

func formatDims(ds []Dim) string { return Shape(ds).String() }
