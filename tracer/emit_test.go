// This file checks what the generated code of a model whose Forward works
// on its parameters reads: the model's tensors, never their values.

package tracer_test

import (
	"strings"
	"testing"

	"github.com/fxgen/fxgen/emit"
	"github.com/fxgen/fxgen/passes"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// TestGeneratedCodeReadsParams: for x.Mul(m.Gain.Sigmoid()) the compiled
// model takes m.Gain from the model (its sigmoid hoisted into the
// constructor) instead of embedding numbers.
func TestGeneratedCodeReadsParams(t *testing.T) {
	m := &sigmoidGain{FC: nn.NewLinear(4, 3), Gain: tensor.FromFloat32([]float32{0.5, 0.5, 0.5}, 3)}
	code := generate(t, m, "sigmoidGain")
	if !strings.Contains(code, "m.Gain.Array()") || strings.Contains(code, "FromFloat32(") {
		t.Errorf("generated code does not read m.Gain, or embeds constants:\n%s", code)
	}
	// The sigmoid depends on the parameter alone: the constructor computes
	// it once, Forward only multiplies.
	ctor, fwd := funcText(code, "func NewsigmoidGainCompiled("), funcText(code, "func (c *sigmoidGainCompiled) Forward(")
	if !strings.Contains(ctor, "runtime.Sigmoid(") || strings.Contains(fwd, "runtime.Sigmoid(") || !strings.Contains(fwd, "runtime.Mul") {
		t.Errorf("the sigmoid of the gain is not hoisted into the constructor:\nconstructor:\n%s\nForward:\n%s", ctor, fwd)
	}
}

// TestGeneratedCodeReadsSlices: parameters in slices are read from the
// model by index.
func TestGeneratedCodeReadsSlices(t *testing.T) {
	code := generate(t, newSliceHeads(), "sliceHeads")
	for _, want := range []string{"m.Heads[0].Weight.Array()", "m.Heads[1].Bias.Array()", "m.Gains[0].Array()"} {
		if !strings.Contains(code, want) {
			t.Errorf("generated code does not read %s", want)
		}
	}
	if strings.Contains(code, "FromFloat32(") {
		t.Errorf("generated code embeds constants:\n%s", code)
	}
}

// funcText returns the text of the function declared by decl in code, up
// to its closing brace at the start of a line.
func funcText(code, decl string) string {
	i := strings.Index(code, decl)
	if i < 0 {
		return ""
	}
	j := strings.Index(code[i:], "\n}\n")
	if j < 0 {
		return code[i:]
	}
	return code[i : i+j]
}

// TestGeneratedCodeReadsMaps: parameters in maps are read from the model
// by key, so weights loaded by their state-dict names reach the compiled
// model too.
func TestGeneratedCodeReadsMaps(t *testing.T) {
	m := &mapHeads{
		Heads: map[string]*nn.Linear{"b": nn.NewLinear(4, 3), "a": nn.NewLinear(4, 3)},
		Gains: map[int]*tensor.Tensor{10: tensor.FromFloat32(make([]float32, 3), 3), 2: tensor.FromFloat32(make([]float32, 3), 3)},
	}
	code := generate(t, m, "mapHeads")
	for _, want := range []string{`m.Heads["a"].Weight.Array()`, `m.Heads["b"].Bias.Array()`, "m.Gains[10].Array()"} {
		if !strings.Contains(code, want) {
			t.Errorf("generated code does not read %s", want)
		}
	}
	if strings.Contains(code, "FromFloat32(") {
		t.Errorf("generated code embeds constants:\n%s", code)
	}
}

// TestGeneratedCodeReadsMethodValues: the compiled model reaches a Linear
// held only as a method value through tensor.MethodReceiver.
func TestGeneratedCodeReadsMethodValues(t *testing.T) {
	fc2 := nn.NewLinear(3, 2)
	code := generate(t, &methodValue{FC1: nn.NewLinear(4, 3), Out: fc2.Forward}, "methodValue")
	if want := "tensor.MethodReceiver[*nn.Linear](m.Out).Weight.Array()"; !strings.Contains(code, want) {
		t.Errorf("generated code does not read %s:\n%s", want, code)
	}
	if strings.Contains(code, "FromFloat32(") {
		t.Errorf("generated code embeds constants:\n%s", code)
	}
}

// generate traces m and returns its generated Go code.
func generate(t *testing.T, m any, typ string) string {
	t.Helper()
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := passes.Run(g, passes.Default, passes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src, err := emit.Generate(g, emit.Config{Package: "p", Type: typ, Plan: res.Plan()})
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}
