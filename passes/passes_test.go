// This file tests each pass of the table on traced models: the graph
// computes the same before and after, and the rewrite has the expected
// shape.

package passes

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/plan"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

func TestLowerModules(t *testing.T) {
	g := trace(t, newConvNet(), "x=f32[N,3,8,8]")
	randomize(g, 1)
	after, _ := applyAndCompare(t, g, 1e-6, LowerModules)
	if n := len(after.FindNodes(ir.CallModule, "")); n != 0 {
		t.Errorf("got %d call_module nodes after lower-modules, want 0", n)
	}
	// Names and positions are kept.
	for _, n := range g.FindNodes(ir.CallModule, "") {
		var m *ir.Node
		for _, x := range after.Nodes() {
			if x.Name == n.Name {
				m = x
			}
		}
		if m == nil || m.Op != ir.CallFunction || m.Pos != n.Pos {
			t.Errorf("call_module %s: got %v after lowering, want a call_function of the same name and position %v", n.Name, m, n.Pos)
		}
	}
	want := "conv2d batch_norm relu conv2d batch_norm relu conv2d batch_norm add adaptive_avg_pool2d flatten linear relu"
	if got := targets(after); got != want {
		t.Errorf("got ops %q, want %q", got, want)
	}
}

func TestFoldBatchNorm(t *testing.T) {
	g := trace(t, newConvNet(), "x=f32[N,3,8,8]")
	randomize(g, 2)
	after, _ := applyAndCompare(t, g, 1e-5, LowerModules, FoldBatchNorm, DCE)
	if got := count(after, "batch_norm"); got != 1 {
		t.Errorf("got %d batch_norm nodes, want 1 (conv3's result has two users)", got)
	}
	paramOnly := plan.ParamOnly(after)
	for _, n := range after.Nodes() {
		if !isCall(n, "conv2d") {
			continue
		}
		for i, a := range n.Args()[1:] {
			if a != nil && !paramOnly[a.(*ir.Node)] {
				t.Errorf("%s: operand %d (%v) depends on an input", n.Name, i+1, a)
			}
		}
	}
	for _, name := range []string{"conv1", "conv2", "conv3"} {
		if !hasNode(after, name, "conv2d") {
			t.Errorf("no conv2d node named %s after folding", name)
		}
	}
}

func TestFoldBatchNormFunctional(t *testing.T) {
	m := newFuncNet()
	g := trace(t, m, "x=f32[N,4,5,5]")
	randomize(g, 3)
	after, _ := applyAndCompare(t, g, 1e-5, FoldBatchNorm, FuseActivation, DCE)
	if got, want := targets(after), "add sqrt div reshape mul neg mul conv2d add sqrt div reshape mul neg mul add conv2d_act sum sum add linear_act"; !strings.Contains(got, "conv2d_act") || count(after, "batch_norm") != 0 || got != want {
		t.Errorf("got ops %q, want %q", got, want)
	}
}

func TestFuseActivation(t *testing.T) {
	g := trace(t, newConvNet(), "x=f32[N,3,8,8]")
	randomize(g, 4)
	after, _ := applyAndCompare(t, g, 1e-5, LowerModules, FoldBatchNorm, FuseActivation, DCE)
	if got := count(after, "conv2d_act"); got != 2 {
		t.Errorf("got %d conv2d_act nodes, want 2", got)
	}
	if got := count(after, "linear_act"); got != 1 {
		t.Errorf("got %d linear_act nodes, want 1", got)
	}
	if got := count(after, "relu"); got != 0 {
		t.Errorf("got %d relu nodes left, want 0", got)
	}
	for _, n := range after.Nodes() {
		if n.Target == "conv2d_act" || n.Target == "linear_act" {
			if a, _ := n.Kwarg("act"); a != ir.ActReLU {
				t.Errorf("%s: act %v, want %d (relu)", n.Name, a, ir.ActReLU)
			}
		}
	}
	// Without lowering, modules are not matched: nothing changes.
	same, _ := applyAndCompare(t, g, 0, FuseActivation)
	if targets(same) != targets(g) {
		t.Errorf("fuse-activation changed a graph of call_module nodes: %q", targets(same))
	}
}

func TestFuseActivationLeavesSharedResults(t *testing.T) {
	g := trace(t, newFuncNet(), "x=f32[N,4,5,5]")
	randomize(g, 5)
	after, _ := applyAndCompare(t, g, 1e-6, FuseActivation)
	// The conv2d results feed batch_norm, not relu: only linear → gelu fuses.
	if got, want := targets(after), "conv2d batch_norm conv2d batch_norm sum relu sum add linear_act"; got != want {
		t.Errorf("got ops %q, want %q", got, want)
	}
}

func TestDCE(t *testing.T) {
	g := trace(t, newConvNet(), "x=f32[N,3,8,8]")
	var fc *ir.Node
	for _, n := range g.Nodes() {
		if n.Name == "fc" {
			fc = n
		}
	}
	// A dead node: a second relu of fc nobody uses.
	g.InsertingAt(ir.After(fc), func() {
		if _, err := g.CallFunction("relu", []ir.Arg{fc}); err != nil {
			t.Fatal(err)
		}
	})
	before := g.Len()
	after, _ := applyAndCompare(t, g, 0, DCE)
	if after.Len() != before-1 {
		t.Errorf("got %d nodes after dce, want %d", after.Len(), before-1)
	}
}

func hasNode(g *ir.Graph, name, target string) bool {
	for _, n := range g.Nodes() {
		if n.Name == name && n.Target == target {
			return true
		}
	}
	return false
}

func TestPlanMemory(t *testing.T) {
	g := trace(t, newConvNet(), "x=f32[N,3,8,8]")
	randomize(g, 6)
	after, p := applyAndCompare(t, g, 1e-5, Default...)
	if err := p.Memory.Verify(after, plan.ParamOnly(after)); err != nil {
		t.Fatal(err)
	}
	values := 0
	for _, n := range after.Nodes() {
		for _, s := range p.Memory.Slots(n) {
			if s >= 0 {
				values++
			}
		}
	}
	// conv1, conv2, conv3, bn3, add, avgpool need workspace (fc is the
	// output, flatten a view of avgpool); they chain, so two or three
	// slots suffice.
	if got := p.Memory.SlotCount(); values != 6 || got > 3 {
		t.Errorf("got %d slots for %d values, want 6 values in at most 3 slots", got, values)
	}
	for _, n := range after.Nodes() {
		if p.Memory.IsView(n) != (n.Target == "flatten") {
			t.Errorf("node %s: IsAlias %v", n.Name, p.Memory.IsView(n))
		}
	}
	// Editing the graph after planning is caught: make conv1's value live
	// until the end by adding it to the output.
	var conv1, out *ir.Node
	for _, n := range after.Nodes() {
		switch n.Name {
		case "conv1":
			conv1 = n
		case "output":
			out = n
		}
	}
	var sum *ir.Node
	after.InsertingAt(ir.Before(out), func() {
		s, err := after.CallFunction("sum", []ir.Arg{conv1})
		if err != nil {
			t.Fatal(err)
		}
		sum = s
	})
	if err := out.SetArgs([]ir.Arg{out.Args()[0], sum}); err != nil {
		t.Fatal(err)
	}
	if err := p.Memory.Verify(after, plan.ParamOnly(after)); err == nil || !strings.Contains(err.Error(), "still used") {
		t.Errorf("Memory.Verify after extending conv1's life: got %v, want an overwrite error", err)
	}
}

func TestPlanMemoryNeverAliasesInputs(t *testing.T) {
	g := trace(t, newFuncNet(), "x=f32[N,4,5,5]")
	after, p := applyAndCompare(t, g, 1e-5, Default...)
	for _, n := range after.Nodes() {
		for r, s := range p.Memory.Slots(n) {
			for _, in := range n.Inputs() {
				k := plan.ResolveGetitem(in)
				if is := p.Memory.Slots(k.Node); s >= 0 && is != nil && is[k.Result] == s {
					t.Errorf("node %s result %d shares slot %d with its input %s", n.Name, r, s, in.Name)
				}
			}
		}
	}
}

func TestWorkspaceBytes(t *testing.T) {
	g := trace(t, newConvNet(), "x=f32[N,3,8,8]")
	syms := map[string]int{"N": 2}
	// Traced: conv1, bn1, relu (4×8×8), conv2, bn2, relu_1, conv3, bn3,
	// add (4×4×4), avgpool, flatten (4) and fc (5); the last relu is the
	// output, a fresh array.
	want := 2 * 4 * (3*4*8*8 + 6*4*4*4 + 2*4 + 5)
	var unplanned *plan.Memory
	if got := unplanned.WorkspaceBytes(g, syms); got != want {
		t.Errorf("traced: got %d bytes, want %d", got, want)
	}
	res, err := Run(g, Default, Options{Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	// Planned: at most three slots, the largest value being 4×8×8 at N=2.
	if got := res.Plan().Memory.WorkspaceBytes(g, syms); got > 3*2*4*4*8*8 || got == 0 {
		t.Errorf("planned: got %d bytes, want at most %d", got, 3*2*4*4*8*8)
	}
}

// mobileBlock is a MobileNetV2-style block: a 1×1 expansion and a 3×3
// depthwise convolution each followed by ReLU6, a 1×1 projection, then a
// Linear with SiLU (as EfficientNet's heads use).
type mobileBlock struct {
	Expand, DW, Project *nn.Conv2d
	Head                *nn.Linear
}

func (m *mobileBlock) Forward(x *tensor.Tensor) *tensor.Tensor {
	y := m.Expand.Forward(x).Relu6()
	y = m.DW.Forward(y).Relu6()
	y = m.Project.Forward(y)
	return m.Head.Forward(y.Flatten(1, -1)).Silu()
}

func TestFuseActivationReLU6SiLU(t *testing.T) {
	m := &mobileBlock{
		Expand:  nn.NewConv2d(4, 24, 1),
		DW:      nn.NewConv2d(24, 24, 3, nn.Padding(1), nn.Groups(24)),
		Project: nn.NewConv2d(24, 4, 1),
		Head:    nn.NewLinear(4*6*6, 5),
	}
	g := trace(t, m, "x=f32[N,4,6,6]")
	randomize(g, 6)
	after, _ := applyAndCompare(t, g, 1e-5, LowerModules, FuseActivation)
	checkFused(t, after, "conv2d_act conv2d_act conv2d flatten linear_act", ir.ActReLU6, ir.ActReLU6, ir.ActSiLU)
}

// checkFused checks the ops of g in order and the act attributes of its
// fused nodes.
func checkFused(t *testing.T, g *ir.Graph, ops string, acts ...int) {
	t.Helper()
	if got := targets(g); got != ops {
		t.Errorf("got ops %q, want %q", got, ops)
	}
	var got []any
	for _, n := range g.Nodes() {
		if a, ok := n.Kwarg("act"); ok {
			got = append(got, a)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(acts) {
		t.Errorf("got acts %v, want %v", got, acts)
	}
}

// clampHeads is four Linears followed by clamps: two with relu6's bounds,
// one with relu's, one with neither.
type clampHeads struct{ A, B, C, D *nn.Linear }

func (m *clampHeads) Forward(x *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor, *tensor.Tensor, *tensor.Tensor) {
	return m.A.Forward(x).Clamp(0, 6), m.B.Forward(x).Hardtanh(0, 6),
		m.C.Forward(x).Clamp(0, math.Inf(1)), m.D.Forward(x).Clamp(0, 5)
}

func TestFuseActivationClampBounds(t *testing.T) {
	m := &clampHeads{nn.NewLinear(3, 4), nn.NewLinear(3, 4), nn.NewLinear(3, 4), nn.NewLinear(3, 4)}
	g := trace(t, m, "x=f32[N,3]")
	for _, p := range g.Params { // weights large enough for both bounds to bite
		for i := range p.Value.F32 {
			p.Value.F32[i] *= 8
		}
	}
	after, _ := applyAndCompare(t, g, 1e-6, LowerModules, FuseActivation)
	checkFused(t, after, "linear_act linear_act linear_act linear clamp", ir.ActReLU6, ir.ActReLU6, ir.ActReLU)
}
