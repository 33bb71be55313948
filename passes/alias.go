// This file defines which planned values are views: results that share
// their source's storage instead of copying it.

package passes

import "github.com/fxgen/fxgen/ir"

// AliasMeta is the Meta key under which plan-memory marks a node whose
// result is a view of its input: the emitter gives it the input's backing
// slice with the node's shape (runtime.View) instead of a copy, and the
// plan keeps the input's storage until the view's last use.
const AliasMeta = "plan-memory.alias"

// viewOps are the ops whose result holds the input's elements in the same
// order: on a dense row-major array they only change the shape.
var viewOps = map[string]bool{"reshape": true, "view": true, "flatten": true, "unsqueeze": true}

// IsAlias reports whether plan-memory made n a view of its input.
func IsAlias(n *ir.Node) bool {
	a, _ := n.Meta[AliasMeta].(bool)
	return a
}

// canAlias reports whether n may be a view of its input: a shape-only op
// of one tensor input, computed by Forward (not by the constructor), whose
// result is not a graph output (outputs are fresh arrays).
func canAlias(n *ir.Node, paramOnly map[*ir.Node]bool, outputs map[valueKey]bool) bool {
	if (n.Op != ir.CallFunction && n.Op != ir.CallMethod) || !viewOps[n.Target] || paramOnly[n] || outputs[valueKey{n, 0}] {
		return false
	}
	args := n.Args()
	if len(args) != 1 || len(n.Types) != 1 {
		return false
	}
	src, ok := args[0].(*ir.Node)
	return ok && len(src.Types) == 1 && src.Types[0].DType == n.Types[0].DType
}

// root returns the value whose storage in holds: through getitem and
// through views (IsAlias) to the value a kernel wrote.
func root(in *ir.Node) valueKey {
	k := resolveGetitem(in)
	for k.i == 0 && IsAlias(k.n) {
		src, ok := k.n.Args()[0].(*ir.Node)
		if !ok {
			break
		}
		k = resolveGetitem(src)
	}
	return k
}
