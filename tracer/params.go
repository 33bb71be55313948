// This file holds how a trace treats the tensors the model holds: its
// parameters and buffers (graph values), the tensors and modules it holds
// where the walk cannot reach them, in closures (captured graph values),
// tensors in unexported fields (errors), and values computed from
// parameters off the tracing goroutine (errors).

package tracer

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
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

// Captures implements tensor.Hook: see capturable.
func (t *tracer) Captures(x *tensor.Tensor) bool { return t.capturable(x) }

// captureModule names the parameters of module m, which the walk did not
// reach (a closure holds it, or a user module held only as a method value
// calls it), when they were made before the trace began: each becomes a
// captured parameter (see capture), named captured<k>.<its name in m>. A
// module made inside Forward is left alone: its tensors are constants.
func (t *tracer) captureModule(m any) {
	params, _ := nn.Walk(m)
	group := ""
	for _, p := range params {
		if p.Tensor.Symbolic() != nil || p.Tensor.Made() >= t.start {
			continue
		}
		if _, known := t.w.param(p.Tensor); known {
			continue
		}
		if group == "" {
			group = t.nextCaptureName()
		}
		t.capture(p.Tensor, joinPath(group, p.Name))
	}
}

// capturable reports whether eager tensor x, which the walk did not name,
// is a parameter the model holds where Go code cannot name it: a
// floating-point tensor made before the trace began, held in a closure,
// by a user module held only as a method value, or in a package-level
// variable. The compiled model reads it in place, as it does the
// parameters it can name, so that it follows weights loaded later.
// Integer and boolean tensors made before the trace (index tables, masks)
// and tensors made inside Forward are constants, as in torch.fx.
func (t *tracer) capturable(x *tensor.Tensor) bool {
	return x.Symbolic() == nil && x.Made() < t.start && x.DType() == runtime.Float32
}

// capture makes x, a tensor the model holds where Go code cannot name it,
// a parameter of the graph: a get_attr value like any other, whose Go path
// "(captured K)" says that the compiled model finds it as the K-th tensor
// Captured returns, by tracing Forward again in its constructor.
func (t *tracer) capture(x *tensor.Tensor, name string) {
	t.w.add([]nn.Param{{Name: name, GoPath: ir.CapturedGoPath(len(t.captured)), Tensor: x}}, nil)
	t.captured = append(t.captured, x)
}

// nextCaptureName returns the next free name captured<k>.
func (t *tracer) nextCaptureName() string {
	for {
		name := fmt.Sprintf("captured%d", t.captureGroups)
		t.captureGroups++
		if t.g.Params[name] == nil && !t.w.nameTaken(name) {
			return name
		}
	}
}

// concretizeHeld fails the trace for a read of the values of eager tensor
// x that the tracer holds (see Held) or that was computed from the model's
// parameters on another goroutine.
func (t *tracer) concretizeHeld(x *tensor.Tensor, what string) {
	p, ok := t.w.param(x)
	if path, hidden := t.w.hiddenPath(x); hidden && !ok {
		panic(errorAt("%s", hiddenMsg(x, path, what+" reads it")))
	}
	if !ok && t.capturable(x) {
		panic(errorAt("%s reads the value of a tensor (%v) that the model holds where the tracer cannot name it (in a closure, "+
			"most likely) while tracing: the compiled model would keep today's value and not follow the weights loaded later. "+
			"Remedies: compute with it as a tensor, so the work becomes graph nodes; if it is a fixed setting, make it a Go "+
			"constant, or a Forward argument bound with a concrete value (tracer.Concrete, fxgen -concrete)", what, x.Type()))
	}
	if !ok {
		panic(errorAt("%s", fromParamsMsg(x, what+" reads it")))
	}
	panic(errorAt("%s reads the value of the parameter %s (%v) while tracing: the compiled model would keep today's value "+
		"and not follow the weights loaded later. Remedies: compute with the parameter as a tensor (x.Mul(m.Scale) instead of "+
		"x.MulScalar(m.Scale.Item())), so the work becomes graph nodes; if it is a fixed setting, make it a Go constant or a "+
		"non-tensor field, or a Forward argument bound with a concrete value (tracer.Concrete, fxgen -concrete)", what, p.Name, x.Type()))
}
