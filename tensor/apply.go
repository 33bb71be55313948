// This file holds apply, the one dispatch point of every tensor op.

package tensor

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
)

// apply runs the vocabulary op on args, eagerly, or records it when an
// operand is symbolic, or, on the goroutine of a trace, when an operand is
// a parameter of the traced model or there is no tensor operand at all (a
// constructor). args are *Tensor, []*Tensor, numbers or nil.
func apply(opcode ir.Opcode, op string, args []any, kwargs ...ir.Kwarg) []*Tensor {
	if h := hookOf(args); h != nil {
		return h.Record(opcode, op, args, kwargs)
	}
	o := ir.LookupOp(op)
	kw, err := o.NormalizeKwargs(kwargs)
	if err != nil {
		panic(fmt.Sprintf("tensor: %s: %v", op, err))
	}
	vals := make([]any, len(args))
	for i, a := range args {
		switch x := a.(type) {
		case *Tensor:
			if x == nil {
				vals[i] = nil
			} else {
				vals[i] = x.arr
			}
		case []*Tensor:
			arrs := make([]*runtime.Array, len(x))
			for j, t := range x {
				arrs[j] = t.arr
			}
			vals[i] = arrs
		case []any: // a list of sizes (see Size): ints and 0-d int64 tensors
			arrs := make([]*runtime.Array, len(x))
			for j, e := range x {
				switch y := e.(type) {
				case int:
					arrs[j] = runtime.Int64Scalar(int64(y))
				case *Tensor:
					arrs[j] = y.arr
				default:
					panic(fmt.Sprintf("tensor: %s: list element %v (%T), want an int or a tensor", op, e, e))
				}
			}
			vals[i] = arrs
		default:
			vals[i] = a
		}
	}
	outs, err := o.Eval(vals, kw)
	if err != nil {
		panic("tensor: " + err.Error())
	}
	derived := len(openScopes()) > 0 && fromParams(args)
	res := make([]*Tensor, len(outs))
	for i, a := range outs {
		res[i] = eager(a)
		res[i].fromParams = derived
	}
	return res
}

// hookOf returns the tracer that records an op on args: the tracer of
// the first symbolic operand, else the tracer of this goroutine when it
// holds an operand or when there are no tensor operands (a constructor).
func hookOf(args []any) Hook {
	tensors := false
	for _, a := range args {
		switch x := a.(type) {
		case *Tensor:
			if x == nil {
				continue
			}
			tensors = true
			if x.sym != nil {
				return x.sym.Tracer
			}
		case []*Tensor:
			for _, t := range x {
				tensors = true
				if t.sym != nil {
					return t.sym.Tracer
				}
			}
		case []any:
			for _, e := range x {
				if t, ok := e.(*Tensor); ok && t != nil && t.sym != nil {
					return t.sym.Tracer
				}
			}
		}
	}
	if len(openScopes()) == 0 {
		return nil
	}
	if !tensors {
		return hookHere()
	}
	for _, a := range args {
		switch x := a.(type) {
		case *Tensor:
			if h := heldHere(x); h != nil {
				return h
			}
		case []*Tensor:
			for _, t := range x {
				if h := heldHere(t); h != nil {
					return h
				}
			}
		}
	}
	return nil
}

// fromParams reports whether an eager operand is a parameter of a model
// under trace, or was computed from one (see Tensor.fromParams).
func fromParams(args []any) bool {
	see := func(t *Tensor) bool {
		if t == nil {
			return false
		}
		if t.fromParams {
			return true
		}
		for _, s := range openScopes() {
			if s.hook.Held(t) {
				return true
			}
		}
		return false
	}
	for _, a := range args {
		switch x := a.(type) {
		case *Tensor:
			if see(x) {
				return true
			}
		case []*Tensor:
			for _, t := range x {
				if see(t) {
					return true
				}
			}
		}
	}
	return false
}

func apply1(opcode ir.Opcode, op string, args []any, kwargs ...ir.Kwarg) *Tensor {
	return apply(opcode, op, args, kwargs...)[0]
}

// CallModule calls a module's forward on args: eagerly it just calls
// forward; while tracing (an operand is symbolic, or the call is on the
// goroutine of a trace), the tracer records one call_module node when the
// module is a leaf, or traces through forward. kind names the leaf module
// kind of the op vocabulary (ir.ModuleKind, e.g. "Linear"), or is "" for a
// user module, which is opaque when made a leaf.
func CallModule(m any, kind string, attrs []ir.Kwarg, forward func(args []*Tensor) []*Tensor, args ...*Tensor) []*Tensor {
	for _, a := range args {
		if a != nil && a.sym != nil {
			return a.sym.Tracer.CallModule(m, kind, attrs, forward, args)
		}
	}
	if len(openScopes()) > 0 {
		if h := hookHere(); h != nil {
			return h.CallModule(m, kind, attrs, forward, args)
		}
	}
	return forward(args)
}

// Apply runs the vocabulary op on args (tensors, []*Tensor lists, numbers
// or nil), or records it while tracing, as every method of Tensor does. It
// is for ops added to the vocabulary outside this package.
func Apply(opcode ir.Opcode, op string, args []any, kwargs ...ir.Kwarg) []*Tensor {
	return apply(opcode, op, args, kwargs...)
}
