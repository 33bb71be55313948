// This file defines Interpreter, which runs a graph on concrete arrays.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

// Value is what the interpreter holds for a node: a *runtime.Array, or a
// []*runtime.Array for a node with several results.
type Value = any

// Interpreter runs a graph node by node on concrete arrays, with the same
// kernels eager tensors use. Each opcode has an override point: a nil
// field means the default behaviour, which the Default methods expose so
// that an override can delegate to it.
type Interpreter struct {
	Graph *Graph

	Placeholder  func(it *Interpreter, n *Node, input *runtime.Array) (Value, error)
	GetAttr      func(it *Interpreter, n *Node) (Value, error)
	CallFunction func(it *Interpreter, n *Node, args []Value, kwargs []Kwarg) (Value, error)
	CallMethod   func(it *Interpreter, n *Node, args []Value, kwargs []Kwarg) (Value, error)
	CallModule   func(it *Interpreter, n *Node, args []Value) (Value, error)
	// RunNode, if set, runs every node in place of the dispatch on its
	// opcode (torch.fx's run_node): it may compute some nodes itself and
	// hand the others to DefaultRunNode, which dispatches to the fields
	// above. Its value for the output node is the []*runtime.Array of
	// results.
	RunNode func(it *Interpreter, n *Node) (Value, error)
	// AfterNode, if set, sees every node's value once computed.
	AfterNode func(n *Node, v Value)

	// Env holds the value of each node run so far.
	Env map[*Node]Value

	inputs []*runtime.Array // Run's inputs
	next   int              // the input of the next placeholder
}

// NewInterpreter returns an interpreter of g with default behaviour.
func NewInterpreter(g *Graph) *Interpreter { return &Interpreter{Graph: g} }

// Run runs the graph on inputs (one per placeholder, in order) and returns
// the output node's results, flattened in order. An error names the node
// that failed and its source position.
func (it *Interpreter) Run(inputs ...*runtime.Array) (outs []*runtime.Array, err error) {
	it.Env = map[*Node]Value{}
	phs := it.Graph.Placeholders()
	if len(inputs) != len(phs) {
		return nil, fmt.Errorf("interpreter: got %d inputs, want %d", len(inputs), len(phs))
	}
	it.inputs, it.next = inputs, 0
	defer func() { it.inputs = nil }()
	for _, n := range it.Graph.Nodes() {
		var v Value
		var err error
		if it.RunNode != nil {
			v, err = it.protect(n, it.RunNode)
		} else {
			v, err = it.DefaultRunNode(n)
		}
		if err != nil {
			where := ""
			if p := n.Pos.String(); p != "" {
				where = " (" + p + ")"
			}
			return nil, fmt.Errorf("interpreter: node %s%s: %v", n.Name, where, err)
		}
		if n.Op == Output {
			outs, ok := v.([]*runtime.Array)
			if !ok {
				return nil, fmt.Errorf("interpreter: node %s: got %T, want []*runtime.Array", n.Name, v)
			}
			return outs, nil
		}
		it.Env[n] = v
		if it.AfterNode != nil {
			it.AfterNode(n, v)
		}
	}
	return nil, fmt.Errorf("interpreter: graph has no output node")
}

// protect runs fn on n, turning a panic into an error.
func (it *Interpreter) protect(n *Node, fn func(it *Interpreter, n *Node) (Value, error)) (v Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return fn(it, n)
}

// DefaultRunNode runs node n by its opcode: a placeholder takes the next
// input of Run, and each opcode goes to its override field, or to its
// Default method when the field is nil. Call it only while Run runs (from
// RunNode).
func (it *Interpreter) DefaultRunNode(n *Node) (Value, error) {
	return it.protect(n, (*Interpreter).runNode)
}

func (it *Interpreter) runNode(n *Node) (v Value, err error) {
	switch n.Op {
	case Placeholder:
		if it.next >= len(it.inputs) {
			return nil, fmt.Errorf("no input left for placeholder %s", n.Name)
		}
		in := it.inputs[it.next]
		it.next++
		if it.Placeholder != nil {
			return it.Placeholder(it, n, in)
		}
		return it.DefaultPlaceholder(n, in)
	case GetAttr:
		if it.GetAttr != nil {
			return it.GetAttr(it, n)
		}
		return it.DefaultGetAttr(n)
	case CallFunction:
		args := it.values(n.args)
		if it.CallFunction != nil {
			return it.CallFunction(it, n, args, n.kwargs)
		}
		return it.DefaultCall(n, args, n.kwargs)
	case CallMethod:
		args := it.values(n.args)
		if it.CallMethod != nil {
			return it.CallMethod(it, n, args, n.kwargs)
		}
		return it.DefaultCall(n, args, n.kwargs)
	case CallModule:
		args := it.values(n.args)
		if it.CallModule != nil {
			return it.CallModule(it, n, args)
		}
		return it.DefaultCallModule(n, args)
	case Output:
		var outs []*runtime.Array
		for _, v := range flatten(it.values(n.args)) {
			a, ok := v.(*runtime.Array)
			if !ok {
				return nil, fmt.Errorf("output: %T is not an array", v)
			}
			outs = append(outs, a)
		}
		return outs, nil
	}
	return nil, fmt.Errorf("invalid opcode %d", n.Op)
}

func flatten(vs []Value) []Value {
	var out []Value
	for _, v := range vs {
		switch l := v.(type) {
		case []Value:
			out = append(out, flatten(l)...)
		case []*runtime.Array: // a list of nodes, or a node with several results
			for _, a := range l {
				out = append(out, a)
			}
		default:
			out = append(out, v)
		}
	}
	return out
}

// values maps node args to their values: nodes to Env entries, lists of
// nodes (and of sizes, whose ints become 0-d int64 arrays) to
// []*runtime.Array (or []Value when they are not all arrays).
func (it *Interpreter) values(args []Arg) []Value {
	out := make([]Value, len(args))
	for i, a := range args {
		switch x := a.(type) {
		case *Node:
			out[i] = it.Env[x]
		case []Arg:
			vs := it.values(x)
			arrs := make([]*runtime.Array, 0, len(vs))
			for _, v := range vs {
				if n, ok := v.(int); ok {
					v = runtime.Int64Scalar(int64(n)) // an int in a list of sizes
				}
				if arr, ok := v.(*runtime.Array); ok {
					arrs = append(arrs, arr)
				}
			}
			if len(arrs) == len(vs) {
				out[i] = arrs
			} else {
				out[i] = vs
			}
		default:
			out[i] = a
		}
	}
	return out
}

// DefaultPlaceholder checks the input against the placeholder's type
// (symbolic dims must agree across inputs) and returns it.
func (it *Interpreter) DefaultPlaceholder(n *Node, in *runtime.Array) (Value, error) {
	t := n.Type()
	if in == nil || in.DType != t.DType || len(in.Shape) != len(t.Shape) {
		return nil, fmt.Errorf("input %s: got %v, want %v", n.Name, in, t)
	}
	syms := it.symbols()
	for i, d := range t.Shape {
		if d.IsConst() {
			if in.Shape[i] != d.Coef {
				return nil, fmt.Errorf("input %s: got shape %v, want %v", n.Name, in.Shape, t.Shape)
			}
			continue
		}
		if v, ok := syms[d.Sym]; ok && v*d.Coef != in.Shape[i] {
			return nil, fmt.Errorf("input %s: dim %d is %d but %s = %d", n.Name, i, in.Shape[i], d.Sym, v)
		}
		if in.Shape[i]%d.Coef != 0 {
			return nil, fmt.Errorf("input %s: dim %d is %d, not a multiple of %d", n.Name, i, in.Shape[i], d.Coef)
		}
		syms[d.Sym] = in.Shape[i] / d.Coef
	}
	return in, nil
}

// symbols returns the values symbolic dims took in the inputs so far.
func (it *Interpreter) symbols() map[string]int {
	syms := map[string]int{}
	for n, v := range it.Env {
		if n.Op != Placeholder {
			continue
		}
		a := v.(*runtime.Array)
		for i, d := range n.Type().Shape {
			if !d.IsConst() && i < len(a.Shape) {
				syms[d.Sym] = a.Shape[i] / d.Coef
			}
		}
	}
	return syms
}

// DefaultGetAttr returns the parameter's data.
func (it *Interpreter) DefaultGetAttr(n *Node) (Value, error) {
	p := it.Graph.Params[n.Target]
	if p == nil || p.Value == nil {
		return nil, fmt.Errorf("get_attr: no data for parameter %q", n.Target)
	}
	return p.Value, nil
}

// DefaultCall runs the node's op eagerly (call_function and call_method).
func (it *Interpreter) DefaultCall(n *Node, args []Value, kwargs []Kwarg) (Value, error) {
	op := LookupOp(n.Target)
	if op == nil {
		return nil, fmt.Errorf("unknown op %q", n.Target)
	}
	if op.Kernel == nil && op.Func == nil { // getitem
		tup, ok := args[0].([]*runtime.Array)
		if !ok {
			return nil, fmt.Errorf("getitem of %T", args[0])
		}
		return tup[(&Sig{Op: op, Kwargs: kwargs}).Int("index")], nil
	}
	outs, err := op.Eval(args, kwargs)
	if err != nil {
		return nil, err
	}
	return resultValue(outs), nil
}

func resultValue(outs []*runtime.Array) Value {
	if len(outs) == 1 {
		return outs[0]
	}
	return outs
}

// DefaultCallModule runs a leaf module: its kind's op with the module's
// parameters and attributes, or an opaque module's Run.
func (it *Interpreter) DefaultCallModule(n *Node, args []Value) (Value, error) {
	m, _, op, err := it.Graph.moduleOp(n.Target)
	if err != nil {
		return nil, err
	}
	if op == nil {
		if m.Run == nil {
			return nil, fmt.Errorf("opaque module %s (%s) has no Run", n.Target, m.GoType)
		}
		arrs := make([]*runtime.Array, len(args))
		for i, a := range args {
			arrs[i], _ = a.(*runtime.Array)
		}
		outs, err := m.Run(arrs)
		if err != nil {
			return nil, err
		}
		return resultValue(outs), nil
	}
	for _, p := range m.Params {
		if p == "" {
			args = append(args, nil)
			continue
		}
		args = append(args, it.Graph.Params[p].Value)
	}
	kw, err := op.NormalizeKwargs(m.Attrs)
	if err != nil {
		return nil, err
	}
	outs, err := op.Eval(args, kw)
	if err != nil {
		return nil, err
	}
	return resultValue(outs), nil
}
