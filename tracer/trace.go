// This file holds Trace, which runs a model's Forward on symbolic tensors
// and records the graph.

package tracer

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// tracer records ops on its symbolic tensors into g. It is reached through
// its tensors, and, for constructors and ops on parameters, through the
// trace scope of the goroutine running Forward (tensor.BeginTrace), so
// several traces and any eager work may run at once.
type tracer struct {
	g      *ir.Graph
	opts   Options
	w      *walked
	attrs  map[*tensor.Tensor]*ir.Node
	consts int
	start  tensor.Mark // tensors made before it are the model's, or foreign
	// leafOnly are the user module types all of whose instances are
	// leaves, each with a path (see checkDirectLeafCall).
	leafOnly map[string]string
	// captured are the tensors the model holds where Go code cannot name
	// them, in the order the trace met them (see capture), and
	// captureGroups counts the captured<k> names given out.
	captured      []*tensor.Tensor
	captureGroups int
}

// Trace runs root.Forward with a symbolic tensor for each tensor parameter
// (inputs, in order) and the bound concrete values for the others, and
// returns the recorded graph. A model that cannot be traced returns a
// *TraceError naming the model's file and line.
//
// Forward runs on the calling goroutine, and the trace sees only that
// goroutine's work: the model's parameters and buffers (however its
// exported fields, slices, arrays, maps and method values reach them) are
// get_attr values there and nowhere else, so the same model may run
// eagerly on other goroutines meanwhile, and traces may run concurrently.
// Work that Forward hands to goroutines of its own is not traced.
func Trace(root any, inputs []Input, opts ...Option) (*ir.Graph, error) {
	t, err := trace(root, inputs, opts)
	if err != nil {
		return nil, err
	}
	return t.g, nil
}

// trace is Trace, returning the tracer with its graph and what it
// captured.
func trace(root any, inputs []Input, opts []Option) (*tracer, error) {
	t := &tracer{g: ir.NewGraph(), attrs: map[*tensor.Tensor]*ir.Node{}}
	for _, o := range opts {
		o(&t.opts)
	}
	rv := reflect.ValueOf(root)
	fwd := rv.MethodByName("Forward")
	if !fwd.IsValid() {
		return nil, &TraceError{Msg: fmt.Sprintf("%T has no exported Forward method", root)}
	}
	t.w = walk(root)
	if err := t.w.checkLeaves(t.opts.Leaves); err != nil {
		return nil, err
	}
	t.leafOnly = t.leafOnlyTypes()
	args, sig, err := t.bindArgs(fwd.Type(), inputs)
	if err != nil {
		return nil, err
	}
	results, err := t.call(fwd, args)
	if err != nil {
		return nil, err
	}
	var outs []ir.Arg
	for i, r := range results {
		x, ok := r.Interface().(*tensor.Tensor)
		if !ok || x == nil {
			return nil, &TraceError{Msg: fmt.Sprintf("Forward result %d is %v, want a non-nil *tensor.Tensor", i, r.Type())}
		}
		outs = append(outs, t.node(x))
	}
	var out ir.Arg = outs
	if len(outs) == 1 {
		out = outs[0]
	}
	if _, err := t.g.Output(out); err != nil {
		return nil, &TraceError{Msg: err.Error()}
	}
	sig.Results = len(outs)
	sig.Captured = len(t.captured)
	t.g.Forward = sig
	return t, nil
}

// bindArgs makes a placeholder for each tensor parameter of Forward and
// binds the concrete values to the others.
func (t *tracer) bindArgs(ft reflect.Type, inputs []Input) ([]reflect.Value, *ir.Signature, error) {
	if ft.IsVariadic() {
		return nil, nil, &TraceError{Msg: "Forward is variadic; give it fixed parameters"}
	}
	for i := 0; i < ft.NumOut(); i++ {
		if ft.Out(i) != tensorPtrType {
			return nil, nil, &TraceError{Msg: fmt.Sprintf("Forward result %d is %v, want *tensor.Tensor", i, ft.Out(i))}
		}
	}
	sig := &ir.Signature{}
	var args []reflect.Value
	nt, nc := 0, 0
	for i := 0; i < ft.NumIn(); i++ {
		pt := ft.In(i)
		if pt == tensorPtrType {
			if nt >= len(inputs) {
				return nil, nil, &TraceError{Msg: fmt.Sprintf("Forward parameter %d is a tensor but only %d inputs are given; add an input spec (-input name=f32[N,...])", i, len(inputs))}
			}
			in := inputs[nt]
			nt++
			ph := t.g.Placeholder(in.Name, in.Type)
			args = append(args, reflect.ValueOf(tensor.NewSymbolic(ph, t)))
			sig.Params = append(sig.Params, ir.SigParam{Name: in.Name, GoType: "*tensor.Tensor", Tensor: true})
			continue
		}
		if nc >= len(t.opts.Concrete) {
			return nil, nil, &TraceError{Msg: fmt.Sprintf("Forward parameter %d (%v) is not a tensor, so it needs a concrete value: bind it with tracer.Concrete (fxgen -concrete name=value)", i, pt)}
		}
		c := t.opts.Concrete[nc]
		nc++
		v := reflect.ValueOf(c.Value)
		if !v.IsValid() || !v.Type().ConvertibleTo(pt) {
			return nil, nil, &TraceError{Msg: fmt.Sprintf("concrete value %v (%T) for parameter %s does not fit its type %v", c.Value, c.Value, c.Name, pt)}
		}
		args = append(args, v.Convert(pt))
		sig.Params = append(sig.Params, ir.SigParam{Name: c.Name, GoType: pt.String(), Concrete: v.Convert(pt).Interface()})
	}
	if nt < len(inputs) {
		return nil, nil, &TraceError{Msg: fmt.Sprintf("%d inputs given but Forward has %d tensor parameters", len(inputs), nt)}
	}
	if nc < len(t.opts.Concrete) {
		return nil, nil, &TraceError{Msg: fmt.Sprintf("%d concrete values given but Forward has %d non-tensor parameters", len(t.opts.Concrete), nc)}
	}
	return args, sig, nil
}

// call runs Forward, turning a panic into a TraceError at the model's line.
func (t *tracer) call(fwd reflect.Value, args []reflect.Value) (results []reflect.Value, err error) {
	t.start = tensor.Now()
	end := tensor.BeginTrace(t)
	defer end()
	defer func() {
		if r := recover(); r != nil {
			if te, ok := r.(*TraceError); ok {
				err = te
				return
			}
			file, line := callerPos()
			err = &TraceError{File: file, Line: line, Msg: fmt.Sprintf("panic while tracing: %v", r)}
		}
	}()
	return fwd.Call(args), nil
}

// node returns the graph node standing for tensor x: its own node when
// symbolic, else a get_attr of the parameter (or of a new constant).
func (t *tracer) node(x *tensor.Tensor) *ir.Node {
	if s := x.Symbolic(); s != nil {
		if s.Tracer != tensor.Hook(t) {
			panic(errorAt("tensor %s belongs to another trace; do not keep symbolic tensors across traces", s.Node.Name))
		}
		return s.Node
	}
	if n := t.attrs[x]; n != nil {
		return n
	}
	name, goPath := "", ""
	if p, ok := t.w.param(x); ok {
		name, goPath = p.Name, p.GoPath
	} else if path, ok := t.w.hiddenPath(x); ok {
		panic(errorAt("%s", hiddenMsg(x, path, "is used")))
	} else if x.FromParams() {
		panic(errorAt("%s", fromParamsMsg(x, "is used")))
	} else if t.capturable(x) {
		t.capture(x, t.nextCaptureName())
		p, _ := t.w.param(x)
		name, goPath = p.Name, p.GoPath
	} else {
		for {
			name = fmt.Sprintf("_tensor_constant%d", t.consts)
			t.consts++
			if _, taken := t.g.Params[name]; !taken {
				break
			}
		}
	}
	t.addParam(name, goPath, x)
	n, err := t.g.GetAttr(name)
	if err != nil {
		panic(errorAt("%v", err))
	}
	t.setPos(n)
	t.attrs[x] = n
	return n
}

func (t *tracer) addParam(name, goPath string, x *tensor.Tensor) {
	if _, ok := t.g.Params[name]; ok {
		return
	}
	a := tensor.Data(x)
	t.g.Params[name] = &ir.Param{Name: name, Type: ir.TypeOf(a), Value: a, GoPath: goPath}
}

func (t *tracer) setPos(n *ir.Node) {
	file, line := nodePos()
	n.Pos = ir.Pos{File: baseName(file), Line: line}
}

// args maps tensor operands to nodes.
func (t *tracer) args(args []any) []ir.Arg {
	out := make([]ir.Arg, len(args))
	for i, a := range args {
		switch x := a.(type) {
		case *tensor.Tensor:
			if x != nil {
				out[i] = t.node(x)
			}
		case []*tensor.Tensor:
			l := make([]ir.Arg, len(x))
			for j, e := range x {
				l[j] = t.node(e)
			}
			out[i] = l
		case []any: // a list of sizes: ints and size tensors
			l := make([]ir.Arg, len(x))
			for j, e := range x {
				if y, ok := e.(*tensor.Tensor); ok {
					l[j] = t.node(y)
				} else {
					l[j] = e
				}
			}
			out[i] = l
		default:
			out[i] = a
		}
	}
	return out
}

// Record implements tensor.Hook.
func (t *tracer) Record(opcode ir.Opcode, op string, args []any, kwargs []ir.Kwarg) []*tensor.Tensor {
	t.checkDirectLeafCall()
	n, err := t.g.CreateNode(opcode, op, t.args(args), kwargs, "")
	if err != nil {
		panic(errorAt("%v", err))
	}
	t.setPos(n)
	return t.results(n)
}

// results returns the symbolic tensors of n: one, or one getitem per
// result of a multi-result node.
func (t *tracer) results(n *ir.Node) []*tensor.Tensor {
	if len(n.Types) == 1 {
		return []*tensor.Tensor{tensor.NewSymbolic(n, t)}
	}
	out := make([]*tensor.Tensor, len(n.Types))
	for i := range n.Types {
		gi, err := t.g.CallFunction(ir.OpGetitem, []ir.Arg{n}, ir.Kwarg{Name: "index", Value: i})
		if err != nil {
			panic(errorAt("%v", err))
		}
		gi.Pos = n.Pos
		out[i] = tensor.NewSymbolic(gi, t)
	}
	return out
}

// CallModule implements tensor.Hook.
func (t *tracer) CallModule(m any, kind string, attrs []ir.Kwarg, forward func([]*tensor.Tensor) []*tensor.Tensor, args []*tensor.Tensor) []*tensor.Tensor {
	t.checkDirectLeafCall()
	info, known := t.w.module(m)
	if !known {
		if rt := reflect.TypeOf(m); rt != nil && rt.Kind() != reflect.Pointer {
			if path, leaf := t.leafOnly[rt.PkgPath()+"."+rt.Name()]; leaf {
				panic(errorAt("module %s (%v) is a leaf, but it is passed by value, a copy the tracer cannot tell from other modules: "+
					"hold it by pointer (*%s) and pass the pointer to nn.Call", path, rt, rt.Name()))
			}
		}
		t.captureModule(m)
	}
	if !known || !t.opts.leaf(info.Name, info.TypeName, kind != "") {
		return forward(args)
	}
	mod := &ir.Module{Kind: kind, GoType: reflect.TypeOf(m).String(), Attrs: attrs, GoPath: info.GoPath}
	if kind != "" {
		k := ir.LookupModuleKind(kind)
		if k == nil {
			panic(errorAt("module %s: unknown module kind %q", info.Name, kind))
		}
		for _, p := range k.Params {
			name := joinPath(info.Name, p)
			x := t.w.byName(name)
			if x == nil {
				mod.Params = append(mod.Params, "")
				continue
			}
			p, _ := t.w.param(x)
			t.addParam(name, p.GoPath, x)
			mod.Params = append(mod.Params, name)
		}
	} else {
		types, err := t.leafTypes(m, info.Name, info.TypeName, forward, args)
		if err != nil {
			panic(errorAt("leaf module %s (%s): %v", info.Name, mod.GoType, err))
		}
		mod.Results = types
		mod.Run = func(in []*runtime.Array) ([]*runtime.Array, error) {
			ts := make([]*tensor.Tensor, len(in))
			for i, a := range in {
				ts[i] = tensor.FromArray(a)
			}
			var outs []*runtime.Array
			for _, r := range forward(ts) {
				outs = append(outs, r.Array())
			}
			return outs, nil
		}
	}
	t.g.Modules[info.Name] = mod
	nodeArgs := make([]ir.Arg, len(args))
	for i, a := range args {
		if a != nil { // nil: an absent optional operand (no offsets)
			nodeArgs[i] = t.node(a)
		}
	}
	n, err := t.g.CallModule(info.Name, nodeArgs...)
	if err != nil {
		panic(errorAt("%v", err))
	}
	t.setPos(n)
	return t.results(n)
}

// Concretize implements tensor.Hook: turning a symbolic value into a Go
// value is dynamic control flow, which a trace cannot capture.
func (t *tracer) Concretize(x *tensor.Tensor, what string) {
	if x.Symbolic() == nil {
		t.concretizeHeld(x, what)
	}
	n := x.Symbolic().Node
	from := n.Name
	if p := n.Pos.String(); p != "" {
		from += " from " + p
	}
	if strings.HasPrefix(what, "Int() of the symbolic size") {
		panic(errorAt("%s (%s) turns a size that is only known when the model runs into a Go int: control flow on it cannot be traced. "+
			"Remedies: pass the Size itself to View, Reshape, Expand, Zeros, Ones and Full, and compute with its Mul, Div, Add and Sub; "+
			"trace with a constant size in the input spec; make the enclosing module a leaf (tracer.Leaf, fxgen -leaf); "+
			"or wrap the function (tracer.Wrap)", what, from))
	}
	if n.Op == ir.Placeholder || !isValueRead(what) {
		panic(errorAt("%s of the traced tensor %s (%v) needs a value that is only known when the model runs. "+
			"Remedies: read the size with x.Size(i), which View, Reshape, Expand and the constructors take, or use -1 in Reshape/View; "+
			"trace with a constant size in the input spec; "+
			"make the enclosing module a leaf (tracer.Leaf, fxgen -leaf); or wrap the function (tracer.Wrap)", what, from, x.Type()))
	}
	panic(errorAt("%s reads the value of the traced tensor %s (%v): control flow that depends on tensor values cannot be traced. "+
		"Remedies: express the choice with tensor ops; bind a non-tensor argument with a concrete value (tracer.Concrete, fxgen -concrete); "+
		"make the enclosing module a leaf (tracer.Leaf, fxgen -leaf); or wrap the function (tracer.Wrap)", what, from, x.Type()))
}

// isValueRead reports whether what reads tensor values (rather than a
// symbolic size).
func isValueRead(what string) bool {
	return !strings.HasPrefix(what, "Dim") && !strings.HasPrefix(what, "Shape")
}
