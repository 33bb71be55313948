// This file declares the statistics reductions: mean and var over dims,
// max, min, argmax and argmin along one dim.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() { registerTable(statisticsOps) }

// statisticsOps is the statistics family of the op table.
var statisticsOps = []*Op{
	{
		Name: "mean", Torch: "torch.mean, Tensor.mean",
		Go:       GoForm{Method: "Mean", Function: "Mean", Hand: true},
		Doc:      "mean(x, dim, keepdim) is the mean over dim (every dim when empty), summed in float64.",
		Operands: unaryOperand,
		Attrs:    []Attr{{Name: "dim", Kind: IntsAttr, Default: []int{}}, {Name: "keepdim", Kind: BoolAttr, Default: false}},
		Infer:    floatReduction,
		Kernel:   runtime.Mean,
	},
	{
		Name: "var", Torch: "torch.var, Tensor.var",
		Go:       GoForm{Method: "Var", Function: "Var", Hand: true},
		Doc:      "var(x, dim, correction, keepdim) is the variance over dim (every dim when empty): squared deviations summed in float64 and divided by count - correction (1: unbiased, PyTorch's default).",
		Operands: unaryOperand,
		Attrs: []Attr{
			{Name: "dim", Kind: IntsAttr, Default: []int{}},
			{Name: "correction", Kind: IntAttr, Default: 1},
			{Name: "keepdim", Kind: BoolAttr, Default: false},
		},
		Infer:  floatReduction,
		Kernel: runtime.Var,
	},
	extremeOp("max_dim", "torch.max(input, dim), Tensor.max(dim)", "Max",
		"max_dim(x, dim, keepdim) is the (values, int64 indices) of the largest entries along dim; NaN is the largest, ties keep the first.", runtime.MaxDim),
	extremeOp("min_dim", "torch.min(input, dim), Tensor.min(dim)", "Min",
		"min_dim(x, dim, keepdim) is the (values, int64 indices) of the smallest entries along dim; NaN wins, ties keep the first.", runtime.MinDim),
	argOp("argmax", "torch.argmax, Tensor.argmax", "argmax(x, dim, keepdim) is the int64 position of the largest entry along dim (the first NaN, else the first maximum).", runtime.ArgMax),
	argOp("argmin", "torch.argmin, Tensor.argmin", "argmin(x, dim, keepdim) is the int64 position of the smallest entry along dim (the first NaN, else the first minimum).", runtime.ArgMin),
}

// floatReduction is the type rule of mean and var: float32 over dims.
func floatReduction(s *Sig) ([]Type, error) {
	x := s.Args[0].Type
	if err := wantFloat(x); err != nil {
		return nil, err
	}
	shape, err := reducedShape(x.Shape, s.Ints("dim"), s.Bool("keepdim"))
	if err != nil {
		return nil, err
	}
	return []Type{{DType: Float32, Shape: shape}}, nil
}

// alongDim returns the shape of a reduction of x along the one dim of s.
func alongDim(s *Sig) (Type, Shape, error) {
	x := s.Args[0].Type
	if x.DType != Float32 && x.DType != Int64 {
		return x, nil, fmt.Errorf("got %v, want f32 or i64", x)
	}
	d, ok := runtime.NormalizeDim(s.Int("dim"), len(x.Shape))
	if !ok {
		return x, nil, fmt.Errorf("dim %d out of range for %v", s.Int("dim"), x.Shape)
	}
	if x.Shape[d].IsConst() && x.Shape[d].Coef == 0 {
		return x, nil, fmt.Errorf("dim %d of %v is empty", s.Int("dim"), x.Shape)
	}
	shape, err := reducedShape(x.Shape, []int{d}, s.Bool("keepdim"))
	return x, shape, err
}

// extremeOp declares max_dim or min_dim, whose methods return values and
// indices.
func extremeOp(name, torch, goName, doc string, kernel func(values, indices, x *runtime.Array, dim int, keepdim bool)) *Op {
	return &Op{
		Name: name, Torch: torch, Doc: doc,
		Go:       GoForm{Method: goName, Function: goName, Hand: true},
		Operands: unaryOperand,
		Attrs:    []Attr{{Name: "dim", Kind: IntAttr}, {Name: "keepdim", Kind: BoolAttr, Default: false}},
		Infer: func(s *Sig) ([]Type, error) {
			x, shape, err := alongDim(s)
			if err != nil {
				return nil, err
			}
			return []Type{{DType: x.DType, Shape: shape}, {DType: Int64, Shape: shape.Clone()}}, nil
		},
		Kernel: kernel,
	}
}

// argOp declares argmax or argmin.
func argOp(name, torch, doc string, kernel func(out, x *runtime.Array, dim int, keepdim bool)) *Op {
	goName := "Argmax"
	if name == "argmin" {
		goName = "Argmin"
	}
	return &Op{
		Name: name, Torch: torch, Doc: doc,
		Go:       GoForm{Method: goName, Function: goName, Returns: "the int64 position of the " + map[string]string{"argmax": "largest", "argmin": "smallest"}[name] + " entry of input along dim"},
		Operands: unaryOperand,
		Attrs:    []Attr{{Name: "dim", Kind: IntAttr}, {Name: "keepdim", Kind: BoolAttr, Default: false}},
		Infer: func(s *Sig) ([]Type, error) {
			_, shape, err := alongDim(s)
			if err != nil {
				return nil, err
			}
			return []Type{{DType: Int64, Shape: shape}}, nil
		},
		Kernel: kernel,
	}
}
