// This file defines the fuse-attention pass: a transformer's per-head
// products and softmax become one attention node.

package passes

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/plan"
)

// FuseAttention rewrites multi-head attention as a transformer written
// with tensor ops spells it,
//
//	q4 = transpose(reshape(q, [-1, L, H, D]), 1, 2)          (k4, v4 likewise)
//	p  = fused_elementwise([matmul_transb(q4, k4), extras...], softmax)
//	out = reshape(transpose(matmul(p, v4), 1, 2), [-1, L, H·D])
//
// into out = attention(q, k, v, extras; program, heads H, head_dim D),
// where q, k and v are [N, L, C] values, or results of a split of one
// along its last dim (the heads are then read at their columns of the
// split's input: a transformer's fused q/k/v projection), and every
// intermediate value has no other user. The attention kernel computes a
// sample and head at a time, its scores in cache, and reads and writes the
// heads where they lie, so that the split's copies, the four transposes
// and the [N, H, L, S] scores in memory go away. The node takes out's
// name; dce removes the split if nothing else reads it.
var FuseAttention = &Pass{
	Name: "fuse-attention",
	Doc: "fuse-attention fuses a transformer's multi-head attention (heads split by reshape and transpose, " +
		"matmul_transb, fused_elementwise with a softmax, matmul, heads joined by transpose and reshape) into attention, " +
		"which reads q, k and v where they lie, a split of one projection included.",
	Requires: []*Pass{ParamOnly, FuseElementwise},
	Run: func(c *Context) (any, error) {
		steps, _ := c.ResultOf[FuseElementwise].(plan.FusedSteps)
		return nil, fuseAttention(c.Graph, paramOnly(c), steps)
	},
}

// fuseAttention rewrites g's attentions; steps, fuse-elementwise's
// descriptions of its nodes' ops, then describes each attention's score
// program with those of the fused_elementwise node it takes in.
func fuseAttention(g *ir.Graph, paramOnly map[*ir.Node]bool, steps plan.FusedSteps) error {
	for _, n := range g.Nodes() {
		if n.Graph() == nil || paramOnly[n] {
			continue
		}
		m, ok := matchAttention(n)
		if !ok {
			continue
		}
		args := []ir.Arg{m.q.x, m.k.x, m.v.x, m.extras}
		kwargs := []ir.Kwarg{{Name: "program", Value: m.program}, {Name: "heads", Value: m.heads}, {Name: "head_dim", Value: m.d},
			{Name: "q_col", Value: m.q.col}, {Name: "k_col", Value: m.k.col}, {Name: "v_col", Value: m.v.col}}
		fused, err := createBefore(n, ir.OpAttention, args, kwargs...)
		if err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		named, err := replaceNode(n, fused)
		if err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		if d, ok := steps[m.scores]; ok {
			steps[named] = d
			delete(steps, m.scores)
		}
		for _, dead := range m.dead {
			if len(dead.Users()) == 0 {
				if err := g.EraseNode(dead); err != nil {
					return fmt.Errorf("node %s: %v", dead.Name, err)
				}
			}
		}
	}
	return nil
}

// attentionMatch is what matchAttention finds.
type attentionMatch struct {
	q, k, v  attentionHeads
	extras   []ir.Arg
	program  []int
	scores   *ir.Node // the fused_elementwise node of the score program
	heads, d int
	dead     []*ir.Node // the nodes the fused node replaces, users first
}

// attentionHeads is an operand of attention: the value x whose columns
// from col hold the heads.
type attentionHeads struct {
	x   *ir.Node
	col int
}

// matchAttention matches the attention whose joined heads are n.
func matchAttention(n *ir.Node) (m attentionMatch, ok bool) {
	// n = reshape(t, [N, L, H·D]), t = transpose(o, 1, 2).
	t := reshapeInput(n)
	if t == nil || onlyUser(t) != n || !isHeadTranspose(t) {
		return m, false
	}
	o, _ := t.Args()[0].(*ir.Node)
	if o == nil || onlyUser(o) != t || !isCall(o, ir.OpMatmul) {
		return m, false
	}
	os := o.Type().Shape // [N, H, L, D]
	if len(os) != 4 || !os[1].IsConst() || !os[3].IsConst() {
		return m, false
	}
	m.heads, m.d = os[1].Coef, os[3].Coef
	ns := n.Type().Shape
	if len(ns) != 3 || ns[0] != os[0] || ns[1] != os[2] || ns[2] != ir.Const(m.heads*m.d) {
		return m, false
	}
	p, _ := o.Args()[0].(*ir.Node)
	v4, _ := o.Args()[1].(*ir.Node)
	if p == nil || v4 == nil || onlyUser(p) != o || !isCall(p, ir.OpFusedElementwise) || p.Args()[0] == nil {
		return m, false
	}
	if sm, _ := p.Kwarg("softmax"); sm != true {
		return m, false
	}
	list, _ := p.Args()[0].([]ir.Arg)
	if len(list) == 0 {
		return m, false
	}
	s, _ := list[0].(*ir.Node)
	if s == nil || onlyUser(s) != p || !isCall(s, ir.OpMatmulTransb) {
		return m, false
	}
	for _, a := range list[1:] {
		if a == ir.Arg(s) {
			return m, false
		}
	}
	q4, _ := s.Args()[0].(*ir.Node)
	k4, _ := s.Args()[1].(*ir.Node)
	m.dead = []*ir.Node{t, o, p, s}
	for _, h := range []struct {
		four *ir.Node
		to   *attentionHeads
	}{{q4, &m.q}, {k4, &m.k}, {v4, &m.v}} {
		x, dead, ok := splitHeads(h.four, m.heads, m.d)
		if !ok {
			return m, false
		}
		*h.to = x
		m.dead = append(m.dead, dead...)
	}
	if q4 == k4 || q4 == v4 || k4 == v4 {
		return m, false
	}
	scores := s.Type().Shape
	for _, a := range list[1:] {
		x, ok := a.(*ir.Node)
		if !ok || len(x.Types) != 1 || x.Type().DType != ir.Float32 && x.Type().DType != ir.Bool || !ir.AttentionExtraFits(x.Type().Shape, scores) {
			return m, false
		}
	}
	code, _ := p.Kwarg("program")
	m.program, _ = code.([]int)
	m.extras, m.scores = list[1:], p
	return m, true
}

// splitHeads returns where the heads of four, transpose(reshape(x, [N,
// L, H, D]), 1, 2) with no other users, lie: x, or the split x is a
// result of, at that result's columns.
func splitHeads(four *ir.Node, heads, d int) (attentionHeads, []*ir.Node, bool) {
	if four == nil || len(four.Users()) != 1 || !isHeadTranspose(four) {
		return attentionHeads{}, nil, false
	}
	r, _ := four.Args()[0].(*ir.Node)
	x := reshapeInput(r)
	if x == nil || onlyUser(r) != four || len(x.Types) != 1 || x.Type().DType != ir.Float32 {
		return attentionHeads{}, nil, false
	}
	xs, rs := x.Type().Shape, r.Type().Shape
	if len(xs) != 3 || len(rs) != 4 || rs[0] != xs[0] || rs[1] != xs[1] || rs[2] != ir.Const(heads) || rs[3] != ir.Const(d) {
		return attentionHeads{}, nil, false
	}
	dead := []*ir.Node{four, r}
	// A result of split(base, ..., dim=-1 or 2): its columns of base.
	if isCall(x, ir.OpGetitem) && onlyUser(x) == r {
		v := plan.ResolveGetitem(x)
		sp := v.Node
		if isCall(sp, ir.OpSplit) && len(sp.Types[0].Shape) == 3 {
			if dim, _ := kwarg(sp, "dim").(int); dim == 2 || dim == -1 {
				col, known := 0, true
				for _, t := range sp.Types[:v.Result] {
					col += t.Shape[2].Coef
					known = known && t.Shape[2].IsConst()
				}
				base, _ := sp.Args()[0].(*ir.Node)
				if known && base != nil && len(base.Types) == 1 {
					return attentionHeads{base, col}, append(dead, x), true
				}
			}
		}
	}
	return attentionHeads{x, 0}, dead, true
}

// reshapeInput returns x when n is reshape(x, ...) or view(x, ...) of one
// float32 result, else nil.
func reshapeInput(n *ir.Node) *ir.Node {
	if n == nil || !(isCall(n, ir.OpReshape) || isCall(n, ir.OpView)) || len(n.Types) != 1 {
		return nil
	}
	x, _ := n.Args()[0].(*ir.Node)
	return x
}

// isHeadTranspose reports whether n swaps dims 1 and 2 of a 4-dim value:
// transpose(x, 1, 2) (or 2, 1, or the same counted from the end).
func isHeadTranspose(n *ir.Node) bool {
	if !isCall(n, ir.OpTranspose) || len(n.Types) != 1 || len(n.Type().Shape) != 4 {
		return false
	}
	d0, _ := kwarg(n, "dim0").(int)
	d1, _ := kwarg(n, "dim1").(int)
	d0, d1 = (d0+4)%4, (d1+4)%4
	return min(d0, d1) == 1 && max(d0, d1) == 2
}
