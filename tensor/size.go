// This file holds Size, the size of one dimension of a tensor: a plain int
// eagerly, a symbolic value while tracing, and Dim, what shape arguments
// accept (an int or a Size).

package tensor

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
)

// Dim is one entry of a shape argument (View, Reshape, Expand, Zeros,
// Ones, Full): an int, or a Size read from a tensor with Tensor.Size, as
// in PyTorch's x.view(x.size(0), -1):
//
//	y := x.View(x.Size(0), -1)
//	c := cls.Expand(x.Size(0), -1, -1)
//	z := tensor.Zeros(x.Size(0), 10)
//
// Any other value panics when the op runs.
type Dim = any

// Size is the size of one dimension of a tensor, from Tensor.Size. On an
// eager tensor it is a plain int (Int returns it). While tracing it is
// symbolic: it is recorded as a size node (as torch.fx records
// x.size(dim)), arithmetic on it (Mul, Div, Add, Sub) is recorded too, and
// shape arguments take it, so generated code reads the input's size at
// run time. Turning a symbolic size into a Go int (Int), to branch or loop
// on it, fails the trace with a TraceError at the model's line.
//
// The static value of a size, which decides the shapes of the tensors
// built from it, is a constant multiple of one symbol of the input specs
// (N, 4*N); a size whose value is not (N+1, N*N) can still be recorded,
// but a shape that uses it fails the trace.
type Size struct {
	dim ir.Dim  // the static value, when ok
	ok  bool    // dim is known (false for N+1, N*N)
	t   *Tensor // the 0-d int64 symbolic tensor of a traced size; nil for an int
}

// Size returns the size of dimension i (negative counts from the end): an
// int eagerly, a symbolic size while tracing (see Size).
func (t *Tensor) Size(i int) Size {
	if t.sym == nil {
		return Size{dim: ir.Const(t.Dim(i)), ok: true}
	}
	shape := t.Type().Shape
	d, ok := runtime.NormalizeDim(i, len(shape))
	if !ok {
		panic(fmt.Sprintf("tensor: Size(%d) out of range for shape %v", i, shape))
	}
	return Size{dim: shape[d], ok: true, t: apply1(method, "size", []any{t}, kw("dim", i))}
}

// Int returns the size as a Go int. On a symbolic size whose value is not
// a constant, it fails the trace: the value is only known when the
// compiled model runs.
func (s Size) Int() int {
	if s.ok && s.dim.IsConst() {
		return s.dim.Coef
	}
	s.t.concretize(fmt.Sprintf("Int() of the symbolic size %s", s))
	panic("unreachable")
}

// Symbolic reports whether the size is a traced value rather than an int.
func (s Size) Symbolic() bool { return s.t != nil }

// String prints the size: 784, N, 4*N, or the node of a size without a
// static value.
func (s Size) String() string {
	if s.ok {
		return s.dim.String()
	}
	return s.t.sym.Node.Name
}

// Mul returns s·other (other is an int or a Size).
func (s Size) Mul(other Dim) Size { return s.arith("mul", other) }

// Div returns s // other, rounded toward negative infinity (Python's //
// on sizes); other is an int or a Size.
func (s Size) Div(other Dim) Size { return s.arith("floordiv", other) }

// Add returns s + other (other is an int or a Size).
func (s Size) Add(other Dim) Size { return s.arith("add", other) }

// Sub returns s - other (other is an int or a Size).
func (s Size) Sub(other Dim) Size { return s.arith("sub", other) }

func (s Size) arith(op string, other Dim) Size {
	o := toSize(op, other)
	if s.t == nil && o.t == nil {
		if op == "floordiv" && o.dim.Coef == 0 {
			panic("tensor: Size.Div by zero")
		}
		d, _ := ir.CombineSizes(op, s.dim, o.dim)
		return Size{dim: d, ok: true}
	}
	r := Size{t: apply1(function, op, []any{s.operand(), o.operand()})}
	if s.ok && o.ok {
		r.dim, r.ok = ir.CombineSizes(op, s.dim, o.dim)
	}
	return r
}

// operand returns the size as an op operand: an int, or its symbolic
// tensor.
func (s Size) operand() any {
	if s.t == nil {
		return s.dim.Coef
	}
	return s.t
}

// toSize converts one entry of a shape argument to a Size.
func toSize(what string, v Dim) Size {
	switch x := v.(type) {
	case int:
		return Size{dim: ir.Const(x), ok: true}
	case Size:
		return x
	}
	panic(fmt.Sprintf("tensor: %s: size %v is a %T, want an int or a tensor.Size", what, v, v))
}

// Dims converts a list of ints to shape arguments, for passing a []int to
// a function that takes ...Dim: tensor.Zeros(tensor.Dims(shape)...).
func Dims(shape []int) []Dim {
	out := make([]Dim, len(shape))
	for i, d := range shape {
		out[i] = d
	}
	return out
}

// shapeArgs converts a shape argument to sizes and reports whether one is
// symbolic.
func shapeArgs(what string, shape []Dim) ([]Size, bool) {
	sizes := make([]Size, len(shape))
	sym := false
	for i, d := range shape {
		sizes[i] = toSize(what, d)
		sym = sym || sizes[i].t != nil
	}
	return sizes, sym
}

// ints returns the sizes as ints; they must not be symbolic.
func ints(sizes []Size) []int {
	out := make([]int, len(sizes))
	for i, s := range sizes {
		out[i] = s.dim.Coef
	}
	return out
}

// sizeList returns the sizes as a list operand: ints and symbolic tensors.
func sizeList(sizes []Size) []any {
	out := make([]any, len(sizes))
	for i, s := range sizes {
		out[i] = s.operand()
	}
	return out
}

// reshape records view or reshape of t. A symbolic size in shape is
// resolved to its static value, so the node holds a shape of ints with -1
// for the one symbolic dim, which generated code computes from the
// inputs; the size nodes stay in the graph as they were recorded.
func reshape(opcode ir.Opcode, op string, t *Tensor, shape []Dim) *Tensor {
	sizes, sym := shapeArgs(op, shape)
	if !sym {
		return apply1(opcode, op, []any{t}, kw("shape", ints(sizes)))
	}
	return apply1(opcode, op, []any{t}, kw("shape", resolveShape(op, t.Type().Shape, sizes)))
}

// resolveShape returns the ints of a reshape target with symbolic sizes:
// each size its static value, the -1 resolved, and the one symbolic
// result dim written as -1.
func resolveShape(op string, in ir.Shape, sizes []Size) []int {
	target := make(ir.Shape, len(sizes))
	infer := -1
	known := ir.Const(1)
	for i, s := range sizes {
		if !s.ok {
			panic(fmt.Sprintf("tensor: %s: size %d (%s) has no static value: a shape's dims are constant multiples of one symbol", op, i, s))
		}
		if s.dim == ir.Const(-1) && infer < 0 {
			infer = i
			continue
		}
		target[i] = s.dim
		var ok bool
		if known, ok = known.Mul(s.dim); !ok {
			panic(fmt.Sprintf("tensor: %s: shape %v multiplies two symbols", op, target))
		}
	}
	if infer >= 0 {
		total, ok := in.NumElements()
		d, ok2 := total.Div(known)
		if !ok || !ok2 {
			panic(fmt.Sprintf("tensor: %s: cannot reshape %v to %v", op, in, shapeString(sizes)))
		}
		target[infer] = d
	}
	out := make([]int, len(target))
	symbolic := -1
	for i, d := range target {
		if !d.IsConst() {
			if symbolic >= 0 {
				panic(fmt.Sprintf("tensor: %s: shape %v has two symbolic dims; a reshape target may hold one", op, target))
			}
			symbolic = i
			out[i] = -1
			continue
		}
		out[i] = d.Coef
	}
	return out
}

func shapeString(sizes []Size) string {
	s := "["
	for i, x := range sizes {
		if i > 0 {
			s += ","
		}
		s += x.String()
	}
	return s + "]"
}

// constructor records zeros or ones of shape, or, when a size is
// symbolic, full with value.
func constructor(op string, value float64, shape []Dim) *Tensor {
	sizes, sym := shapeArgs(op, shape)
	if !sym {
		return apply1(function, op, nil, kw("shape", ints(sizes)))
	}
	return apply1(function, "full", []any{sizeList(sizes)}, kw("fill_value", value))
}

// Full returns a float32 tensor of the given shape filled with value.
func Full(value float64, shape ...Dim) *Tensor {
	sizes, _ := shapeArgs("full", shape)
	return apply1(function, "full", []any{sizeList(sizes)}, kw("fill_value", value))
}

// Expand returns t broadcast to size (PyTorch's expand): size may have
// more dims than t (new leading dims), each is an int or a Size, and -1
// keeps t's dim. The result is a copy.
func (t *Tensor) Expand(size ...Dim) *Tensor {
	sizes, _ := shapeArgs("expand", size)
	return apply1(method, "expand", []any{t, sizeList(sizes)})
}

// ExpandAs returns t broadcast to the shape of other (a copy).
func (t *Tensor) ExpandAs(other *Tensor) *Tensor {
	return apply1(method, "expand_as", []any{t, other})
}

// Expand returns x broadcast to size; see Tensor.Expand.
func Expand(x *Tensor, size ...Dim) *Tensor {
	sizes, _ := shapeArgs("expand", size)
	return apply1(function, "expand", []any{x, sizeList(sizes)})
}
