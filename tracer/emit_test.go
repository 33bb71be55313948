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
