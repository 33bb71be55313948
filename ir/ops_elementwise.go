// This file declares the elementwise ops: arithmetic, comparison, activations.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() {
	for _, b := range []struct {
		name, doc string
		kernel    func(out, a, b *runtime.Array)
		result    func(a, b DType) DType
	}{
		{"add", "add(a, b) is a + b with broadcasting.", runtime.Add, promote},
		{"sub", "sub(a, b) is a - b with broadcasting.", runtime.Sub, promote},
		{"mul", "mul(a, b) is a * b with broadcasting.", runtime.Mul, promote},
		{"div", "div(a, b) is a / b with broadcasting, always float32.", runtime.Div, func(DType, DType) DType { return Float32 }},
		{"gt", "gt(a, b) is the bool tensor a > b with broadcasting.", runtime.Gt, func(DType, DType) DType { return Bool }},
	} {
		result := b.result
		RegisterOp(&Op{
			Name:     b.name,
			Doc:      b.doc,
			Operands: []Operand{{"input", NumberOperand}, {"other", NumberOperand}},
			Infer: func(s *Sig) ([]Type, error) {
				x, y := s.Args[0].Type, s.Args[1].Type
				shape, err := BroadcastShapes(x.Shape, y.Shape)
				if err != nil {
					return nil, err
				}
				return []Type{{DType: result(x.DType, y.DType), Shape: shape}}, nil
			},
			Kernel: b.kernel,
		})
	}
	for _, u := range []struct {
		name, doc string
		kernel    func(out, x *runtime.Array)
		dtypes    []DType
	}{
		{"relu", "relu(x) is max(x, 0).", runtime.Relu, []DType{Float32}},
		{"neg", "neg(x) is -x.", runtime.Neg, []DType{Float32, Int64}},
		{"sqrt", "sqrt(x) is the square root of x.", runtime.Sqrt, []DType{Float32}},
	} {
		dtypes := u.dtypes
		RegisterOp(&Op{
			Name:     u.name,
			Doc:      u.doc,
			Operands: []Operand{{"input", TensorOperand}},
			Infer: func(s *Sig) ([]Type, error) {
				t := s.Args[0].Type
				for _, d := range dtypes {
					if t.DType == d {
						return []Type{t}, nil
					}
				}
				return nil, fmt.Errorf("got %v, want dtype %v", t, dtypes)
			},
			Kernel: u.kernel,
		})
	}
}

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
