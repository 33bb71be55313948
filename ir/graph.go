// This file defines Graph: the node list, node creation and insertion points.

package ir

import (
	"fmt"
	"sort"
	"strings"
)

// Graph is a typed program: a doubly linked list of nodes in execution
// order around a sentinel, plus the leaf modules and parameters its
// call_module and get_attr nodes refer to.
type Graph struct {
	// Modules maps a qualified module name to the leaf module.
	Modules map[string]*Module
	// Params maps a qualified parameter name to the parameter.
	Params map[string]*Param
	// Forward is the signature of the traced Forward, if known.
	Forward *Signature

	root   Node // sentinel: root.next is the first node
	insert *Node
	names  namespace
	len    int
}

// NewGraph returns an empty graph.
func NewGraph() *Graph {
	g := &Graph{Modules: map[string]*Module{}, Params: map[string]*Param{}}
	g.root.graph = g
	g.root.next, g.root.prev = &g.root, &g.root
	g.insert = &g.root
	return g
}

// Len returns the number of nodes.
func (g *Graph) Len() int { return g.len }

// Nodes returns the nodes in order (a snapshot: editing the graph while
// ranging over it is safe).
func (g *Graph) Nodes() []*Node {
	out := make([]*Node, 0, g.len)
	for n := g.root.next; n != &g.root; n = n.next {
		out = append(out, n)
	}
	return out
}

// First returns the first node, or nil.
func (g *Graph) First() *Node { return g.root.Next() }

// Last returns the last node, or nil.
func (g *Graph) Last() *Node { return g.root.Prev() }

// Placeholders returns the placeholder nodes in order.
func (g *Graph) Placeholders() []*Node { return g.FindNodes(Placeholder, "") }

// OutputNode returns the output node, or nil.
func (g *Graph) OutputNode() *Node {
	if out := g.FindNodes(Output, ""); len(out) > 0 {
		return out[len(out)-1]
	}
	return nil
}

// FindNodes returns the nodes with opcode op and, if target is not empty,
// that target.
func (g *Graph) FindNodes(op Opcode, target string) []*Node {
	var out []*Node
	for _, n := range g.Nodes() {
		if n.Op == op && (target == "" || n.Target == target) {
			out = append(out, n)
		}
	}
	return out
}

// InsertPoint says where new nodes go: before a node, or at the end.
type InsertPoint struct{ before *Node }

// Before returns the insertion point just before n.
func Before(n *Node) InsertPoint { return InsertPoint{n} }

// After returns the insertion point just after n.
func After(n *Node) InsertPoint { return InsertPoint{n.next} }

// SetInsertPoint makes new nodes go to p and returns the previous point.
func (g *Graph) SetInsertPoint(p InsertPoint) InsertPoint {
	old := InsertPoint{g.insert}
	if p.before == nil {
		p.before = &g.root
	}
	g.insert = p.before
	return old
}

// AtEnd is the insertion point at the end of the graph.
func (g *Graph) AtEnd() InsertPoint { return InsertPoint{&g.root} }

// InsertingAt runs fn with new nodes going to p, then restores the previous
// insertion point (like torch.fx's `with graph.inserting_before(n)`).
func (g *Graph) InsertingAt(p InsertPoint, fn func()) {
	old := g.SetInsertPoint(p)
	defer g.SetInsertPoint(old)
	fn()
}

// CreateNode adds a node at the insertion point. The name is made unique
// (a candidate of "" derives it from the target). Result types are
// inferred from the op vocabulary, the parameters and the modules; for a
// placeholder, types gives its type.
func (g *Graph) CreateNode(op Opcode, target string, args []Arg, kwargs []Kwarg, name string, types ...Type) (*Node, error) {
	args = mapArgs(args, func(m *Node) *Node { return m })
	if err := g.checkArgs(args); err != nil {
		return nil, fmt.Errorf("creating %s %s: %v", op, target, err)
	}
	kwargs, types, err := g.infer(op, target, args, kwargs, types)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = defaultName(op, target)
	}
	n := &Node{Op: op, Target: target, Types: types, args: args, kwargs: kwargs, graph: g, Meta: map[string]any{}}
	n.Name = g.names.create(name)
	for _, in := range n.Inputs() {
		in.users = append(in.users, n)
	}
	before := g.insert
	n.prev, n.next = before.prev, before
	before.prev.next = n
	before.prev = n
	g.len++
	return n, nil
}

func defaultName(op Opcode, target string) string {
	switch op {
	case Output:
		return "output"
	case GetAttr, CallModule:
		return target
	}
	return target
}

// Placeholder adds an input named name of type t.
func (g *Graph) Placeholder(name string, t Type) *Node {
	n, err := g.CreateNode(Placeholder, name, nil, nil, name, t)
	if err != nil {
		panic(err) // placeholders cannot fail to type
	}
	return n
}

// GetAttr adds a read of the parameter target.
func (g *Graph) GetAttr(target string) (*Node, error) {
	return g.CreateNode(GetAttr, target, nil, nil, "")
}

// CallFunction adds a call_function node of the op target.
func (g *Graph) CallFunction(target string, args []Arg, kwargs ...Kwarg) (*Node, error) {
	return g.CreateNode(CallFunction, target, args, kwargs, "")
}

// CallMethod adds a call_method node of the op target.
func (g *Graph) CallMethod(target string, args []Arg, kwargs ...Kwarg) (*Node, error) {
	return g.CreateNode(CallMethod, target, args, kwargs, "")
}

// CallModule adds a call of the leaf module target.
func (g *Graph) CallModule(target string, args ...Arg) (*Node, error) {
	return g.CreateNode(CallModule, target, args, nil, "")
}

// Output adds the output node returning result: a node, or a []Arg of
// nodes for several results.
func (g *Graph) Output(result Arg) (*Node, error) {
	return g.CreateNode(Output, "output", []Arg{result}, nil, "output")
}

// checkArgs verifies that every node among args belongs to g.
func (g *Graph) checkArgs(args []Arg) error {
	var err error
	forEachNode(args, func(m *Node) {
		if err == nil && m.graph != g {
			err = fmt.Errorf("arg %s belongs to another graph (or was erased)", m.Name)
		}
	})
	return err
}

// infer normalizes kwargs and returns the result types of a node.
func (g *Graph) infer(op Opcode, target string, args []Arg, kwargs []Kwarg, given []Type) ([]Kwarg, []Type, error) {
	switch op {
	case Placeholder:
		if len(given) != 1 {
			return nil, nil, fmt.Errorf("placeholder %s needs one type", target)
		}
		return nil, []Type{given[0]}, nil
	case GetAttr:
		p := g.Params[target]
		if p == nil {
			return nil, nil, fmt.Errorf("get_attr: no parameter %q (have %s)", target, keysOf(g.Params))
		}
		return nil, []Type{p.Type}, nil
	case Output:
		return kwargs, nil, nil
	case CallFunction, CallMethod:
		o := LookupOp(target)
		if o == nil {
			return nil, nil, fmt.Errorf("%s: unknown op %q", op, target)
		}
		kw, err := o.NormalizeKwargs(kwargs)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", target, err)
		}
		types, err := o.InferTypes(argTypes(args), kw)
		return kw, types, err
	case CallModule:
		m, k, o, err := g.moduleOp(target)
		if err != nil {
			return nil, nil, fmt.Errorf("call_module: %v", err)
		}
		if k == nil {
			return nil, m.Results, nil
		}
		ats := argTypes(args)
		for _, p := range m.Params {
			if p == "" {
				ats = append(ats, ArgType{Absent: true})
				continue
			}
			pp := g.Params[p]
			if pp == nil {
				return nil, nil, fmt.Errorf("call_module %s: no parameter %q", target, p)
			}
			ats = append(ats, ArgType{Type: pp.Type})
		}
		kw, err := o.NormalizeKwargs(m.Attrs)
		if err != nil {
			return nil, nil, fmt.Errorf("call_module %s (%s): %v", target, k.Name, err)
		}
		types, err := o.InferTypes(ats, kw)
		if err != nil {
			return nil, nil, fmt.Errorf("call_module %s (%s): %v", target, k.Name, err)
		}
		return kwargs, types, nil
	}
	return nil, nil, fmt.Errorf("invalid opcode %d", op)
}

// argTypes returns the static view of a node's args.
func argTypes(args []Arg) []ArgType {
	out := make([]ArgType, len(args))
	for i, a := range args {
		switch x := a.(type) {
		case *Node:
			if len(x.Types) == 1 {
				out[i].Type = x.Types[0]
			} else {
				out[i].Tuple = x.Types
			}
		case []Arg:
			out[i].List = []Type{}
			for _, e := range x {
				if m, ok := e.(*Node); ok && len(m.Types) == 1 {
					out[i].List = append(out[i].List, m.Types[0])
				} else if _, ok := e.(int); ok {
					out[i].List = append(out[i].List, NumberType(e))
				} else {
					continue
				}
				var size *Dim
				if d, ok := sizeArg(e); ok {
					size = &d
				}
				out[i].Sizes = append(out[i].Sizes, size)
			}
		case nil:
			out[i].Absent = true
		default:
			if IsNumber(a) {
				out[i].Number = true
				out[i].Type = NumberType(a)
			}
		}
	}
	return out
}

func keysOf[V any](m map[string]V) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return "none"
	}
	return strings.Join(keys, ", ")
}

// EraseNode removes n from the graph. It refuses while n has users and
// names them.
func (g *Graph) EraseNode(n *Node) error {
	if n.graph != g {
		return fmt.Errorf("erase %s: not a node of this graph", n.Name)
	}
	if len(n.users) > 0 {
		names := make([]string, len(n.users))
		for i, u := range n.users {
			names[i] = u.Name
		}
		return fmt.Errorf("erase %s: still used by %s; replace those uses first (ReplaceAllUsesWith)", n.Name, strings.Join(names, ", "))
	}
	for _, in := range n.Inputs() {
		in.removeUser(n)
	}
	if g.insert == n {
		g.insert = n.next
	}
	n.prev.next = n.next
	n.next.prev = n.prev
	n.prev, n.next, n.graph = nil, nil, nil
	g.names.release(n.Name)
	g.len--
	return nil
}

// NodeCopy adds a copy of node n (of any graph) at the insertion point,
// with each node among its args mapped through argMap. Its name is kept
// when free. Copied from another graph, a get_attr or call_module node
// brings the parameter or module it refers to (and the module's
// parameters), as torch.fx's node_copy does through the owning module;
// one of the same name that g already holds is kept when it is the same
// value and is an error otherwise.
func (g *Graph) NodeCopy(n *Node, argMap func(*Node) *Node) (*Node, error) {
	if src := n.graph; src != nil && src != g {
		if err := g.adopt(src, n); err != nil {
			return nil, fmt.Errorf("copying %s: %v", n.Name, err)
		}
	}
	args := mapArgs(n.args, argMap)
	c, err := g.CreateNode(n.Op, n.Target, args, n.kwargs, n.Name, n.Types...)
	if err != nil {
		return nil, err
	}
	c.Pos = n.Pos
	for k, v := range n.Meta {
		c.Meta[k] = v
	}
	return c, nil
}

// adopt adds to g the parameter or module (with its parameters) that node
// n of graph src refers to.
func (g *Graph) adopt(src *Graph, n *Node) error {
	param := func(name string) error {
		p := src.Params[name]
		if p == nil {
			return nil // CreateNode names the missing parameter
		}
		if have := g.Params[name]; have != nil {
			if have.Value != p.Value || !have.Type.Equal(p.Type) {
				return fmt.Errorf("parameter %q of the source graph differs from the one of the same name in this graph", name)
			}
			return nil
		}
		pc := *p
		g.Params[name] = &pc
		return nil
	}
	switch n.Op {
	case GetAttr:
		return param(n.Target)
	case CallModule:
		m := src.Modules[n.Target]
		if m == nil {
			return nil
		}
		if have := g.Modules[n.Target]; have != nil {
			if have.Kind != m.Kind || have.GoType != m.GoType || have.GoPath != m.GoPath {
				return fmt.Errorf("module %q of the source graph differs from the one of the same name in this graph", n.Target)
			}
		} else {
			mc := *m
			g.Modules[n.Target] = &mc
		}
		for _, p := range m.Params {
			if p != "" {
				if err := param(p); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Copy returns a deep copy of g's nodes sharing its modules' and
// parameters' data.
func (g *Graph) Copy() *Graph {
	c := NewGraph()
	for k, m := range g.Modules {
		mc := *m
		c.Modules[k] = &mc
	}
	for k, p := range g.Params {
		pc := *p
		c.Params[k] = &pc
	}
	if g.Forward != nil {
		f := *g.Forward
		f.Params = append([]SigParam{}, g.Forward.Params...)
		c.Forward = &f
	}
	env := map[*Node]*Node{}
	for _, n := range g.Nodes() {
		m, err := c.NodeCopy(n, func(x *Node) *Node { return env[x] })
		if err != nil {
			panic("ir: Graph.Copy: " + err.Error()) // a valid graph always copies
		}
		env[n] = m
	}
	return c
}

// DeclareForward gives a hand-built graph the Go signature emit compiles
// it with, and returns it: one *tensor.Tensor parameter per placeholder,
// named after it, in order, and one *tensor.Tensor result per value the
// output node returns. A traced graph has its signature already (with
// its concrete parameters); set g.Forward directly for other signatures.
func (g *Graph) DeclareForward() (*Signature, error) {
	out := g.OutputNode()
	if out == nil || len(out.args) != 1 {
		return nil, fmt.Errorf("ir: DeclareForward: the graph has no output node returning one value or a list")
	}
	sig := &Signature{Results: 1}
	if l, ok := out.args[0].([]Arg); ok {
		sig.Results = len(l)
	}
	for _, ph := range g.Placeholders() {
		sig.Params = append(sig.Params, SigParam{Name: ph.Name, GoType: "*tensor.Tensor", Tensor: true})
	}
	g.Forward = sig
	return sig, nil
}

// EliminateDeadCode erases nodes whose results are unused, except
// placeholders and the output, and returns how many it erased.
func (g *Graph) EliminateDeadCode() int {
	erased := 0
	for n := g.Last(); n != nil; {
		prev := n.Prev()
		if len(n.users) == 0 && n.Op != Placeholder && n.Op != Output {
			if g.EraseNode(n) == nil {
				erased++
			}
		}
		n = prev
	}
	return erased
}
