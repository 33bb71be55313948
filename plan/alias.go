// This file defines which planned values are views: results that share
// their source's storage instead of copying it.

package plan

import "github.com/fxgen/fxgen/ir"

// IsView reports whether the plan makes n a view of its input: the
// emitter gives it the input's backing slice with the node's shape
// (runtime.View) instead of a copy, and the plan keeps the input's
// storage until the view's last use. A nil Memory has no views.
func (m *Memory) IsView(n *ir.Node) bool { return m != nil && m.views[n] }

// canAlias reports whether n may be a view of its input: a shape-only op
// of one tensor input, computed by Forward (not by the constructor), whose
// result is not a graph output (outputs are fresh arrays).
func canAlias(n *ir.Node, paramOnly map[*ir.Node]bool, outputs map[Value]bool) bool {
	if (n.Op != ir.CallFunction && n.Op != ir.CallMethod) || !IsReshape(n.Target) || paramOnly[n] || outputs[Value{n, 0}] {
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
// through views to the value a kernel wrote.
func (m *Memory) root(in *ir.Node) Value {
	k := ResolveGetitem(in)
	for k.Result == 0 && m.IsView(k.Node) {
		src, ok := k.Node.Args()[0].(*ir.Node)
		if !ok {
			break
		}
		k = ResolveGetitem(src)
	}
	return k
}

// IsReshape reports whether the op named target only changes its
// operand's shape (ir.Op.Reshape).
func IsReshape(target string) bool {
	op := ir.LookupOp(target)
	return op != nil && op.Reshape
}
