// This file defines Transformer, which rebuilds a graph node by node.

package ir

import (
	"fmt"
)

// TransformFunc builds what node n of the old graph becomes in t.New: args
// and kwargs are n's, with every node among them replaced by what it
// became. It returns the node that stands for n's value from then on, or
// nil to drop n (only if nothing uses it). It may create several nodes.
type TransformFunc func(t *Transformer, n *Node, args []Arg, kwargs []Kwarg) (*Node, error)

// Transformer walks a graph in order and builds a new one, in the manner
// of torch.fx's Transformer. Each opcode has an override point: a nil
// field copies the node unchanged, which the Default methods expose so that
// an override can delegate to them. An override creates nodes in t.New
// with the usual Graph methods; for instance, to replace relu by (x > 0) * x:
//
//	t := ir.NewTransformer(g)
//	t.CallFunction = func(t *ir.Transformer, n *ir.Node, args []ir.Arg, kwargs []ir.Kwarg) (*ir.Node, error) {
//		if n.Target != "relu" {
//			return t.DefaultCallFunction(n, args, kwargs)
//		}
//		pos, err := t.New.CallFunction("gt", []ir.Arg{args[0], 0.0})
//		if err != nil {
//			return nil, err
//		}
//		return t.New.CallFunction("mul", []ir.Arg{pos, args[0]})
//	}
//	g2, err := t.Transform()
//
// Nodes an override creates without a source position get n's.
type Transformer struct {
	// Graph is the graph walked; it is not changed.
	Graph *Graph
	// New is the graph being built; Transform sets it, with copies of
	// Graph's modules, parameters and Forward signature, before the walk.
	New *Graph

	Placeholder  TransformFunc
	GetAttr      TransformFunc
	CallFunction TransformFunc
	CallMethod   TransformFunc
	CallModule   TransformFunc
	Output       TransformFunc

	// Env maps each node of Graph walked so far to what it became in New.
	Env map[*Node]*Node
}

// NewTransformer returns a transformer of g that copies every node.
func NewTransformer(g *Graph) *Transformer { return &Transformer{Graph: g} }

// Transform walks Graph and returns the new graph. An error names the node
// of Graph that failed.
func (t *Transformer) Transform() (*Graph, error) {
	t.New = NewGraph()
	t.Env = map[*Node]*Node{}
	src := t.Graph
	for k, m := range src.Modules {
		mc := *m
		mc.Attrs = append([]Kwarg(nil), m.Attrs...)
		mc.Params = append([]string(nil), m.Params...)
		t.New.Modules[k] = &mc
	}
	for k, p := range src.Params {
		pc := *p
		t.New.Params[k] = &pc
	}
	if src.Forward != nil {
		f := *src.Forward
		f.Params = append([]SigParam{}, src.Forward.Params...)
		t.New.Forward = &f
	}
	for _, n := range src.Nodes() {
		last := t.New.Last()
		r, err := t.transformNode(n)
		if err != nil {
			where := ""
			if p := n.Pos.String(); p != "" {
				where = " (" + p + ")"
			}
			return nil, fmt.Errorf("ir: transform: node %s%s: %v", n.Name, where, err)
		}
		// Give the nodes this step created the source position of n.
		m := t.New.First()
		if last != nil {
			m = last.Next()
		}
		for ; m != nil; m = m.Next() {
			if m.Pos == (Pos{}) {
				m.Pos = n.Pos
			}
		}
		if r != nil {
			t.Env[n] = r
		}
	}
	return t.New, nil
}

func (t *Transformer) transformNode(n *Node) (r *Node, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("panic: %v", p)
		}
	}()
	var missing *Node
	args := substituteArgs(n.args, func(m *Node) Arg {
		if r, ok := t.Env[m]; ok {
			return r
		}
		if missing == nil {
			missing = m
		}
		return m
	})
	if missing != nil {
		return nil, fmt.Errorf("arg %s was dropped or not yet transformed", missing.Name)
	}
	kwargs := append([]Kwarg(nil), n.kwargs...)
	var fn TransformFunc
	switch n.Op {
	case Placeholder:
		fn = t.Placeholder
	case GetAttr:
		fn = t.GetAttr
	case CallFunction:
		fn = t.CallFunction
	case CallMethod:
		fn = t.CallMethod
	case CallModule:
		fn = t.CallModule
	case Output:
		fn = t.Output
	default:
		return nil, fmt.Errorf("invalid opcode %d", n.Op)
	}
	if fn == nil {
		return t.copyNode(n, args, kwargs)
	}
	r, err = fn(t, n, args, kwargs)
	if err == nil && r != nil && r.graph != t.New {
		return nil, fmt.Errorf("override returned node %s, which is not a node of the new graph", r.Name)
	}
	return r, err
}

// copyNode adds n to New with the given args and kwargs, keeping its name
// when free, its position and its Meta.
func (t *Transformer) copyNode(n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
	c, err := t.New.CreateNode(n.Op, n.Target, args, kwargs, n.Name, n.Types...)
	if err != nil {
		return nil, err
	}
	c.Pos = n.Pos
	for k, v := range n.Meta {
		c.Meta[k] = v
	}
	return c, nil
}

// DefaultPlaceholder copies the placeholder n into New.
func (t *Transformer) DefaultPlaceholder(n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
	return t.copyNode(n, args, kwargs)
}

// DefaultGetAttr copies the get_attr node n into New.
func (t *Transformer) DefaultGetAttr(n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
	return t.copyNode(n, args, kwargs)
}

// DefaultCallFunction adds a call_function node of n's target with args and
// kwargs to New.
func (t *Transformer) DefaultCallFunction(n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
	return t.copyNode(n, args, kwargs)
}

// DefaultCallMethod adds a call_method node of n's target with args and
// kwargs to New.
func (t *Transformer) DefaultCallMethod(n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
	return t.copyNode(n, args, kwargs)
}

// DefaultCallModule adds a call_module node of n's target with args to New.
func (t *Transformer) DefaultCallModule(n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
	return t.copyNode(n, args, kwargs)
}

// DefaultOutput adds the output node returning args[0] to New.
func (t *Transformer) DefaultOutput(n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
	return t.copyNode(n, args, kwargs)
}
