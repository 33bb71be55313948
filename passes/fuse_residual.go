// This file defines the fuse-residual pass: a linear or conv2d whose
// result is added to another value becomes one call that adds it.

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
// and nothing is copied. Likewise add(r, conv2d(x, W, B, ...)) (either
// order) becomes conv2d_residual(x, W, B, r, ..., act), and an activation
// that is the add's only user (relu, gelu, relu6, silu, or a clamp that is
// one of them, as fuse-activation takes) joins it as act: the kernel adds
// r and applies act to each chunk of the output while it is in cache, as
// in ResNet's blocks (relu(conv2(...) + identity)). A fused linear keeps
// the add's name and position, a fused convolution the convolution's
// (after its residual, wherever that is computed).
var FuseResidual = &Pass{
	Name: "fuse-residual",
	Doc: "fuse-residual fuses add(r, linear(x, W, B)) (either order), where the linear's only user is the add " +
		"and r has the sum's type, into linear_residual(x, W, B, r); and add(r, conv2d(x, W, B, ...)) likewise " +
		"into conv2d_residual(x, W, B, r, ..., act), with the activation that is the add's only user as act.",
	Requires: []*Pass{ParamOnly},
	Run:      rewrite(fuseResidual),
}

func fuseResidual(g *ir.Graph, paramOnly map[*ir.Node]bool) error {
	for _, n := range g.Nodes() {
		if n.Graph() == nil || !isCall(n, ir.OpAdd) || len(n.Args()) != 2 || len(n.Kwargs()) != 0 || paramOnly[n] {
			continue
		}
		prod, res := residualOperands(n, paramOnly)
		if prod == nil {
			continue
		}
		pa := prod.Args()
		args := []ir.Arg{pa[0], pa[1], nil, res}
		if len(pa) > 2 {
			args[2] = pa[2]
		}
		op, kwargs := ir.OpLinearResidual, []ir.Kwarg(nil)
		var act *ir.Node // the activation fused with a convolution
		if isCall(prod, ir.OpConv2d) {
			var code int
			act, code = activationUser(n)
			op = ir.OpConv2dResidual
			kwargs = append(append(kwargs, prod.Kwargs()...), ir.Kwarg{Name: "act", Value: code})
		}
		fused, err := createBefore(n, op, args, kwargs...)
		if err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		if act != nil {
			if err := absorb(act, fused); err != nil {
				return err
			}
		}
		// A linear_residual reads as the add; a conv2d_residual as the
		// convolution (layer1_0_conv2), as conv2d_act does.
		stand := n
		if op == ir.OpConv2dResidual {
			if err := absorb(n, fused); err != nil {
				return err
			}
			stand = prod
		}
		if _, err := replaceNode(stand, fused); err != nil {
			return fmt.Errorf("node %s: %v", stand.Name, err)
		}
		if stand != prod {
			if err := g.EraseNode(prod); err != nil {
				return fmt.Errorf("node %s: %v", prod.Name, err)
			}
		}
	}
	return nil
}

// residualOperands returns the linear or conv2d operand of the add n that
// can take the other operand as its residual, and that operand; nil when
// neither can. The second operand is tried first.
func residualOperands(n *ir.Node, paramOnly map[*ir.Node]bool) (lin, res *ir.Node) {
	a, aok := n.Args()[0].(*ir.Node)
	b, bok := n.Args()[1].(*ir.Node)
	if !aok || !bok || len(n.Types) != 1 {
		return nil, nil
	}
	want := n.Types[0]
	fits := func(l, r *ir.Node) bool {
		linear := isCall(l, ir.OpLinear) && len(l.Kwargs()) == 0
		if !(linear || isCall(l, ir.OpConv2d)) || paramOnly[l] || onlyUser(l) != n || l == r || len(r.Types) != 1 {
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
