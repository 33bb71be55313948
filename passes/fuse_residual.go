// This file defines the fuse-residual pass: a linear whose result is added
// to another value becomes one call that accumulates the product into it.

package passes

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
)

// FuseResidual rewrites add(r, linear(x, W, B)) and add(linear(x, W, B), r),
// where the linear's only user is the add and r has the sum's type (no
// broadcasting), into linear_residual(x, W, B, r). With a packed weight the
// fused kernel starts from r and lets the GEMM add the product and the
// bias, so the product is never written to an array of its own and read
// again; when r has no later use, plan-memory puts the result in r's slot
// and nothing is copied. The fused node keeps the add's name and position.
var FuseResidual = &Pass{
	Name: "fuse-residual",
	Doc: "fuse-residual fuses add(r, linear(x, W, B)) (either order), where the linear's only user is the add " +
		"and r has the sum's type, into linear_residual(x, W, B, r).",
	Requires: []*Pass{ParamOnly},
	Run:      rewrite(fuseResidual),
}

func fuseResidual(g *ir.Graph, paramOnly map[*ir.Node]bool) error {
	for _, n := range g.Nodes() {
		if n.Graph() == nil || !isCall(n, ir.OpAdd) || len(n.Args()) != 2 || len(n.Kwargs()) != 0 || paramOnly[n] {
			continue
		}
		lin, res := residualOperands(n, paramOnly)
		if lin == nil {
			continue
		}
		la := lin.Args()
		args := []ir.Arg{la[0], la[1], nil, res}
		if len(la) > 2 {
			args[2] = la[2]
		}
		fused, err := createBefore(n, "linear_residual", args)
		if err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		if _, err := replaceNode(n, fused); err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		if err := g.EraseNode(lin); err != nil {
			return fmt.Errorf("node %s: %v", lin.Name, err)
		}
	}
	return nil
}

// residualOperands returns the linear operand of the add n that can take
// the other operand as its residual, and that operand; nil when neither
// can. The second operand is tried first.
func residualOperands(n *ir.Node, paramOnly map[*ir.Node]bool) (lin, res *ir.Node) {
	a, aok := n.Args()[0].(*ir.Node)
	b, bok := n.Args()[1].(*ir.Node)
	if !aok || !bok || len(n.Types) != 1 {
		return nil, nil
	}
	want := n.Types[0]
	fits := func(l, r *ir.Node) bool {
		if !isCall(l, ir.OpLinear) || paramOnly[l] || len(l.Kwargs()) != 0 || onlyUser(l) != n || l == r || len(r.Types) != 1 {
			return false
		}
		rt, lt := r.Types[0], l.Types[0]
		return rt.DType == ir.Float32 && rt.Shape.Equal(want.Shape) && lt.Shape.Equal(want.Shape)
	}
	switch {
	case fits(b, a):
		return b, a
	case fits(a, b):
		return a, b
	}
	return nil, nil
}
