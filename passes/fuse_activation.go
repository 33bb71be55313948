// This file defines the fuse-activation pass: a linear or conv2d and the
// activation after it become one fused call.

package passes

import (
	"fmt"
	"math"

	"github.com/fxgen/fxgen/ir"
)

// FuseActivation rewrites linear(x, W, B) whose only user is relu, gelu,
// relu6 or silu (or a hardtanh or clamp with the bounds of relu6 or relu)
// into linear_act(x, W, B, act), and conv2d(x, W, B, ...)
// whose only user is one of them into conv2d_act(x, W, B, ..., act). The
// fused kernels apply the activation in their epilogue or to each block
// of the result while it is in cache, so the product's result is never
// written to a second array. The fused node keeps the product's name and position.
var FuseActivation = &Pass{
	Name: "fuse-activation",
	Doc: "fuse-activation fuses a linear or conv2d whose only user is relu, gelu, relu6 or silu into linear_act or conv2d_act " +
		"(act 1 relu, 2 gelu, 3 relu6, 4 silu).",
	Run: rewrite(fuseActivation),
}

var fusedOps = map[string]string{ir.OpLinear: ir.OpLinearAct, ir.OpConv2d: ir.OpConv2dAct}

// epilogue returns the GEMM epilogue code of the activation node u: from
// the op table for an op of fusion class ir.FuseEpilogue, and for the
// clamps that are one of them by their bounds (hardtanh or clamp to
// [0, 6] is relu6, clamp to [0, ∞) is relu).
func epilogue(u *ir.Node) (int, bool) {
	op := ir.LookupOp(u.Target)
	if op == nil {
		return 0, false
	}
	if op.Fusion == ir.FuseEpilogue {
		return op.Epilogue, true
	}
	lo, hi := "min", "max"
	switch u.Target {
	case ir.OpHardtanh:
		lo, hi = "min_val", "max_val"
	case ir.OpClamp:
	default:
		return 0, false
	}
	l, _ := u.Kwarg(lo)
	h, _ := u.Kwarg(hi)
	switch {
	case l == 0.0 && h == 6.0:
		return ir.ActReLU6, true
	case l == 0.0 && h == math.Inf(1):
		return ir.ActReLU, true
	}
	return 0, false
}

// activationUser returns n's only user when it is an activation a fused
// kernel can apply (epilogue) to n alone, and the activation's code; nil
// otherwise.
func activationUser(n *ir.Node) (*ir.Node, int) {
	u := onlyUser(n)
	if u == nil || (u.Op != ir.CallFunction && u.Op != ir.CallMethod) || len(u.Args()) != 1 || u.Args()[0] != n {
		return nil, 0
	}
	act, ok := epilogue(u)
	if !ok {
		return nil, 0
	}
	return u, act
}

func fuseActivation(g *ir.Graph, _ map[*ir.Node]bool) error {
	for _, n := range g.Nodes() {
		if n.Graph() == nil || (n.Op != ir.CallFunction && n.Op != ir.CallMethod) || fusedOps[n.Target] == "" {
			continue
		}
		u, act := activationUser(n)
		if u == nil {
			continue
		}
		kw := append(append([]ir.Kwarg{}, n.Kwargs()...), ir.Kwarg{Name: "act", Value: act})
		fused, err := createBefore(n, fusedOps[n.Target], n.Args(), kw...)
		if err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		if err := absorb(u, fused); err != nil {
			return err
		}
		if _, err := replaceNode(n, fused); err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
	}
	return nil
}
