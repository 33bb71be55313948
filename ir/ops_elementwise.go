// This file declares the elementwise ops: arithmetic, comparison, activations.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() { registerTable(elementwiseOps) }

// elementwiseOps is the elementwise family of the op table.
var elementwiseOps = []*Op{
	binaryOp("add", "torch.add, Tensor.add, operator.add", "add(a, b) is a + b with broadcasting.", runtime.Add, promote,
		GoForm{Method: "Add", Function: "Add", Scalar: "AddScalar", Returns: "input + other with broadcasting"}),
	binaryOp("sub", "torch.sub, Tensor.sub, operator.sub", "sub(a, b) is a - b with broadcasting.", runtime.Sub, promote,
		GoForm{Method: "Sub", Function: "Sub", Scalar: "SubScalar", ScalarFirst: "RSub", Returns: "input - other with broadcasting"}),
	binaryOp("mul", "torch.mul, Tensor.mul, operator.mul", "mul(a, b) is a * b with broadcasting.", runtime.Mul, promote,
		GoForm{Method: "Mul", Function: "Mul", Scalar: "MulScalar", Returns: "input * other with broadcasting"}),
	binaryOp("div", "torch.div, Tensor.div, operator.truediv", "div(a, b) is a / b with broadcasting, always float32.", runtime.Div, toFloat32,
		GoForm{Method: "Div", Function: "Div", Scalar: "DivScalar", Returns: "input / other with broadcasting (float32 result)"}),
	binaryOp("gt", "torch.gt, Tensor.gt, operator.gt", "gt(a, b) is the bool tensor a > b with broadcasting.", runtime.Gt, toBool,
		GoForm{Method: "Gt", Function: "Gt", Scalar: "GtScalar", Returns: "the bool tensor input > other with broadcasting"}),
	{
		Name: "relu", Torch: "torch.relu, Tensor.relu, F.relu", Doc: "relu(x) is max(x, 0); NaN stays NaN.",
		Operands: unaryOperand, Infer: unaryRule(Float32), Kernel: runtime.Relu,
		Fusion: FuseEpilogue, Epilogue: ActReLU,
		Go:     GoForm{Method: "Relu", Function: "Relu", Returns: "max(input, 0)"},
		Module: &ModuleForm{Name: "ReLU", Torch: "torch.nn.ReLU"},
	},
	{
		Name: "neg", Torch: "torch.neg, Tensor.neg, operator.neg", Doc: "neg(x) is -x.",
		Operands: unaryOperand, Infer: unaryRule(Float32, Int64), Kernel: runtime.Neg, Fusion: FusePointwise,
		Go: GoForm{Method: "Neg", Function: "Neg", Returns: "-input"},
	},
	{
		Name: "sqrt", Torch: "torch.sqrt, Tensor.sqrt", Doc: "sqrt(x) is the square root of x.",
		Operands: unaryOperand, Infer: unaryRule(Float32), Kernel: runtime.Sqrt, Fusion: FusePointwise,
		Go: GoForm{Method: "Sqrt", Function: "Sqrt", Returns: "√input"},
	},
}

// unaryOperand is the operand of a unary op.
var unaryOperand = []Operand{{"input", TensorOperand}}

// binaryOp declares a broadcasting binary op of two tensor-or-number
// operands whose result dtype is result(a, b).
func binaryOp(name, torch, doc string, kernel func(out, a, b *runtime.Array), result func(a, b DType) DType, g GoForm) *Op {
	return &Op{
		Name: name, Torch: torch, Doc: doc,
		Operands: []Operand{{"input", NumberOperand}, {"other", NumberOperand}},
		Infer: func(s *Sig) ([]Type, error) {
			x, y := s.Args[0].Type, s.Args[1].Type
			shape, err := BroadcastShapes(x.Shape, y.Shape)
			if err != nil {
				return nil, err
			}
			return []Type{{DType: result(x.DType, y.DType), Shape: shape}}, nil
		},
		Kernel: kernel, Fusion: FusePointwise, Go: g,
	}
}

// unaryRule is the type rule of a unary op that keeps its operand's type,
// one of dtypes.
func unaryRule(dtypes ...DType) func(s *Sig) ([]Type, error) {
	return func(s *Sig) ([]Type, error) {
		t := s.Args[0].Type
		for _, d := range dtypes {
			if t.DType == d {
				return []Type{t}, nil
			}
		}
		return nil, fmt.Errorf("got %v, want dtype %v", t, dtypes)
	}
}

func toFloat32(DType, DType) DType { return Float32 }

func toBool(DType, DType) DType { return Bool }

// promote returns the result dtype of arithmetic on a and b:
// bool < i64 < f32.
func promote(a, b DType) DType {
	rank := func(d DType) int {
		switch d {
		case Bool:
			return 0
		case Int64:
			return 1
		}
		return 2
	}
	if rank(a) >= rank(b) {
		return a
	}
	return b
}

// BroadcastShapes returns the broadcast of two symbolic shapes.
func BroadcastShapes(a, b Shape) (Shape, error) {
	n := max(len(a), len(b))
	out := make(Shape, n)
	one := Const(1)
	for i := 0; i < n; i++ {
		da, db := one, one
		if j := len(a) - n + i; j >= 0 {
			da = a[j]
		}
		if j := len(b) - n + i; j >= 0 {
			db = b[j]
		}
		switch {
		case da == db, db == one:
			out[i] = da
		case da == one:
			out[i] = db
		default:
			return nil, fmt.Errorf("shapes %v and %v do not broadcast (dim %d: %v vs %v)", a, b, i, da, db)
		}
	}
	return out, nil
}
