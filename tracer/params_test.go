// This file tests that a model's parameters are graph values however the
// model reaches them, and that reading one while tracing is an error.

package tracer_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// lineIn returns the line of file (in this directory) holding marker.
func lineIn(t *testing.T, file, marker string) int {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, marker) && !strings.Contains(l, "lineIn") {
			return i + 1
		}
	}
	t.Fatalf("marker %q not found in %s", marker, file)
	return 0
}

// wantTraceErrorAt checks that err is a TraceError at file:line of this
// directory whose message holds each of the words.
func wantTraceErrorAt(t *testing.T, err error, file string, line int, words ...string) {
	t.Helper()
	var te *tracer.TraceError
	if !errors.As(err, &te) {
		t.Fatalf("got error %v, want a TraceError", err)
	}
	if filepath.Base(te.File) != file || te.Line != line {
		t.Errorf("error at %s:%d, want %s:%d: %v", filepath.Base(te.File), te.Line, file, line, err)
	}
	for _, w := range words {
		if !strings.Contains(te.Msg, w) {
			t.Errorf("error %q does not say %q", te.Msg, w)
		}
	}
}

// newState returns a state dict for m with every tensor filled from seed.
func newState(m any, seed uint64) map[string]*tensor.Tensor {
	sd := map[string]*tensor.Tensor{}
	for name, p := range nn.StateDict(m) {
		if p.DType() == runtime.Float32 {
			sd[name] = testutil.RandFloat32(seed, p.Shape()...)
			seed++
		} else {
			sd[name] = p
		}
	}
	return sd
}

type itemScale struct {
	FC    *nn.Linear
	Scale *tensor.Tensor // a 0-d learned scale
}

func (m *itemScale) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.FC.Forward(x).MulScalar(m.Scale.Item()) // item-read
}

type float32sGain struct{ Gain *tensor.Tensor }

func (m *float32sGain) Forward(x *tensor.Tensor) *tensor.Tensor {
	if m.Gain.Float32s()[0] > 0 { // float32s-read
		return x.Relu()
	}
	return x
}

// TestParamReadIsTraceError: reading a parameter's value in Forward would
// bake today's value into the graph; it fails at the model's line.
func TestParamReadIsTraceError(t *testing.T) {
	m := &itemScale{FC: nn.NewLinear(4, 3), Scale: tensor.FromFloat32([]float32{1})}
	_, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
	wantTraceErrorAt(t, err, "params_test.go", lineIn(t, "params_test.go", "// item-read"), "Item()", "scale", "Remedies", "-concrete")

	g := &float32sGain{Gain: tensor.FromFloat32([]float32{1, 2, 3}, 3)}
	_, err = tracer.Trace(g, tracer.MustParseInputs("x=f32[N,3]"))
	wantTraceErrorAt(t, err, "params_test.go", lineIn(t, "params_test.go", "// float32s-read"), "Float32s()", "gain")

	// Eagerly, and after the failed traces, the reads work.
	x := testutil.RandFloat32(1, 2, 4)
	if m.Forward(x).Symbolic() != nil || m.Scale.Item() != 1 {
		t.Error("the model does not run eagerly after the trace")
	}
}

type sigmoidGain struct {
	FC   *nn.Linear
	Gain *tensor.Tensor
}

func (m *sigmoidGain) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.FC.Forward(x).Mul(m.Gain.Sigmoid())
}

// TestParamOnlyWorkIsGraph: work on parameters alone becomes get_attr and
// op nodes, not a constant, so the graph follows weights loaded after the
// trace.
func TestParamOnlyWorkIsGraph(t *testing.T) {
	m := &sigmoidGain{FC: nn.NewLinear(4, 3), Gain: tensor.FromFloat32([]float32{0, 0, 0}, 3)}
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	gain := g.FindNodes(ir.GetAttr, "gain")
	sig := g.FindNodes(ir.CallMethod, "sigmoid")
	if len(gain) != 1 || len(sig) != 1 || sig[0].Inputs()[0] != gain[0] {
		t.Errorf("want get_attr gain feeding a sigmoid node, got\n%v", g.Tabular())
	}
	for name := range g.Params {
		if strings.HasPrefix(name, "_tensor_constant") {
			t.Errorf("parameter work baked in as constant %s:\n%v", name, g.Tabular())
		}
	}
	if err := nn.LoadStateDict(m, newState(m, 10)); err != nil {
		t.Fatal(err)
	}
	x := testutil.RandFloat32(2, 5, 4)
	if err := testutil.Close(runGraph(t, g, x)[0], m.Forward(x), 1e-6); err != nil {
		t.Errorf("graph after loading new weights: %v", err)
	}
}

type methodValue struct {
	FC1 *nn.Linear
	Out func(*tensor.Tensor) *tensor.Tensor // holds a Linear's Forward
}

func (m *methodValue) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.Out(m.FC1.Forward(x).Relu())
}

// TestMethodValueModule: a Linear reached only through a method value
// stored in a field is a module of the graph, named after the field, with
// its parameters as graph parameters rather than constants.
func TestMethodValueModule(t *testing.T) {
	fc2 := nn.NewLinear(3, 2)
	m := &methodValue{FC1: nn.NewLinear(4, 3), Out: fc2.Forward}
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.FindNodes(ir.CallModule, "out")) != 1 || g.Params["out.weight"] == nil || g.Params["out.bias"] == nil {
		t.Fatalf("want call_module out with out.weight and out.bias, got\n%v", g.Tabular())
	}
	if p, want := g.Params["out.weight"].GoPath, "Out.(receiver *github.com/fxgen/fxgen/tensor/nn.Linear).Weight"; p != want {
		t.Errorf("out.weight has Go path %q, want %q", p, want)
	}
	for name := range g.Params {
		if strings.HasPrefix(name, "_tensor_constant") {
			t.Errorf("method value's Linear baked in as constant %s:\n%v", name, g.Tabular())
		}
	}
	// New weights for fc2, written in place, reach the graph.
	w := fc2.Weight.Float32s()
	for i := range w {
		w[i] = float32(i%5) - 2
	}
	fc2.Weight.MarkChanged()
	x := testutil.RandFloat32(3, 5, 4)
	if err := testutil.Close(runGraph(t, g, x)[0], m.Forward(x), 1e-6); err != nil {
		t.Errorf("graph after changing fc2: %v", err)
	}
	// Traced through (not a leaf), its parameters are get_attr nodes.
	g, err = tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"), tracer.IsLeaf(func(string, string, bool) bool { return false }))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.FindNodes(ir.GetAttr, "out.weight")) != 1 {
		t.Errorf("traced through: want get_attr out.weight, got\n%v", g.Tabular())
	}
}

type mapHeads struct {
	Heads map[string]*nn.Linear
	Gains map[int]*tensor.Tensor
}

func (m *mapHeads) Forward(x *tensor.Tensor) *tensor.Tensor {
	y := m.Heads["b"].Forward(x).Mul(m.Gains[2].Sigmoid())
	return y.Add(m.Heads["a"].Forward(x).Mul(m.Gains[10]))
}

// TestMapsOfModules: modules and tensors in maps are named by key, in
// sorted order, and are graph values.
func TestMapsOfModules(t *testing.T) {
	m := &mapHeads{
		Heads: map[string]*nn.Linear{"b": nn.NewLinear(4, 3), "a": nn.NewLinear(4, 3)},
		Gains: map[int]*tensor.Tensor{10: testutil.RandFloat32(4, 3), 2: testutil.RandFloat32(5, 3)},
	}
	var names []string
	for _, p := range nn.NamedParameters(m) {
		names = append(names, p.Name)
	}
	if got, want := strings.Join(names, " "), "heads.a.weight heads.a.bias heads.b.weight heads.b.bias gains.2 gains.10"; got != want {
		t.Errorf("names %s, want %s", got, want)
	}
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.FindNodes(ir.CallModule, "heads.a")) != 1 || len(g.FindNodes(ir.GetAttr, "gains.2")) != 1 || len(g.FindNodes(ir.GetAttr, "gains.10")) != 1 {
		t.Errorf("want call_module heads.a and get_attr gains.2, gains.10, got\n%v", g.Tabular())
	}
	if p := g.Params["gains.10"]; p == nil || p.GoPath != "Gains[10]" {
		t.Errorf("gains.10: %+v, want Go path Gains[10]", p)
	}
	if p := g.Params["heads.a.weight"]; p == nil || p.GoPath != `Heads["a"].Weight` {
		t.Errorf("heads.a.weight: %+v, want Go path Heads[\"a\"].Weight", p)
	}
	if err := nn.LoadStateDict(m, newState(m, 20)); err != nil {
		t.Fatal(err)
	}
	x := testutil.RandFloat32(6, 5, 4)
	if err := testutil.Close(runGraph(t, g, x)[0], m.Forward(x), 1e-6); err != nil {
		t.Errorf("graph after loading new weights: %v", err)
	}
}

type sliceHeads struct {
	Heads []*nn.Linear
	Gains []*tensor.Tensor
}

func newSliceHeads() *sliceHeads {
	return &sliceHeads{
		Heads: []*nn.Linear{nn.NewLinear(4, 3), nn.NewLinear(4, 3)},
		Gains: []*tensor.Tensor{testutil.RandFloat32(4, 3), testutil.RandFloat32(5, 3)},
	}
}

func (m *sliceHeads) Forward(x *tensor.Tensor) *tensor.Tensor {
	y := m.Heads[1].Forward(x).Mul(m.Gains[0].Sigmoid())
	return y.Add(m.Heads[0].Forward(x).Mul(m.Gains[1]))
}

// TestSlicesOfParams: modules and tensors in slices are named by index
// and are graph values; work on a parameter alone is a node, not a
// constant.
func TestSlicesOfParams(t *testing.T) {
	m := newSliceHeads()
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.FindNodes(ir.CallModule, "heads.0")) != 1 || len(g.FindNodes(ir.CallModule, "heads.1")) != 1 || len(g.FindNodes(ir.GetAttr, "gains.1")) != 1 {
		t.Errorf("want call_module heads.0, heads.1 and get_attr gains.1, got\n%v", g.Tabular())
	}
	gain, sig := g.FindNodes(ir.GetAttr, "gains.0"), g.FindNodes(ir.CallMethod, "sigmoid")
	if len(gain) != 1 || len(sig) != 1 || sig[0].Inputs()[0] != gain[0] {
		t.Errorf("want get_attr gains.0 feeding a sigmoid node, got\n%v", g.Tabular())
	}
	if p := g.Params["gains.0"]; p == nil || p.GoPath != "Gains[0]" {
		t.Errorf("gains.0: %+v, want Go path Gains[0]", p)
	}
	if p := g.Params["heads.1.weight"]; p == nil || p.GoPath != "Heads[1].Weight" {
		t.Errorf("heads.1.weight: %+v, want Go path Heads[1].Weight", p)
	}
	for name := range g.Params {
		if strings.HasPrefix(name, "_tensor_constant") {
			t.Errorf("parameter in a slice baked in as constant %s:\n%v", name, g.Tabular())
		}
	}
	if err := nn.LoadStateDict(m, newState(m, 30)); err != nil {
		t.Fatal(err)
	}
	x := testutil.RandFloat32(6, 5, 4)
	if err := testutil.Close(runGraph(t, g, x)[0], m.Forward(x), 1e-6); err != nil {
		t.Errorf("graph after loading new weights: %v", err)
	}
}

type closureOverModule struct {
	Act func(*tensor.Tensor) *tensor.Tensor
}

func (m *closureOverModule) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.Act(x)
}

// TestClosureOverModuleIsCaptured: a module captured by a closure has no
// name Go code can spell, yet its parameters are graph values: get_attr
// nodes named captured0.weight and captured0.bias whose Go paths send the
// compiled model to tracer.Captured, which finds the same tensors by
// tracing again. The graph follows weights loaded after the trace, and
// reading one of them while tracing is a TraceError.
func TestClosureOverModuleIsCaptured(t *testing.T) {
	fc := nn.NewLinear(4, 3)
	m := &closureOverModule{Act: func(x *tensor.Tensor) *tensor.Tensor {
		return fc.Forward(x).Relu()
	}}
	inputs := tracer.MustParseInputs("x=f32[N,4]")
	g, err := tracer.Trace(m, inputs)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"captured0.weight": ir.CapturedGoPath(0), "captured0.bias": ir.CapturedGoPath(1)} {
		if p := g.Params[name]; p == nil || p.GoPath != want {
			t.Errorf("%s: %+v, want Go path %s in\n%v", name, p, want, g.Tabular())
		}
	}
	if g.Forward.Captured != 2 {
		t.Errorf("Forward.Captured = %d, want 2", g.Forward.Captured)
	}
	found := tracer.Captured(m, "NewM", []string{"x=f32[N,4]"}, 2)
	if len(found) != 2 || found[0] != fc.Weight || found[1] != fc.Bias {
		t.Errorf("Captured = %v, want fc.Weight, fc.Bias", found)
	}
	copy(fc.Weight.Float32s(), testutil.RandFloat32(7, 3, 4).Float32s())
	copy(fc.Bias.Float32s(), testutil.RandFloat32(8, 3).Float32s())
	x := testutil.RandFloat32(9, 5, 4)
	if err := testutil.Close(runGraph(t, g, x)[0], m.Forward(x), 1e-6); err != nil {
		t.Errorf("graph after loading new weights: %v", err)
	}
	wantPanic(t, func() { tracer.Captured(m, "NewM", []string{"x=f32[N,4]"}, 3) }, "NewM", "found 2", "expects 3", "go generate")

	// Work on the captured parameters alone is recorded too, not run
	// eagerly into a constant; reading their values is an error.
	gain := tensor.FromFloat32([]float32{0.5, 1, 2}, 3)
	m = &closureOverModule{Act: func(x *tensor.Tensor) *tensor.Tensor {
		return fc.Forward(x).Mul(gain.Sigmoid())
	}}
	if g, err = tracer.Trace(m, inputs); err != nil {
		t.Fatal(err)
	}
	gain.Float32s()[1] = -3
	if err := testutil.Close(runGraph(t, g, x)[0], m.Forward(x), 1e-6); err != nil {
		t.Errorf("graph after changing a captured tensor: %v\n%v", err, g.Tabular())
	}
	read := &closureOverModule{Act: func(x *tensor.Tensor) *tensor.Tensor {
		return fc.Forward(x).MulScalar(float64(gain.Float32s()[0])) // captured-read
	}}
	_, err = tracer.Trace(read, inputs)
	wantTraceErrorAt(t, err, "params_test.go", lineIn(t, "params_test.go", "// captured-read"), "closure", "today's value")

	// A module made inside Forward, and tensors made there from Go values,
	// are constants, as in torch.fx.
	made := &closureOverModule{Act: func(x *tensor.Tensor) *tensor.Tensor {
		return nn.NewLinear(4, 3).Forward(x).Add(tensor.FromFloat32([]float32{1, 2, 3}, 3))
	}}
	if g, err = tracer.Trace(made, inputs); err != nil {
		t.Errorf("module made inside Forward: %v", err)
	} else if g.Forward.Captured != 0 {
		t.Errorf("module made inside Forward: %d captured tensors, want none", g.Forward.Captured)
	}
}

// wantPanic checks that f panics with a message holding words.
func wantPanic(t *testing.T, f func(), words ...string) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		msg := fmt.Sprint(r)
		if r == nil {
			t.Errorf("no panic, want one saying %q", words)
		}
		for _, w := range words {
			if !strings.Contains(msg, w) {
				t.Errorf("panic %q does not say %q", msg, w)
			}
		}
	}()
	f()
}

type hiddenGain struct {
	FC   *nn.Linear
	gain *tensor.Tensor
}

func (m *hiddenGain) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.FC.Forward(x).Mul(m.gain.Sigmoid()) // hidden-use
}

type thresholdLeaf struct{ Threshold *tensor.Tensor }

func (m *thresholdLeaf) Forward(x *tensor.Tensor) *tensor.Tensor {
	if m.Threshold.Item() > 0 {
		return x.Relu()
	}
	return x
}

type withLeaf struct{ Gate *thresholdLeaf }

func (m *withLeaf) Forward(x *tensor.Tensor) *tensor.Tensor { return nn.Call(m.Gate, x).AddScalar(1) }

// TestUnexportedTensorIsTraceError: a tensor in an unexported field is no
// parameter the state dict or the compiled model sees; using it fails the
// trace at the model's line instead of baking it in. An opaque leaf module
// still reads its own parameters freely: it runs as Go code.
func TestUnexportedTensorIsTraceError(t *testing.T) {
	m := &hiddenGain{FC: nn.NewLinear(4, 3), gain: testutil.RandFloat32(1, 3)}
	_, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
	wantTraceErrorAt(t, err, "params_test.go", lineIn(t, "params_test.go", "// hidden-use"), "gain", "unexported field", "export")

	leaf := &withLeaf{Gate: &thresholdLeaf{Threshold: tensor.FromFloat32([]float32{1})}}
	if _, err := tracer.Trace(leaf, tracer.MustParseInputs("x=f32[N,4]")); err == nil {
		t.Error("a parameter read in a traced-through module: want a TraceError")
	}
	g, err := tracer.Trace(leaf, tracer.MustParseInputs("x=f32[N,4]"), tracer.Leaf("gate"))
	if err != nil {
		t.Fatalf("opaque leaf reading its parameter: %v", err)
	}
	x := testutil.RandFloat32(2, 5, 4)
	leaf.Gate.Threshold.Float32s()[0] = -1
	if err := testutil.Close(runGraph(t, g, x)[0], leaf.Forward(x), 1e-6); err != nil {
		t.Errorf("opaque leaf after a change of its parameter: %v", err)
	}
}

type gainBlock struct{ W *tensor.Tensor }

type hiddenSlice struct {
	blocks []*gainBlock
	table  map[string]int
}

func (m *hiddenSlice) Forward(x *tensor.Tensor) *tensor.Tensor {
	return x.Mul(m.blocks[1].W) // hidden-slice-use
}

// TestUnexportedSliceIsTraceError: the walk for unexported tensors goes
// through unexported slices and the modules in them.
func TestUnexportedSliceIsTraceError(t *testing.T) {
	m := &hiddenSlice{blocks: []*gainBlock{{W: testutil.RandFloat32(1, 3)}, {W: testutil.RandFloat32(2, 3)}}, table: map[string]int{"a": 1}}
	_, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,3]"))
	wantTraceErrorAt(t, err, "params_test.go", lineIn(t, "params_test.go", "// hidden-slice-use"), "blocks[1].W", "unexported field")
}

// table is a package-level tensor, made before any model.
var table = tensor.FromFloat32([]float32{1, 2, 3}, 3)

type userBlock struct{ W *tensor.Tensor }

func (b *userBlock) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Mul(b.W) } // user-block-use

type funcHolder struct {
	FC  *nn.Linear
	Out func(*tensor.Tensor) *tensor.Tensor
}

func (m *funcHolder) Forward(x *tensor.Tensor) *tensor.Tensor { return m.Out(m.FC.Forward(x)) }

// TestCapturedTensor: a tensor made before the trace that the model
// reaches through a closure, through a user module held only as a method
// value or as a package-level variable is a captured graph value that
// follows changes, not a constant.
func TestCapturedTensor(t *testing.T) {
	fc := nn.NewLinear(4, 3)
	w := testutil.RandFloat32(1, 3)
	blk := &userBlock{W: testutil.RandFloat32(2, 3)}
	x := testutil.RandFloat32(3, 5, 4)
	for _, m := range []*funcHolder{
		{FC: fc, Out: func(x *tensor.Tensor) *tensor.Tensor { return x.Mul(w) }},
		{FC: fc, Out: blk.Forward},
		{FC: fc, Out: func(x *tensor.Tensor) *tensor.Tensor { return x.Mul(table) }},
	} {
		g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
		if err != nil {
			t.Fatal(err)
		}
		if p := g.Params["captured0"]; p == nil || p.GoPath != ir.CapturedGoPath(0) || g.Forward.Captured != 1 {
			t.Errorf("want one captured tensor captured0, got %d in\n%v", g.Forward.Captured, g.Tabular())
		}
		w.Float32s()[0]++
		blk.W.Float32s()[2]--
		table.Float32s()[1] *= 2
		if err := testutil.Close(runGraph(t, g, x)[0], m.Forward(x), 1e-6); err != nil {
			t.Errorf("graph after changing the captured tensor: %v", err)
		}
	}

}
