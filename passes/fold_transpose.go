// This file defines the fold-transpose pass: a matmul whose right operand
// is a transpose of the last two dims reads the untransposed array.

package passes

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
)

// FoldTranspose rewrites matmul(a, transpose(b, d0, d1)), where the
// transpose swaps b's last two dims and has no other user, into
// matmul_transb(a, b): the GEMM packs b's rows as the columns it needs, so
// the transposed copy of b is never made (attention's q·kᵀ, an
// interaction's x·xᵀ). The fused node keeps the matmul's name and
// position.
var FoldTranspose = &Pass{
	Name:     "fold-transpose",
	Doc:      "fold-transpose rewrites matmul(a, transpose(b, -2, -1)) whose transpose has no other user into matmul_transb(a, b).",
	Requires: []*Pass{ParamOnly},
	Run:      rewrite(foldTranspose),
}

func foldTranspose(g *ir.Graph, paramOnly map[*ir.Node]bool) error {
	for _, n := range g.Nodes() {
		if n.Graph() == nil || !isCall(n, ir.OpMatmul) || paramOnly[n] || len(n.Args()) != 2 {
			continue
		}
		t, ok := n.Args()[1].(*ir.Node)
		if !ok || !isCall(t, ir.OpTranspose) || onlyUser(t) != n || t == n.Args()[0] || len(t.Types) != 1 {
			continue
		}
		b, ok := t.Args()[0].(*ir.Node)
		if !ok || len(b.Types) != 1 {
			continue
		}
		r := len(b.Types[0].Shape)
		d0, ok0 := runtime.NormalizeDim(kwarg(t, "dim0").(int), r)
		d1, ok1 := runtime.NormalizeDim(kwarg(t, "dim1").(int), r)
		if !ok0 || !ok1 || r < 2 || min(d0, d1) != r-2 || max(d0, d1) != r-1 {
			continue
		}
		fused, err := createBefore(n, "matmul_transb", []ir.Arg{n.Args()[0], b})
		if err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		if _, err := replaceNode(n, fused); err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		if err := g.EraseNode(t); err != nil {
			return fmt.Errorf("node %s: %v", t.Name, err)
		}
	}
	return nil
}
