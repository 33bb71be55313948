// This file holds how a trace treats the tensors the model holds: its
// parameters and buffers (graph values), tensors in unexported fields and
// modules the walk cannot reach (errors), and values computed from
// parameters off the tracing goroutine (errors).

package tracer

import (
	"fmt"

	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// fromParamsMsg explains a tensor computed from the model's parameters on
// a goroutine other than the tracing one.
func fromParamsMsg(x *tensor.Tensor, use string) string {
	return fmt.Sprintf("a tensor (%v) computed from the model's parameters on another goroutine %s: the trace sees only the "+
		"goroutine that runs Forward, so the compiled model would keep today's value. Remedy: do the work on the goroutine "+
		"that runs Forward (or in a wrapped function, tracer.Wrap)", x.Type(), use)
}

// hiddenMsg explains a tensor the model holds in an unexported field.
func hiddenMsg(x *tensor.Tensor, path, use string) string {
	return fmt.Sprintf("the tensor %s (%v), which the model holds in an unexported field, %s: it is no parameter or buffer "+
		"(the state dict and the compiled model do not see it), so the compiled model would keep today's value. Remedies: "+
		"export the field, so that it is a buffer with a name; or create the tensor inside Forward from Go values", path, x.Type(), use)
}

// Held implements tensor.Hook: the model's parameters and buffers, as the
// walk named them, and the tensors it holds in unexported fields (so that
// using one is an error rather than an eager constant). An opaque leaf's
// forward is never traced: it runs as Go code, off the tracing goroutine
// for its example run and in the compiled model, and may read what it
// likes.
func (t *tracer) Held(x *tensor.Tensor) bool {
	if _, ok := t.w.param(x); ok {
		return true
	}
	_, ok := t.w.hiddenPath(x)
	return ok
}

// checkUnnamed fails the trace when module m, which the walk did not reach
// (it is held by a closure, an unexported field or a package variable),
// has parameters made before the trace began: the graph could only keep
// their values as constants, and the compiled model would not follow the
// weights loaded later. A module made inside Forward is fine.
func (t *tracer) checkUnnamed(m any) {
	params, _ := nn.Walk(m)
	for _, p := range params {
		if p.Tensor.Symbolic() == nil && p.Tensor.Made() < t.start {
			panic(errorAt("module %T is called but the model does not hold it where the tracer looks, so its parameter %s (%v) "+
				"has no name and the compiled model would keep today's value. Remedies: keep the module in an exported field "+
				"(or a slice, array or map of them) of the model and call it there (Out *nn.Linear, m.Out.Forward(x)); "+
				"a method value stored in a field (Out: fc.Forward) works too; a closure capturing the module does not",
				m, p.Name, p.Tensor.Type()))
		}
	}
}

// checkConstant fails the trace when eager tensor x, which the tracer
// cannot name, is to become a constant of the graph although it was made
// after the model's first parameter and before the trace began: it is
// then most likely held by the model where the walk cannot look (a closure,
// or a user module held only as a method value), and the compiled model
// would keep today's value. Tensors made before the model (package-level
// tables) and those made inside Forward are constants, as in torch.fx.
func (t *tracer) checkConstant(x *tensor.Tensor) {
	if t.modelMade == nil || x.Made() < *t.modelMade || x.Made() >= t.start {
		return
	}
	panic(errorAt("a tensor (%v) that the tracer cannot name is used: it was made with the model, after its first parameter "+
		"and before the trace, so the model most likely holds it where the tracer cannot look (a closure, or a user module held "+
		"only as a method value), and the compiled model would keep today's value. Remedies: keep it, or the module holding "+
		"it, in an exported field of the model (a user module as Blk *Block, called as m.Blk.Forward(x) or through nn.Call, "+
		"rather than as a method value); or, if it is a constant, make it inside Forward or before the model, for instance "+
		"as a package-level variable", x.Type()))
}

// concretizeHeld fails the trace for a read of the values of eager tensor
// x that the tracer holds (see Held) or that was computed from the model's
// parameters on another goroutine.
func (t *tracer) concretizeHeld(x *tensor.Tensor, what string) {
	p, ok := t.w.param(x)
	if path, hidden := t.w.hiddenPath(x); hidden && !ok {
		panic(errorAt("%s", hiddenMsg(x, path, what+" reads it")))
	}
	if !ok {
		panic(errorAt("%s", fromParamsMsg(x, what+" reads it")))
	}
	panic(errorAt("%s reads the value of the parameter %s (%v) while tracing: the compiled model would keep today's value "+
		"and not follow the weights loaded later. Remedies: compute with the parameter as a tensor (x.Mul(m.Scale) instead of "+
		"x.MulScalar(m.Scale.Item())), so the work becomes graph nodes; if it is a fixed setting, make it a Go constant or a "+
		"non-tensor field, or a Forward argument bound with a concrete value (tracer.Concrete, fxgen -concrete)", what, p.Name, x.Type()))
}
