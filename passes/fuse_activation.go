// This file defines the fuse-activation pass: a linear or conv2d and the
// activation after it become one fused call.

package passes

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
)

// FuseActivation rewrites linear(x, W, B) whose only user is relu, gelu,
// relu6 or silu into linear_act(x, W, B, act), and conv2d(x, W, B, ...)
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

// epilogue returns the GEMM epilogue code of the op named target, from the
// op table (an op of fusion class ir.FuseEpilogue).
func epilogue(target string) (int, bool) {
	op := ir.LookupOp(target)
	if op == nil || op.Fusion != ir.FuseEpilogue {
		return 0, false
	}
	return op.Epilogue, true
}

func fuseActivation(g *ir.Graph, _ map[*ir.Node]bool) error {
	for _, n := range g.Nodes() {
		if n.Graph() == nil || (n.Op != ir.CallFunction && n.Op != ir.CallMethod) || fusedOps[n.Target] == "" {
			continue
		}
		u := onlyUser(n)
		if u == nil || (u.Op != ir.CallFunction && u.Op != ir.CallMethod) {
			continue
		}
		act, ok := epilogue(u.Target)
		if !ok || len(u.Args()) != 1 || u.Args()[0] != n {
			continue
		}
		kw := append(append([]ir.Kwarg{}, n.Kwargs()...), ir.Kwarg{Name: "act", Value: act})
		fused, err := createBefore(n, fusedOps[n.Target], n.Args(), kw...)
		if err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		if _, err := u.ReplaceAllUsesWith(fused, nil); err != nil {
			return fmt.Errorf("node %s: %v", u.Name, err)
		}
		if err := g.EraseNode(u); err != nil {
			return fmt.Errorf("node %s: %v", u.Name, err)
		}
		if _, err := replaceNode(n, fused); err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
	}
	return nil
}
