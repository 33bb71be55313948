// This file tests what the emitter does with an optimized graph: hoisting
// parameter-only work into the constructor, preparing operands once, and
// binding planned values into the workspace.

package emit_test

import (
	"strings"
	"testing"

	"github.com/fxgen/fxgen/emit"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/passes"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// twice applies one linear layer twice and returns a constant too.
type twice struct{ Fc *nn.Linear }

func (m *twice) Forward(x *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor) {
	y := m.Fc.Forward(m.Fc.Forward(x).Relu())
	return y, tensor.Ones(2, 3)
}

func generate(t *testing.T, model any, pipeline []*passes.Pass, spec string) (string, *ir.Graph) {
	t.Helper()
	g, err := tracer.Trace(model, tracer.MustParseInputs(spec))
	if err != nil {
		t.Fatal(err)
	}
	res, err := passes.Run(g, pipeline, passes.Options{Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	src, err := emit.Generate(g, emit.Config{Package: "p", Type: "Model", Plan: res.Plan()})
	if err != nil {
		t.Fatal(err)
	}
	return string(src), g
}

// section returns the text of the function whose declaration starts with
// decl.
func section(src, decl string) string {
	i := strings.Index(src, decl)
	if i < 0 {
		return ""
	}
	j := strings.Index(src[i:], "\n}\n")
	return src[i : i+j]
}

func TestHoistAndPrepare(t *testing.T) {
	src, _ := generate(t, &twice{Fc: nn.NewLinear(4, 4)}, passes.Default, "x=f32[N,4]")
	ctor := section(src, "func NewModelCompiled")
	fwd := section(src, "func (c *ModelCompiled) Forward")
	// The weight is packed once for both calls.
	if got := strings.Count(ctor, "runtime.PackLinear("); got != 1 {
		t.Errorf("constructor packs the weight %d times, want once:\n%s", got, ctor)
	}
	if !strings.Contains(fwd, "runtime.LinearActPacked(") || !strings.Contains(fwd, "runtime.LinearPacked(") {
		t.Errorf("Forward does not call the packed kernels:\n%s", fwd)
	}
	// ones is computed by the constructor and copied into a fresh output.
	if !strings.Contains(ctor, "runtime.Ones(") || strings.Contains(fwd, "runtime.Ones(") || !strings.Contains(fwd, "runtime.Copy(") {
		t.Errorf("ones is not hoisted and copied:\nconstructor:\n%s\nForward:\n%s", ctor, fwd)
	}
	if !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(src, "//", "")), " "), "Forward panics saying to build a new ModelCompiled") {
		t.Errorf("the type's doc does not say that Forward refuses changed packed weights")
	}
	if !strings.Contains(ctor, `c.snapshot.Record("fc.weight", fc_weight)`) || !strings.Contains(fwd, `c.snapshot.Check("ModelCompiled.Forward", "NewModelCompiled")`) {
		t.Errorf("the packed weight's version is not recorded and checked:\nconstructor:\n%s\nForward:\n%s", ctor, fwd)
	}
	// The one intermediate value (the relu'd hidden layer) is in the workspace.
	if !strings.Contains(src, "layout.Own(&fr.fc, runtime.Float32, N, 4)") || !strings.Contains(fwd, "fr := c.frames.Get()") || !strings.Contains(fwd, "c.frames.Put(fr)") {
		t.Errorf("reserve does not bind fc in the per-call workspace:\n%s\n%s", section(src, "func (fr *modelCompiledFrame) reserve"), fwd)
	}
}

// addBias adds a parameter: nothing for the constructor to compute.
type addBias struct{ B *tensor.Tensor }

func (m *addBias) Forward(x *tensor.Tensor) *tensor.Tensor { return tensor.Add(x, m.B) }

func TestNoPassesKeepsSharing(t *testing.T) {
	src, _ := generate(t, &addBias{B: tensor.FromFloat32(make([]float32, 4), 4)}, nil, "x=f32[N,4]")
	if !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(src, "//", "")), " "), "It reads the model's parameters in place, so it sees weights loaded into the model later.") || strings.Contains(src, "snapshot") {
		t.Errorf("without a constructor computation the doc should promise sharing:\n%s", src)
	}
}

// chain computes values one after another: the first and the third can
// share storage.
type chain struct{}

func (chain) Forward(x *tensor.Tensor) *tensor.Tensor {
	return tensor.Neg(tensor.Relu(tensor.Neg(tensor.Relu(x))))
}

func TestGenerateRejectsStalePlan(t *testing.T) {
	g, err := tracer.Trace(chain{}, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := passes.Run(g, []*passes.Pass{passes.PlanMemory}, passes.Options{Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	// Make the first planned value live until the end, past values that
	// share its slot: the plan no longer fits.
	p := res.Plan()
	var planned *ir.Node
	for _, n := range g.Nodes() {
		if p.Memory.Slots(n) != nil {
			planned = n
			break
		}
	}
	if planned == nil {
		t.Fatal("no planned value")
	}
	out := g.OutputNode()
	var extra *ir.Node
	g.InsertingAt(ir.Before(out), func() { extra, err = g.CallFunction("relu", []ir.Arg{planned}) })
	if err != nil {
		t.Fatal(err)
	}
	if err := out.SetArgs([]ir.Arg{out.Args()[0], extra}); err != nil {
		t.Fatal(err)
	}
	if _, err := emit.Generate(g, emit.Config{Package: "p", Type: "Model", Plan: p}); err == nil || !strings.Contains(err.Error(), "memory plan") || !strings.Contains(err.Error(), "overwrites") {
		t.Errorf("Generate with a stale plan: got %v, want a memory plan error (overwrites)", err)
	}
}

// sameTwice returns one value twice.
type sameTwice struct{}

func (sameTwice) Forward(x *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor) {
	y := tensor.Relu(x)
	return y, y
}

// TestResultReturnedTwice checks that an output Forward returns twice is
// made once (tensor.NewResult) and returned as two tensors over its
// array, one of them NewResult's.
func TestResultReturnedTwice(t *testing.T) {
	src, _ := generate(t, sameTwice{}, passes.Default, "x=f32[N,4]")
	fwd := section(src, "func (c *ModelCompiled) Forward")
	if strings.Count(fwd, "tensor.NewResult(") != 1 || !strings.Contains(fwd, "return relu_tensor, tensor.FromArray(relu)") {
		t.Errorf("Forward should make relu once and return it as two tensors:\n%s", fwd)
	}
}
