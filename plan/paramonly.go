// This file holds ParamOnly, the analysis of which nodes depend on no input.

package plan

import "github.com/fxgen/fxgen/ir"

// ParamOnly returns the nodes whose values depend on no placeholder: get_attr
// nodes, and call_function and call_method nodes of ops with a runtime
// kernel whose operands are all such nodes or literals and whose result
// shapes are constant (constructors such as zeros, arange and seeded rand
// included). getitem nodes of such nodes count too. Their values are the
// same on every call, so the emitter computes them once, in the compiled
// module's constructor. Calls of opaque modules and wrapped Go functions
// never count: they may read state.
func ParamOnly(g *ir.Graph) map[*ir.Node]bool {
	out := map[*ir.Node]bool{}
	for _, n := range g.Nodes() {
		switch n.Op {
		case ir.GetAttr:
			out[n] = true
			continue
		case ir.CallFunction, ir.CallMethod:
		default:
			continue
		}
		op := ir.LookupOp(n.Target)
		if op == nil || (op.Kernel == nil && n.Target != ir.OpGetitem) {
			continue
		}
		ok := true
		for _, in := range n.Inputs() {
			if !out[in] {
				ok = false
				break
			}
		}
		for _, t := range n.Types {
			if _, c := t.Shape.Ints(); !c {
				ok = false
			}
		}
		if ok {
			out[n] = true
		}
	}
	return out
}
