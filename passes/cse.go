// This file defines the cse pass: common subexpression elimination.

package passes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fxgen/fxgen/ir"
)

// CSE merges nodes that compute the same thing into the first of them:
// get_attr nodes of one target, and calls of one op of the op table (or
// getitem) with the same inputs and attributes. Every such op is a
// function of its operands and attributes, so the merge keeps what the
// graph computes. Calls of modules and of wrapped Go functions, whose
// code fxgen cannot see, stay apart. A model that computes a value twice
// (the same closure called twice, a mask rebuilt in every layer) then
// computes it once, and a value computed from parameters only is hoisted
// into the compiled constructor once.
var CSE = &Pass{
	Name: "cse",
	Doc:  "cse merges nodes computing the same op of the same inputs and attributes (get_attr of one target, op-table calls and getitem) into the first; module calls and wrapped Go functions stay apart.",
	Run: func(c *Context) (any, error) {
		return nil, eliminateCommon(c.Graph)
	},
}

// eliminateCommon merges the common subexpressions of g, in node order, so
// that users of a merged node see the node it merged into when their own
// key is made.
func eliminateCommon(g *ir.Graph) error {
	id := map[*ir.Node]int{}
	first := map[string]*ir.Node{}
	for _, n := range g.Nodes() {
		id[n] = len(id)
		key, ok := cseKey(n, id)
		if !ok {
			continue
		}
		prev, seen := first[key]
		if !seen {
			first[key] = n
			continue
		}
		if _, err := n.ReplaceAllUsesWith(prev, nil); err != nil {
			return fmt.Errorf("merging %s into %s: %w", n.Name, prev.Name, err)
		}
		if err := g.EraseNode(n); err != nil {
			return fmt.Errorf("merging %s into %s: %w", n.Name, prev.Name, err)
		}
	}
	return nil
}

// cseKey returns what identifies the value n computes, and false for a
// node that must stay itself (placeholders, the output, module calls,
// wrapped functions).
func cseKey(n *ir.Node, id map[*ir.Node]int) (string, bool) {
	var b strings.Builder
	switch n.Op {
	case ir.GetAttr:
		return "get_attr " + n.Target, true
	case ir.CallFunction, ir.CallMethod:
		op := ir.LookupOp(n.Target)
		if op == nil || op.IsWrapped() {
			return "", false
		}
	default:
		return "", false
	}
	fmt.Fprintf(&b, "%v %s(", n.Op, n.Target)
	for _, a := range n.Args() {
		writeArgKey(&b, a, id)
		b.WriteString(", ")
	}
	kwargs := slices.Clone(n.Kwargs())
	slices.SortFunc(kwargs, func(x, y ir.Kwarg) int { return strings.Compare(x.Name, y.Name) })
	for _, kw := range kwargs {
		b.WriteString(kw.Name)
		b.WriteByte('=')
		writeArgKey(&b, kw.Value, id)
		b.WriteString(", ")
	}
	fmt.Fprintf(&b, ") %v", n.Types)
	return b.String(), true
}

// writeArgKey writes one argument of a key: a node by its place in the
// graph, a list element by element, a literal with its Go type.
func writeArgKey(b *strings.Builder, a ir.Arg, id map[*ir.Node]int) {
	switch a := a.(type) {
	case *ir.Node:
		fmt.Fprintf(b, "%%%d", id[a])
	case []ir.Arg:
		b.WriteByte('[')
		for _, e := range a {
			writeArgKey(b, e, id)
			b.WriteString(", ")
		}
		b.WriteByte(']')
	default:
		fmt.Fprintf(b, "%T(%#v)", a, a)
	}
}
