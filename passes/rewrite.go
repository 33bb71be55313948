// This file holds the node-editing helpers the passes share.

package passes

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
)

// replaceNode makes every user of old use repl, erases old and gives repl
// old's name, source position and Meta, so that a rewrite reads in the
// printed graph and the generated code as the node it replaced. repl must
// come before old's first user. It returns the node that stands for old
// from then on.
func replaceNode(old, repl *ir.Node) (*ir.Node, error) {
	g := old.Graph()
	if _, err := old.ReplaceAllUsesWith(repl, nil); err != nil {
		return nil, err
	}
	name, pos, meta := old.Name, old.Pos, old.Meta
	if err := g.EraseNode(old); err != nil {
		return nil, err
	}
	// The name is free now: a copy of repl just after it takes it.
	var named *ir.Node
	var err error
	g.InsertingAt(ir.After(repl), func() {
		named, err = g.CreateNode(repl.Op, repl.Target, repl.Args(), repl.Kwargs(), name, repl.Types...)
	})
	if err != nil {
		return nil, err
	}
	if _, err := repl.ReplaceAllUsesWith(named, nil); err != nil {
		return nil, err
	}
	if err := g.EraseNode(repl); err != nil {
		return nil, err
	}
	named.Pos, named.Meta = pos, meta
	return named, nil
}

// absorb makes every user of old use repl and erases old, which repl
// now computes.
func absorb(old, repl *ir.Node) error {
	if _, err := old.ReplaceAllUsesWith(repl, nil); err != nil {
		return fmt.Errorf("node %s: %v", old.Name, err)
	}
	if err := old.Graph().EraseNode(old); err != nil {
		return fmt.Errorf("node %s: %v", old.Name, err)
	}
	return nil
}

// createBefore adds a call_function node of op before n, with n's source
// position.
func createBefore(n *ir.Node, op string, args []ir.Arg, kwargs ...ir.Kwarg) (*ir.Node, error) {
	return createNamedBefore(n, "", op, args, kwargs...)
}

// createNamedBefore is createBefore with a name ("" derives it from op).
func createNamedBefore(n *ir.Node, name, op string, args []ir.Arg, kwargs ...ir.Kwarg) (*ir.Node, error) {
	g := n.Graph()
	var m *ir.Node
	var err error
	g.InsertingAt(ir.Before(n), func() {
		m, err = g.CreateNode(ir.CallFunction, op, args, kwargs, name)
	})
	if err != nil {
		return nil, err
	}
	m.Pos = n.Pos
	return m, nil
}

// isCall reports whether n computes op as a call_function or call_method.
func isCall(n *ir.Node, op string) bool {
	return (n.Op == ir.CallFunction || n.Op == ir.CallMethod) && n.Target == op
}

// onlyUser returns n's single user, or nil when n has none or several (a
// user that takes n twice counts once).
func onlyUser(n *ir.Node) *ir.Node {
	if us := n.Users(); len(us) == 1 {
		return us[0]
	}
	return nil
}

// kwarg returns the value of attribute name of a call of op, its default
// when the call does not give it.
func kwarg(n *ir.Node, name string) any {
	op := ir.LookupOp(n.Target)
	s := &ir.Sig{Op: op, Kwargs: n.Kwargs()}
	return s.Value(name)
}

// rewrite adapts a transformation that reads the ParamOnly result (nil
// when the pass does not require it) to a Pass's Run.
func rewrite(fn func(g *ir.Graph, paramOnly map[*ir.Node]bool) error) func(*Context) (any, error) {
	return func(c *Context) (any, error) {
		return nil, fn(c.Graph, paramOnly(c))
	}
}
