package emit_test

import (
	"strings"
	"testing"

	"github.com/fxgen/fxgen/emit"
	"github.com/fxgen/fxgen/passes"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

func TestGraphFile(t *testing.T) {
	g, err := tracer.Trace(&twice{Fc: nn.NewLinear(4, 4)}, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := passes.Run(g, passes.Default, passes.Options{Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	text := string(emit.GraphFile(g, res.Plan(), "p.Model"))
	for _, want := range []string{
		"// " + emit.Header() + "\n",
		"\nfc_weight get_attr fc.weight f32[4,4] optimize_test.go:23\n",
		"\nfc call_function linear_act(x, fc_weight, fc_bias; act=1) f32[N,4] optimize_test.go:23\n",
		// Two linear layers of 4×4 at N = 1: 2·4·4 each; the relu is in
		// the first one's epilogue, ones is computed by the constructor.
		"\nflops 64 at N = 1\n",
		"\nparameters 2 (20 elements)\n",
		// One planned value, fc: 4 floats, rounded up to a slot of 16.
		"\nworkspace 64 bytes at N = 1\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("graph file lacks %q:\n%s", want, text)
		}
	}
	if strings.Index(text, "ones call_function") > strings.Index(text, "// Forward") {
		t.Errorf("ones, computed by the constructor, is listed under Forward:\n%s", text)
	}
}
