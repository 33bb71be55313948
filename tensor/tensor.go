// This file defines Tensor, the one tensor type of eager and traced code.

package tensor

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
)

// Tensor is a float32, int64 or bool tensor. An eager tensor holds its data;
// a symbolic tensor, which only exists while a model is traced, holds the
// graph node that will compute it, and every op on it is recorded.
type Tensor struct {
	arr  *runtime.Array
	sym  *Symbol
	born Mark // when the tensor was made
	// fromParams is set on an eager tensor computed, while a trace was
	// open, from a parameter of the traced model off the tracing goroutine
	// (by a goroutine Forward started): such a value cannot enter that
	// trace as a constant.
	fromParams bool
}

// Symbol is what a symbolic tensor holds: its node and the tracer that
// records ops on it.
type Symbol struct {
	Node   *ir.Node
	Tracer Hook
}

// Hook receives what happens to symbolic tensors. Package tracer implements
// it; models never call it.
type Hook interface {
	// Record records the op applied to args (tensors, lists of tensors,
	// numbers, and []any lists of sizes: ints and 0-d int64 tensors) and
	// returns the symbolic results. It panics with a trace
	// error when the op does not type-check.
	Record(opcode ir.Opcode, op string, args []any, kwargs []ir.Kwarg) []*Tensor
	// CallModule decides whether module m is a leaf (recorded as one
	// call_module node) or is traced through by calling forward.
	CallModule(m any, kind string, attrs []ir.Kwarg, forward func(args []*Tensor) []*Tensor, args []*Tensor) []*Tensor
	// Concretize is called when a symbolic tensor, or on the tracing
	// goroutine an eager tensor the tracer holds (see Held), would turn
	// into a Go value; it panics with a trace error that says what to do
	// instead.
	Concretize(t *Tensor, what string)
	// Held reports whether the eager tensor t is a parameter or buffer of
	// the model being traced: on the tracing goroutine, ops on it are
	// recorded and reads of its values are trace errors. It is called from
	// any goroutine while the trace runs.
	Held(t *Tensor) bool
	// Captures reports whether the eager tensor t, which Held does not
	// claim, is one the model holds where the tracer cannot name it (in a
	// closure): on the tracing goroutine, ops on it are recorded and reads
	// of its values are trace errors, as for Held. It is called on the
	// tracing goroutine only, so other goroutines' work is untouched.
	Captures(t *Tensor) bool
}

// NewSymbolic returns a symbolic tensor for node n recorded by h. It is for
// package tracer.
func NewSymbolic(n *ir.Node, h Hook) *Tensor {
	return &Tensor{sym: &Symbol{Node: n, Tracer: h}, born: Now()}
}

// eager wraps an array as an eager tensor made now.
func eager(a *runtime.Array) *Tensor {
	t := eagerValue(a)
	return &t
}

// eagerValue is the eager tensor over a made now, for a caller that
// allocates it with other things (NewResult).
func eagerValue(a *runtime.Array) Tensor { return Tensor{arr: a, born: Now()} }

// FromParams reports whether the eager tensor was computed from a
// parameter of a model under trace on a goroutine other than the tracing
// one (see Trace): a tracer refuses it as a constant.
func (t *Tensor) FromParams() bool { return t.fromParams }

// Data returns an eager tensor's array without the checks of Array: a
// tracer reads the parameters it holds with it. It is for package tracer.
func Data(t *Tensor) *runtime.Array { return t.arr }

// Symbolic returns the tensor's symbol, or nil for an eager tensor.
func (t *Tensor) Symbolic() *Symbol { return t.sym }

// FromArray wraps an array (not copied) as an eager tensor.
func FromArray(a *runtime.Array) *Tensor { return eager(a) }

// FromFloat32 returns a float32 tensor over data (not copied).
func FromFloat32(data []float32, shape ...int) *Tensor {
	return eager(runtime.FromFloat32(data, shape...))
}

// FromInt64 returns an int64 tensor over data (not copied).
func FromInt64(data []int64, shape ...int) *Tensor {
	return eager(runtime.FromInt64(data, shape...))
}

// FromBool returns a bool tensor over data (not copied).
func FromBool(data []bool, shape ...int) *Tensor {
	return eager(runtime.FromBool(data, shape...))
}

// Scalar returns a 0-d float32 tensor.
func Scalar(v float32) *Tensor { return eager(runtime.Float32Scalar(v)) }

// Type returns the tensor's static type (symbolic dims for a traced
// tensor).
func (t *Tensor) Type() ir.Type {
	if t.sym != nil {
		return t.sym.Node.Type()
	}
	return ir.TypeOf(t.arr)
}

// DType returns the element type.
func (t *Tensor) DType() runtime.DType { return t.Type().DType }

// NumDims returns the rank; it is known even while tracing.
func (t *Tensor) NumDims() int { return len(t.Type().Shape) }

// Dim returns the size of dimension i (negative counts from the end). On a
// traced tensor it works for constant dims and fails for a symbolic one;
// Size(i) reads a symbolic one as a value shapes take.
func (t *Tensor) Dim(i int) int {
	shape := t.Type().Shape
	d, ok := runtime.NormalizeDim(i, len(shape))
	if !ok {
		panic(fmt.Sprintf("tensor: Dim(%d) out of range for shape %v", i, shape))
	}
	if !shape[d].IsConst() {
		t.concretize(fmt.Sprintf("Dim(%d) (the symbolic size %v)", i, shape[d]))
	}
	return shape[d].Coef
}

// Shape returns the sizes; on a traced tensor with a symbolic dim it fails.
func (t *Tensor) Shape() []int {
	if t.sym != nil {
		dims, ok := t.Type().Shape.Ints()
		if !ok {
			t.concretize(fmt.Sprintf("Shape() (the symbolic shape %v)", t.Type().Shape))
		}
		return dims
	}
	return append([]int{}, t.arr.Shape...)
}

// Array returns the tensor's data (shared, not copied), or nil for a nil
// tensor.
func (t *Tensor) Array() *runtime.Array {
	if t == nil {
		return nil // a nil input to compiled code: its input check names it
	}
	t.read("Array()")
	return t.arr
}

// MarkChanged records that the tensor's data was written in place (say
// through Float32s), advancing its array's version, so that compiled
// models that computed from the old values (packed weights, folded batch
// norms) refuse to run with them. Loads through nn do this themselves.
func (t *Tensor) MarkChanged() {
	t.read("MarkChanged()")
	t.arr.MarkChanged()
}

// Float32s returns the float32 data (shared, not copied). After writing a
// model's parameter through it, call MarkChanged.
func (t *Tensor) Float32s() []float32 {
	t.read("Float32s()")
	a := t.arr
	if a.DType != runtime.Float32 {
		panic(fmt.Sprintf("tensor: Float32s of a %v tensor", a.DType))
	}
	return a.F32
}

// Int64s returns the int64 data (shared, not copied).
func (t *Tensor) Int64s() []int64 {
	t.read("Int64s()")
	a := t.arr
	if a.DType != runtime.Int64 {
		panic(fmt.Sprintf("tensor: Int64s of a %v tensor", a.DType))
	}
	return a.I64
}

// Bools returns the bool data (shared, not copied).
func (t *Tensor) Bools() []bool {
	t.read("Bools()")
	a := t.arr
	if a.DType != runtime.Bool {
		panic(fmt.Sprintf("tensor: Bools of a %v tensor", a.DType))
	}
	return a.B
}

// Item returns the value of a one-element tensor as a float64.
func (t *Tensor) Item() float64 {
	t.read("Item()")
	a := t.arr
	if a.Len() != 1 {
		panic(fmt.Sprintf("tensor: Item of a tensor of shape %v", a.Shape))
	}
	return a.At(0)
}

// Bool returns the value of a one-element tensor as a bool (non-zero is
// true), as Go's `if` over a tensor condition needs.
func (t *Tensor) Bool() bool {
	t.read("Bool()")
	return t.Item() != 0
}

// String prints an eager tensor's dtype, shape and leading values, or a
// traced tensor's node and type.
func (t *Tensor) String() string {
	if t.sym != nil {
		return fmt.Sprintf("Proxy(%s %v)", t.sym.Node.Name, t.Type())
	}
	return t.arr.String()
}

// read fails the trace when t is symbolic, or, on the goroutine of a
// trace, is a parameter of the traced model: its value is not known, or
// not fixed, until the compiled model runs.
func (t *Tensor) read(what string) {
	if t.sym != nil {
		t.concretize(what)
	}
	if len(openScopes()) == 0 {
		return
	}
	h := heldHere(t)
	if h == nil && t.fromParams {
		h = hookHere()
	}
	if h != nil {
		h.Concretize(t, what)
		panic("tensor: " + what + " of a parameter while tracing") // Concretize does not return
	}
}

func (t *Tensor) concretize(what string) {
	t.sym.Tracer.Concretize(t, what)
	panic("tensor: " + what + " on a symbolic tensor") // Concretize does not return
}
