// This file declares the elementwise ops: arithmetic, comparison, activations.

package ir

import (
	"fmt"
	"math"
	"strings"

	"github.com/fxgen/fxgen/runtime"
)

func init() { registerTable(elementwiseOps) }

// elementwiseOps is the elementwise family of the op table.
var elementwiseOps = []*Op{
	binaryOp("add", "torch.add, Tensor.add, operator.add", "add(a, b) is a + b with broadcasting.", runtime.Add, promoted,
		GoForm{Method: "Add", Function: "Add", Scalar: "AddScalar", Returns: "input + other with broadcasting"}),
	binaryOp("sub", "torch.sub, Tensor.sub, operator.sub", "sub(a, b) is a - b with broadcasting.", runtime.Sub, promoted,
		GoForm{Method: "Sub", Function: "Sub", Scalar: "SubScalar", ScalarFirst: "RSub", Returns: "input - other with broadcasting"}),
	binaryOp("mul", "torch.mul, Tensor.mul, operator.mul", "mul(a, b) is a * b with broadcasting.", runtime.Mul, promoted,
		GoForm{Method: "Mul", Function: "Mul", Scalar: "MulScalar", Returns: "input * other with broadcasting"}),
	binaryOp("div", "torch.div, Tensor.div, operator.truediv", "div(a, b) is a / b with broadcasting, always float32.", runtime.Div, toFloat32,
		GoForm{Method: "Div", Function: "Div", Scalar: "DivScalar", Returns: "input / other with broadcasting (float32 result)"}),
	binaryOp("gt", "torch.gt, Tensor.gt, operator.gt", "gt(a, b) is the bool tensor a > b with broadcasting.", runtime.Gt, toBool,
		GoForm{Method: "Gt", Function: "Gt", Scalar: "GtScalar", Returns: "the bool tensor input > other with broadcasting"}),
	binaryOp("minimum", "torch.minimum, Tensor.minimum", "minimum(a, b) is the elementwise minimum with broadcasting; NaN if either is NaN.", runtime.Minimum, numeric,
		GoForm{Method: "Minimum", Function: "Minimum", Returns: "the elementwise minimum of input and other with broadcasting (NaN if either is NaN)"}),
	binaryOp("maximum", "torch.maximum, Tensor.maximum", "maximum(a, b) is the elementwise maximum with broadcasting; NaN if either is NaN.", runtime.Maximum, numeric,
		GoForm{Method: "Maximum", Function: "Maximum", Returns: "the elementwise maximum of input and other with broadcasting (NaN if either is NaN)"}),
	binaryOp("pow", "torch.pow, Tensor.pow, operator.pow", "pow(a, b) is a to the power b with broadcasting, float32.", runtime.Pow, floatResult,
		GoForm{Method: "Pow", Function: "Pow", Scalar: "PowScalar", Returns: "input to the power other with broadcasting (float32; at least one operand float32)"}),
	unaryOp("relu", "torch.relu, Tensor.relu, F.relu", "relu(x) is max(x, 0); NaN stays NaN.", runtime.Relu, "max(input, 0), NaN kept",
		&ModuleForm{Name: "ReLU", Torch: "torch.nn.ReLU"}, FuseEpilogue, ActReLU),
	{
		Name: "hardtanh", Torch: "F.hardtanh", Doc: "hardtanh(x, min_val, max_val) is min(max(x, min_val), max_val); NaN stays NaN.",
		Operands: unaryOperand,
		Attrs:    []Attr{{Name: "min_val", Kind: FloatAttr, Default: -1.0}, {Name: "max_val", Kind: FloatAttr, Default: 1.0}},
		Infer:    unaryRule(Float32), Kernel: runtime.Hardtanh, Fusion: FusePointwise,
		Go:     GoForm{Method: "Hardtanh", Function: "Hardtanh", Returns: "input clamped to [minVal, maxVal], NaN kept"},
		Module: &ModuleForm{Name: "Hardtanh", Torch: "torch.nn.Hardtanh"},
	},
	unaryOp("relu6", "F.relu6", "relu6(x) is hardtanh(x, 0, 6) = min(max(x, 0), 6); NaN stays NaN.", runtime.Relu6, "min(max(input, 0), 6), NaN kept",
		&ModuleForm{Name: "ReLU6", Torch: "torch.nn.ReLU6"}, FuseEpilogue, ActReLU6),
	{
		Name: "clamp", Torch: "torch.clamp, Tensor.clamp", Doc: "clamp(x, min, max) is min(max(x, min), max); NaN stays NaN, max wins when min > max.",
		Operands: unaryOperand,
		Attrs:    []Attr{{Name: "min", Kind: FloatAttr, Default: math.Inf(-1)}, {Name: "max", Kind: FloatAttr, Default: math.Inf(1)}},
		Infer:    unaryRule(Float32), Kernel: runtime.Clamp, Fusion: FusePointwise,
		Go: GoForm{Method: "Clamp", Function: "Clamp", Returns: "input clamped to [min, max] (math.Inf for an open side), NaN kept"},
	},
	unaryOp("gelu", "F.gelu", "gelu(x) is the exact GELU x·Φ(x) = 0.5·x·(1 + erf(x/√2)).", runtime.Gelu, "the exact GELU 0.5·input·(1 + erf(input/√2))",
		&ModuleForm{Name: "GELU", Torch: "torch.nn.GELU", Hand: true}, FuseEpilogue, ActGELU),
	unaryOp("gelu_tanh", "F.gelu(approximate='tanh')", "gelu_tanh(x) is GELU's tanh approximation 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).", runtime.GeluTanh,
		"the tanh approximation of GELU, 0.5·input·(1 + tanh(√(2/π)·(input + 0.044715·input³)))",
		&ModuleForm{Name: "GELUTanh", GoType: "GELU", Torch: "torch.nn.GELU(approximate='tanh')", Hand: true}, FusePointwise, 0),
	unaryOp("silu", "F.silu", "silu(x) is x·sigmoid(x).", runtime.Silu, "input·sigmoid(input)",
		&ModuleForm{Name: "SiLU", Torch: "torch.nn.SiLU"}, FuseEpilogue, ActSiLU),
	unaryOp("hardswish", "F.hardswish", "hardswish(x) is x·relu6(x + 3)/6.", runtime.Hardswish, "input·relu6(input + 3)/6",
		&ModuleForm{Name: "Hardswish", Torch: "torch.nn.Hardswish"}, FusePointwise, 0),
	unaryOp("hardsigmoid", "F.hardsigmoid", "hardsigmoid(x) is relu6(x + 3)/6.", runtime.Hardsigmoid, "relu6(input + 3)/6",
		&ModuleForm{Name: "Hardsigmoid", Torch: "torch.nn.Hardsigmoid"}, FusePointwise, 0),
	unaryOp("sigmoid", "torch.sigmoid, Tensor.sigmoid", "sigmoid(x) is 1 / (1 + exp(-x)).", runtime.Sigmoid, "1/(1 + exp(-input))",
		&ModuleForm{Name: "Sigmoid", Torch: "torch.nn.Sigmoid"}, FusePointwise, 0),
	unaryOp("tanh", "torch.tanh, Tensor.tanh", "tanh(x) is the hyperbolic tangent.", runtime.Tanh, "tanh(input)",
		&ModuleForm{Name: "Tanh", Torch: "torch.nn.Tanh"}, FusePointwise, 0),
	unaryOp("exp", "torch.exp, Tensor.exp", "exp(x) is e to the x.", runtime.Exp, "e^input", nil, FusePointwise, 0),
	unaryOp("log", "torch.log, Tensor.log", "log(x) is the natural logarithm (-inf at 0, NaN below).", runtime.Log, "ln input (-Inf at 0, NaN below)", nil, FusePointwise, 0),
	unaryOp("sqrt", "torch.sqrt, Tensor.sqrt", "sqrt(x) is the square root of x.", runtime.Sqrt, "√input", nil, FusePointwise, 0),
	unaryOp("rsqrt", "torch.rsqrt, Tensor.rsqrt", "rsqrt(x) is 1/√x.", runtime.Rsqrt, "1/√input", nil, FusePointwise, 0),
	{
		Name: "neg", Torch: "torch.neg, Tensor.neg, operator.neg", Doc: "neg(x) is -x.",
		Operands: unaryOperand, Infer: unaryRule(Float32, Int64), Kernel: runtime.Neg, Fusion: FusePointwise,
		Go: GoForm{Method: "Neg", Function: "Neg", Returns: "-input"},
	},
	{
		Name: "abs", Torch: "torch.abs, Tensor.abs", Doc: "abs(x) is |x|.",
		Operands: unaryOperand, Infer: unaryRule(Float32, Int64), Kernel: runtime.Abs, Fusion: FusePointwise,
		Go: GoForm{Method: "Abs", Function: "Abs", Returns: "|input|"},
	},
	{
		Name: "identity", Torch: "torch.nn.Identity", Doc: "identity(x) is x (a copy), the op of nn.Identity.",
		Operands: unaryOperand, Infer: anyUnary, Kernel: runtime.Copy,
		Module: &ModuleForm{Name: "Identity", Torch: "torch.nn.Identity"},
	},
	{
		Name: "dropout", Torch: "F.dropout", Doc: "dropout(x, p) is x (a copy): dropout at inference, the op of nn.Dropout.",
		Operands: unaryOperand, Attrs: []Attr{{Name: "p", Kind: FloatAttr, Default: 0.5, ShapeOnly: true}},
		Infer: anyUnary, Kernel: runtime.Copy,
		Go:     GoForm{Function: "Dropout", Returns: "input, as dropout does at inference (p is the training-time drop probability)"},
		Module: &ModuleForm{Name: "Dropout", Torch: "torch.nn.Dropout"},
	},
}

// unaryOperand is the operand of a unary op.
var unaryOperand = []Operand{{"input", TensorOperand}}

// binaryOp declares a broadcasting binary op of two tensor-or-number
// operands whose result dtype is result(a, b).
func binaryOp(name, torch, doc string, kernel func(out, a, b *runtime.Array), result func(a, b DType) (DType, error), g GoForm) *Op {
	return &Op{
		Name: name, Torch: torch, Doc: doc,
		Operands: []Operand{{"input", NumberOperand}, {"other", NumberOperand}},
		Infer: func(s *Sig) ([]Type, error) {
			x, y := s.Args[0].Type, s.Args[1].Type
			shape, err := BroadcastShapes(x.Shape, y.Shape)
			if err != nil {
				return nil, err
			}
			dt, err := result(x.DType, y.DType)
			if err != nil {
				return nil, err
			}
			return []Type{{DType: dt, Shape: shape}}, nil
		},
		Kernel: kernel, Fusion: FusePointwise, Go: g,
	}
}

// unaryOp declares a float32 unary op whose method and function are
// named after it in Go casing (relu6 → Relu6); returns says what they
// return, for the docs.
func unaryOp(name, torch, doc string, kernel func(out, x *runtime.Array), returns string, m *ModuleForm, fusion FusionClass, epilogue int) *Op {
	goName := ""
	for _, part := range strings.Split(name, "_") {
		goName += strings.ToUpper(part[:1]) + part[1:]
	}
	return &Op{
		Name: name, Torch: torch, Doc: doc, Operands: unaryOperand, Infer: unaryRule(Float32), Kernel: kernel,
		Fusion: fusion, Epilogue: epilogue, Module: m,
		Go: GoForm{Method: goName, Function: goName, Returns: returns},
	}
}

// anyUnary is the type rule of an op that keeps its operand's type.
func anyUnary(s *Sig) ([]Type, error) { return []Type{s.Args[0].Type}, nil }

// numeric is the result dtype of minimum and maximum: the promoted dtype
// of their operands, f32 or i64.
func numeric(a, b DType) (DType, error) {
	if d := promote(a, b); d != Bool {
		return d, nil
	}
	return 0, fmt.Errorf("got %v and %v, want f32 or i64", a, b)
}

// floatResult is the result dtype of pow: f32, from at least one f32
// operand.
func floatResult(a, b DType) (DType, error) {
	if promote(a, b) != Float32 {
		return 0, fmt.Errorf("got %v and %v, want at least one f32", a, b)
	}
	return Float32, nil
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
		want := make([]string, len(dtypes))
		for i, d := range dtypes {
			want[i] = d.String()
		}
		return nil, fmt.Errorf("got %v, want %s", t, strings.Join(want, " or "))
	}
}

func promoted(a, b DType) (DType, error) { return promote(a, b), nil }

func toFloat32(DType, DType) (DType, error) { return Float32, nil }

func toBool(DType, DType) (DType, error) { return Bool, nil }

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
