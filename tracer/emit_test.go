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
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	if err := passes.Run(g, passes.Default, passes.Options{}); err != nil {
		t.Fatal(err)
	}
	src, err := emit.Generate(g, emit.Config{Package: "p", Type: "sigmoidGain"})
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	if !strings.Contains(code, "m.Gain.Array()") || strings.Contains(code, "FromFloat32(") {
		t.Errorf("generated code does not read m.Gain, or embeds constants:\n%s", code)
	}
}
