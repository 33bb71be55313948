package passes

import (
	"math"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// attnBlock is a transformer's self-attention over x [N, L, C]: one q/k/v
// projection split three ways (fused), or three projections; a causal
// mask or none; heads of C/heads.
type attnBlock struct {
	Qkv, Q, K, V *nn.Linear
	c, l, heads  int
	fusedQKV     bool
	causal       bool
	noSoftmax    bool           // scores used as they are: nothing to fuse
	padding      *tensor.Tensor // a padding mask applied after the causal one, while tracing paddedAttnBlock
}

func newAttnBlock(c, l, heads int, fusedQKV, causal bool) *attnBlock {
	m := &attnBlock{c: c, l: l, heads: heads, fusedQKV: fusedQKV, causal: causal}
	if fusedQKV {
		m.Qkv = nn.NewLinear(c, 3*c)
	} else {
		m.Q, m.K, m.V = nn.NewLinear(c, c), nn.NewLinear(c, c), nn.NewLinear(c, c)
	}
	return m
}

func (m *attnBlock) Forward(x *tensor.Tensor) *tensor.Tensor {
	c, d := m.c, m.c/m.heads
	var q, k, v *tensor.Tensor
	if m.fusedQKV {
		qkv := m.Qkv.Forward(x).Split([]int{c}, 2)
		q, k, v = qkv[0], qkv[1], qkv[2]
	} else {
		q, k, v = m.Q.Forward(x), m.K.Forward(x), m.V.Forward(x)
	}
	heads := func(t *tensor.Tensor) *tensor.Tensor { return t.Reshape(-1, m.l, m.heads, d).Transpose(1, 2) }
	att := tensor.Matmul(heads(q), heads(k).Transpose(-2, -1)).DivScalar(math.Sqrt(float64(d)))
	if m.causal {
		i := tensor.Arange(m.l)
		att = att.MaskedFill(i.Reshape(1, m.l).Gt(i.Reshape(m.l, 1)), math.Inf(-1))
	}
	if m.padding != nil {
		att = att.MaskedFill(m.padding, math.Inf(-1))
	}
	if !m.noSoftmax {
		att = tensor.Softmax(att, -1)
	}
	return tensor.Matmul(att, heads(v)).Transpose(1, 2).Reshape(-1, m.l, c)
}

// paddedAttnBlock is attnBlock with a padding mask [N, 1, 1, L] (true
// where a key is padding) applied after its causal mask.
type paddedAttnBlock struct{ *attnBlock }

func (m paddedAttnBlock) Forward(x, mask *tensor.Tensor) *tensor.Tensor {
	m.padding = mask
	defer func() { m.padding = nil }()
	return m.attnBlock.Forward(x)
}

// TestFuseAttention checks the pass on self-attention blocks, running each
// graph before and after the default pipeline: a block with one q/k/v
// projection and a causal mask becomes one attention node reading the
// projection at columns 0, C and 2C, with the mask as its extra and no
// split, transpose or matmul left; one with three projections reads each
// at column 0; one without a softmax keeps its products.
func TestFuseAttention(t *testing.T) {
	for _, tc := range []struct {
		name   string
		block  any
		input  string
		cols   []int
		extras int
	}{
		{"fused qkv, causal", newAttnBlock(32, 6, 4, true, true), "x=f32[N,6,32]", []int{0, 32, 64}, 1},
		{"three projections", newAttnBlock(24, 5, 3, false, false), "x=f32[N,5,24]", []int{0, 0, 0}, 0},
		{"padding mask [N,1,1,L]", paddedAttnBlock{newAttnBlock(32, 6, 4, true, true)}, "x=f32[N,6,32] mask=bool[N,1,1,6]", []int{0, 32, 64}, 2},
		{"no softmax", &attnBlock{Qkv: nn.NewLinear(16, 48), c: 16, l: 4, heads: 2, fusedQKV: true, noSoftmax: true}, "x=f32[N,4,16]", nil, 0},
	} {
		g := trace(t, tc.block, strings.Fields(tc.input)...)
		randomize(g, 31)
		after, _ := applyAndCompare(t, g, 1e-4, Default...)
		left := count(after, "split") + count(after, "transpose") + count(after, "matmul") + count(after, "matmul_transb") + count(after, "fused_elementwise")
		if tc.cols == nil {
			if count(after, "attention") != 0 || count(after, "matmul") != 1 {
				t.Errorf("%s: %d attention nodes, %d matmuls; want 0 and 1:\n%s", tc.name, count(after, "attention"), count(after, "matmul"), after)
			}
			continue
		}
		if count(after, "attention") != 1 || left != 0 {
			t.Fatalf("%s: %d attention nodes, %d of its ops left; want 1 and 0:\n%s", tc.name, count(after, "attention"), left, after)
		}
		for _, n := range after.Nodes() {
			if n.Target != "attention" {
				continue
			}
			var cols []int
			for _, a := range []string{"q_col", "k_col", "v_col"} {
				v, _ := n.Kwarg(a)
				cols = append(cols, v.(int))
			}
			if cols[0] != tc.cols[0] || cols[1] != tc.cols[1] || cols[2] != tc.cols[2] {
				t.Errorf("%s: columns %v, want %v", tc.name, cols, tc.cols)
			}
			if extras, _ := n.Args()[3].([]ir.Arg); len(extras) != tc.extras {
				t.Errorf("%s: extras %v, want %d", tc.name, extras, tc.extras)
			}
		}
	}
}
