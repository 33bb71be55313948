// This file registers attention, the multi-head attention the
// fuse-attention pass makes of a transformer's per-head products and
// softmax.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() {
	RegisterOp(&Op{
		Name:      "attention",
		PerSample: true,
		Doc: "attention(q, k, v, extras, program, heads, q_col, k_col, v_col) is multi-head attention over q [N,L,Cq], " +
			"k [N,S,Ck] and v [N,S,Cv], whose head h is D = out's last dim / heads columns from q_col + h·D (k_col, v_col): " +
			"for each sample and head, softmax over the last dim of program(q_h·k_hᵀ, extras...) times v_h, into columns " +
			"h·D of the result [N,L,heads·D] (runtime.Attention; program as fused_elementwise's, the scores its first " +
			"input, each extra broadcasting to [N,heads,L,S]; made by the fuse-attention pass).",
		Operands: []Operand{{"q", TensorOperand}, {"k", TensorOperand}, {"v", TensorOperand}, {"extras", ListOperand}},
		Attrs: []Attr{{Name: "program", Kind: IntsAttr}, {Name: "heads", Kind: IntAttr}, {Name: "head_dim", Kind: IntAttr},
			{Name: "q_col", Kind: IntAttr, Default: 0}, {Name: "k_col", Kind: IntAttr, Default: 0}, {Name: "v_col", Kind: IntAttr, Default: 0}},
		Infer:  inferAttention,
		Kernel: runtime.AttentionCode,
		Program: &Program{Kernel: runtime.Attention, Inputs: func(args []Arg) int {
			extras, _ := args[3].([]Arg)
			return 1 + len(extras) // the scores, then the extras
		}},
	})
}

// inferAttention infers attention's result [N, L, heads·head_dim].
func inferAttention(s *Sig) ([]Type, error) {
	q, k, v := s.Args[0].Type, s.Args[1].Type, s.Args[2].Type
	if err := wantFloat(q, k, v); err != nil {
		return nil, err
	}
	if len(q.Shape) != 3 || len(k.Shape) != 3 || len(v.Shape) != 3 {
		return nil, fmt.Errorf("q %v, k %v, v %v: want [N,L,Cq], [N,S,Ck], [N,S,Cv]", q.Shape, k.Shape, v.Shape)
	}
	if q.Shape[0] != k.Shape[0] || q.Shape[0] != v.Shape[0] || k.Shape[1] != v.Shape[1] {
		return nil, fmt.Errorf("q %v, k %v, v %v: want [N,L,Cq], [N,S,Ck], [N,S,Cv]", q.Shape, k.Shape, v.Shape)
	}
	heads, d := s.Int("heads"), s.Int("head_dim")
	if heads < 1 || d < 1 {
		return nil, fmt.Errorf("%d heads of %d, want at least one of at least one", heads, d)
	}
	for _, c := range []struct {
		what string
		t    Type
		col  int
	}{{"q", q, s.Int("q_col")}, {"k", k, s.Int("k_col")}, {"v", v, s.Int("v_col")}} {
		w := c.t.Shape[2]
		if c.col < 0 || !w.IsConst() || c.col+heads*d > w.Coef {
			return nil, fmt.Errorf("%s %v: want the %d heads of %d at column %d in it", c.what, c.t.Shape, heads, d, c.col)
		}
	}
	extras := s.Args[3].List
	if _, err := runtime.DecodeElementwiseProgram(1+len(extras), s.Ints("program")); err != nil {
		return nil, err
	}
	scores := Shape{q.Shape[0], Const(heads), q.Shape[1], k.Shape[1]}
	for i, t := range extras {
		if t.DType != Float32 && t.DType != Bool {
			return nil, fmt.Errorf("extra %d is %v, want f32 (or a bool mask)", i, t)
		}
		if !AttentionExtraFits(t.Shape, scores) {
			return nil, fmt.Errorf("extra %d %v does not broadcast to the scores %v: want one element or [N|1, heads|1, L|1, S]", i, t.Shape, scores)
		}
	}
	return []Type{{DType: Float32, Shape: Shape{q.Shape[0], q.Shape[1], Const(heads * d)}}}, nil
}

// AttentionExtraFits reports whether an extra input of shape extra
// broadcasts to the attention scores [N, H, L, S] the way
// runtime.Attention reads it (runtime.AttentionExtraFits: one element, or
// [N|1, H|1, L|1, S] leading 1s aside), a symbolic dim never taken for 1.
func AttentionExtraFits(extra, scores Shape) bool {
	d := SymbolicInts(extra, scores)
	return runtime.AttentionExtraFits(d[0], d[1])
}
