package passes

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/plan"
	"github.com/fxgen/fxgen/tensor"
)

// cellNet is an LSTM cell's gate arithmetic, an attention score's scale
// and mask, numbers on both sides, an op whose value is used outside its
// group, and a broadcast the fused kernel cannot read ([N, 1, 2, 1]
// against [N, 2, 2, 4]: two runs of broadcast dims).
type cellNet struct{ Mask, Bias *tensor.Tensor }

func (m *cellNet) Forward(g, c, col *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor, *tensor.Tensor) {
	gs := g.Chunk(4, 1)
	i, f, u, o := tensor.Sigmoid(gs[0]), tensor.Sigmoid(gs[1]), tensor.Tanh(gs[2]), tensor.Sigmoid(gs[3])
	c2 := tensor.Add(tensor.Mul(f, c), tensor.Mul(i, u)) // used by h and returned: a root
	h := tensor.Mul(o, tensor.Tanh(c2))
	s := c2.DivScalar(8).MaskedFill(m.Mask, -1e9).Add(m.Bias)
	s = tensor.Apply(ir.CallFunction, "sub", []any{1.0, s})[0]
	s = tensor.Apply(ir.CallFunction, "div", []any{2.0, tensor.Gelu(s).Relu().Neg().AddScalar(3)})[0]
	b := tensor.Add(g.Relu().Reshape(-1, 2, 2, 4), col).Neg() // col is [N, 1, 2, 1]: add and neg stay
	return h, s, b
}

func newCellNet() *cellNet {
	return &cellNet{Mask: tensor.FromBool([]bool{true, false, false, true}, 4), Bias: tensor.FromFloat32(make([]float32, 4), 1, 4)}
}

func TestFuseElementwise(t *testing.T) {
	g := trace(t, newCellNet(), "g=f32[N,16]", "c=f32[N,4]", "col=f32[N,1,2,1]")
	randomize(g, 13)
	after, p := applyAndCompare(t, g, 0, FuseElementwise)
	var fused []string
	for _, n := range after.Nodes() {
		if isCall(n, "fused_elementwise") {
			fused = append(fused, n.Name+":"+strconv.Itoa(len(p.Fused[n])))
		}
	}
	// c2 (6 ops), h (3), s (9 ops: div, masked_fill, add, sub, gelu,
	// relu, neg, add, div); b's add and neg stay, as the add reads col
	// [N, 1, 2, 1], which the fused kernel cannot broadcast.
	if got, want := strings.Join(fused, " "), "add:6 mul_2:3 div_1:9"; got != want {
		t.Errorf("fused groups (root:ops): got %q, want %q\n%s", got, want, after)
	}
	if got := targets(after); !strings.Contains(got, "reshape add neg") {
		t.Errorf("the [N, 1, 2, 1] broadcast was fused: %s", got)
	}
	for _, n := range after.Nodes() {
		if isCall(n, "fused_elementwise") {
			for _, s := range p.Fused[n] {
				if !strings.Contains(s, "fuse_elementwise_test.go:") {
					t.Errorf("step %q has no source position", s)
				}
			}
		}
	}
}

func TestFuseElementwiseDefaultPipeline(t *testing.T) {
	g := trace(t, newCellNet(), "g=f32[N,16]", "c=f32[N,4]", "col=f32[N,1,2,1]")
	randomize(g, 14)
	after, p := applyAndCompare(t, g, 0, Default...)
	if err := p.Memory.Verify(after, plan.ParamOnly(after)); err != nil {
		t.Fatal(err)
	}
	if count(after, "fused_elementwise") != 3 {
		t.Errorf("got %d fused nodes, want 3:\n%s", count(after, "fused_elementwise"), after)
	}
}

// scoresNet has attention's scale, mask and softmax; a lone masked_fill
// before a softmax; and a softmax over another dim, which stays.
type scoresNet struct{ Mask *tensor.Tensor }

func (m *scoresNet) Forward(s *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor, *tensor.Tensor) {
	a := tensor.Softmax(s.DivScalar(8).MaskedFill(m.Mask, math.Inf(-1)), -1)
	b := tensor.Softmax(tensor.Neg(s).MaskedFill(m.Mask, -1e9), 3)
	c := tensor.Softmax(s.MulScalar(2).Relu(), 1)
	return a, b, c
}

func TestFuseElementwiseSoftmax(t *testing.T) {
	mask := make([]bool, 16)
	for i := range mask {
		mask[i] = i%4 >= i/4 // the first row is fully masked: NaN
	}
	g := trace(t, &scoresNet{Mask: tensor.FromBool(mask, 4, 4)}, "s=f32[N,2,4,4]")
	after, p := applyAndCompare(t, g, 0, FuseElementwise)
	var got []string
	for _, n := range after.Nodes() {
		if isCall(n, "fused_elementwise") {
			sm, _ := n.Kwarg("softmax")
			got = append(got, n.Name+":"+strconv.Itoa(len(p.Fused[n]))+":"+strconv.FormatBool(sm == true))
		}
	}
	if want := "softmax:3:true softmax_1:3:true relu:2:false"; strings.Join(got, " ") != want {
		t.Errorf("fused (name:lines:softmax): got %q, want %q\n%s", strings.Join(got, " "), want, after)
	}
	if count(after, "softmax") != 1 {
		t.Errorf("got %d softmax nodes, want 1 (over dim 1)", count(after, "softmax"))
	}
}

// mobileNet is the activations of MobileNet-style and EfficientNet-style
// blocks: relu6, hardswish, hardsigmoid, silu, and the pointwise math
// around them.
type mobileNet struct{}

func (mobileNet) Forward(x *tensor.Tensor) *tensor.Tensor {
	a := x.Relu6().Hardswish().MulScalar(0.5)
	b := tensor.Hardsigmoid(x).Mul(tensor.Silu(x)).Add(tensor.GeluTanh(x))
	c := tensor.Exp(x.Abs().Neg()).AddScalar(1).Log().Add(x.Abs().Sqrt()).Add(x.Abs().AddScalar(1).Rsqrt())
	return a.Add(b).Add(c)
}

// TestFuseElementwiseActivations: the later activations and pointwise
// math fuse (a program holds at most 16 steps, so the chain makes two
// groups) and the result matches the graph before.
func TestFuseElementwiseActivations(t *testing.T) {
	g := trace(t, mobileNet{}, "x=f32[N,5]")
	after, p := applyAndCompare(t, g, 0, FuseElementwise)
	steps := 0
	for _, n := range after.Nodes() {
		switch {
		case isCall(n, "fused_elementwise"):
			steps += len(p.Fused[n])
		case n.Op == ir.CallFunction || n.Op == ir.CallMethod:
			if n.Target != ir.OpAbs {
				t.Errorf("%s (%s) was not fused", n.Name, n.Target)
			}
		}
	}
	if steps < 16 {
		t.Errorf("%d fused steps, want at least 16\n%s", steps, after)
	}
}

// TestBroadcastLayout checks which input shapes a fused group reads, as
// runtime.ElementwiseProgram does: one element, out's shape, or out's
// trailing dims with one run of them 1 (dims that are 1 in both anywhere).
func TestBroadcastLayout(t *testing.T) {
	n, c := ir.Sym("N"), ir.Const
	out := ir.Shape{n, c(4), c(1), c(6), c(8)}
	for _, tc := range []struct {
		in   ir.Shape
		want bool
	}{
		{ir.Shape{}, true},
		{ir.Shape{c(1), c(1)}, true},
		{out, true},
		{ir.Shape{c(8)}, true},
		{ir.Shape{n, c(1), c(1), c(1), c(8)}, true},
		{ir.Shape{c(4), c(1), c(1), c(1)}, true},
		{ir.Shape{c(1), c(1), c(4), c(1), c(6), c(8)}, true},
		{ir.Shape{n, c(1), c(1), c(6), c(1)}, false},
		{ir.Shape{c(2), c(6), c(8)}, false},
		{ir.Shape{c(4), c(3), c(6), c(8)}, false},
		{ir.Shape{c(2), n, c(4), c(1), c(6), c(8)}, false},
		{ir.Shape{n, n}, false}, // not one element
	} {
		if got := broadcastLayout(tc.in, out); got != tc.want {
			t.Errorf("%v against %v: %v, want %v", tc.in, out, got, tc.want)
		}
	}
}
