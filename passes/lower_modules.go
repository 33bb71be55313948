// This file defines the lower-modules pass: leaf module calls of standard
// kinds become calls of their op.

package passes

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
)

// LowerModules rewrites each call_module node of a standard kind (Linear,
// Conv2d, BatchNorm2d, ReLU, ...: ir.ModuleKind) into a call_function of
// the kind's op whose trailing operands are get_attr nodes of the module's
// parameters and whose kwargs are the module's attributes. The new node
// keeps the old one's name, position and place, so that later passes match
// one functional form whether the model called a module or a function.
// Opaque modules (no kind) are left alone.
var LowerModules = &Pass{
	Name: "lower-modules",
	Doc: "lower-modules rewrites call_module nodes of standard kinds into call_function nodes of their op, " +
		"with get_attr nodes for the module's parameters; names and positions are kept.",
	Run: rewrite(lowerModules),
}

func lowerModules(g *ir.Graph, _ map[*ir.Node]bool) error {
	for _, n := range g.Nodes() {
		if n.Op != ir.CallModule {
			continue
		}
		m := g.Modules[n.Target]
		if m == nil || m.Kind == "" {
			continue
		}
		k := ir.LookupModuleKind(m.Kind)
		if k == nil {
			return fmt.Errorf("node %s: module %s has unknown kind %q", n.Name, n.Target, m.Kind)
		}
		args := append([]ir.Arg{}, n.Args()...)
		for _, p := range m.Params {
			if p == "" {
				args = append(args, nil)
				continue
			}
			var ga *ir.Node
			var err error
			g.InsertingAt(ir.Before(n), func() { ga, err = g.GetAttr(p) })
			if err != nil {
				return fmt.Errorf("node %s: %v", n.Name, err)
			}
			ga.Pos = n.Pos
			args = append(args, ga)
		}
		repl, err := createBefore(n, k.Op, args, m.Attrs...)
		if err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		if _, err := replaceNode(n, repl); err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
	}
	return nil
}
