// This file defines Node, one operation of a graph, and its edges.

package ir

import (
	"fmt"
	"path/filepath"
	"strconv"
)

// Arg is one argument of a node: a *Node, a number (int or float64), a bool,
// a string, nil, or a []Arg list of those.
type Arg = any

// Pos is the source position a node came from.
type Pos struct {
	File string // base name of the file
	Line int
}

// String prints p as file.go:42, or "" when unknown.
func (p Pos) String() string {
	if p.File == "" {
		return ""
	}
	return filepath.Base(p.File) + ":" + strconv.Itoa(p.Line)
}

// Node is one operation of a Graph. Its args and kwargs are changed only
// through its methods, so that every node's users stay exact.
type Node struct {
	Op     Opcode
	Name   string
	Target string
	// Types are the result types: one for most nodes, several for a tuple
	// (topk), none for output.
	Types []Type
	Pos   Pos
	// Meta holds what passes and tools attach to the node (torch.fx's
	// node.meta); it is never nil on a node the graph created, so
	// n.Meta["key"] = v just works.
	Meta map[string]any

	args   []Arg
	kwargs []Kwarg
	users  []*Node
	graph  *Graph
	prev   *Node
	next   *Node
}

// Args returns the node's args (do not modify; use SetArgs).
func (n *Node) Args() []Arg { return n.args }

// Kwargs returns the node's keyword arguments (do not modify).
func (n *Node) Kwargs() []Kwarg { return n.kwargs }

// Kwarg returns the value of the keyword argument name, if present.
func (n *Node) Kwarg(name string) (any, bool) {
	for _, kw := range n.kwargs {
		if kw.Name == name {
			return kw.Value, true
		}
	}
	return nil, false
}

// Users returns the nodes that use n, in the order they started to.
func (n *Node) Users() []*Node { return n.users }

// Graph returns the graph n belongs to (nil once erased).
func (n *Node) Graph() *Graph { return n.graph }

// Next returns the node after n, or nil at the end.
func (n *Node) Next() *Node {
	if n.next == nil || n.next == &n.graph.root {
		return nil
	}
	return n.next
}

// Prev returns the node before n, or nil at the start.
func (n *Node) Prev() *Node {
	if n.prev == nil || n.prev == &n.graph.root {
		return nil
	}
	return n.prev
}

// Type returns the node's single result type; it panics for a node with
// zero or several results.
func (n *Node) Type() Type {
	if len(n.Types) != 1 {
		panic(fmt.Sprintf("ir: node %s has %d results", n.Name, len(n.Types)))
	}
	return n.Types[0]
}

// Inputs returns the distinct nodes among n's args, in order of first use.
func (n *Node) Inputs() []*Node {
	var out []*Node
	seen := map[*Node]bool{}
	forEachNode(n.args, func(m *Node) {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	})
	return out
}

// forEachNode calls fn for each node in args, depth first.
func forEachNode(args []Arg, fn func(*Node)) {
	for _, a := range args {
		switch x := a.(type) {
		case *Node:
			fn(x)
		case []Arg:
			forEachNode(x, fn)
		}
	}
}

// substituteArgs returns a copy of args with each node replaced by fn(node),
// which may be a node or any other arg value.
func substituteArgs(args []Arg, fn func(*Node) Arg) []Arg {
	out := make([]Arg, len(args))
	for i, a := range args {
		switch x := a.(type) {
		case *Node:
			out[i] = fn(x)
		case []Arg:
			out[i] = substituteArgs(x, fn)
		case []int:
			out[i] = append([]int{}, x...)
		default:
			out[i] = a
		}
	}
	return out
}

// mapArgs returns a copy of args with each node replaced by fn(node).
func mapArgs(args []Arg, fn func(*Node) *Node) []Arg {
	return substituteArgs(args, func(n *Node) Arg {
		if m := fn(n); m != nil {
			return m
		}
		return nil
	})
}

// MapArgs returns a copy of args with each node replaced by fn(node).
func MapArgs(args []Arg, fn func(*Node) *Node) []Arg { return mapArgs(args, fn) }

// SetArgs replaces the node's args, updating users; the result types are
// re-inferred and an error leaves the node unchanged.
func (n *Node) SetArgs(args ...Arg) error { return n.set(args, n.kwargs) }

// SetKwargs replaces the node's keyword arguments, re-inferring types.
func (n *Node) SetKwargs(kwargs ...Kwarg) error { return n.set(n.args, kwargs) }

// SetTarget changes the node's target (for instance add to mul), keeping
// its args; the result types are re-inferred.
func (n *Node) SetTarget(target string) error {
	old := n.Target
	n.Target = target
	if err := n.set(n.args, n.kwargs); err != nil {
		n.Target = old
		return err
	}
	return nil
}

func (n *Node) set(args []Arg, kwargs []Kwarg) error {
	if n.graph == nil {
		return fmt.Errorf("node %s: erased; edit only nodes of a graph", n.Name)
	}
	args = mapArgs(args, func(m *Node) *Node { return m })
	if err := n.graph.checkArgs(args); err != nil {
		return fmt.Errorf("node %s: %v", n.Name, err)
	}
	kwargs, types, err := n.graph.infer(n.Op, n.Target, args, kwargs, n.Types)
	if err != nil {
		return fmt.Errorf("node %s: %v", n.Name, err)
	}
	for _, in := range n.Inputs() {
		in.removeUser(n)
	}
	n.args, n.kwargs, n.Types = args, kwargs, types
	for _, in := range n.Inputs() {
		in.users = append(in.users, n)
	}
	return nil
}

func (n *Node) removeUser(u *Node) {
	for i, x := range n.users {
		if x == u {
			n.users = append(n.users[:i:i], n.users[i+1:]...)
			return
		}
	}
}

// ReplaceInput replaces every use of old among n's args by repl.
func (n *Node) ReplaceInput(old, repl *Node) error {
	return n.SetArgs(mapArgs(n.args, func(m *Node) *Node {
		if m == old {
			return repl
		}
		return m
	})...)
}

// ReplaceAllUsesWith makes every user of n use repl instead and returns
// those users. A user for which filter returns false is left alone (nil
// filter: all).
func (n *Node) ReplaceAllUsesWith(repl *Node, filter func(user *Node) bool) ([]*Node, error) {
	var changed []*Node
	for _, u := range append([]*Node{}, n.users...) {
		if u == repl || filter != nil && !filter(u) {
			continue
		}
		if err := u.ReplaceInput(n, repl); err != nil {
			return changed, err
		}
		changed = append(changed, u)
	}
	return changed, nil
}

// String prints the node in its one-line text form.
func (n *Node) String() string { return n.format() }
