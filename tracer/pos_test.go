// This file checks the positions of recorded nodes: the line of the
// model's own code nearest the call.

package tracer_test

import (
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tracer"
)

// relu6 is a helper of the model's package: its nodes are placed at the
// lines of Forward that call it.
func relu6(x *tensor.Tensor) *tensor.Tensor {
	return x.Relu().Neg().AddScalar(6).Relu().Neg().AddScalar(6)
}

type helpers struct{}

func (h helpers) twice(x *tensor.Tensor) *tensor.Tensor { return relu6(relu6(x)) }

func (h helpers) Forward(x *tensor.Tensor) *tensor.Tensor {
	y := relu6(x)  // first call
	y = relu6(y)   // second call
	y = h.twice(y) // helper method
	f := func() *tensor.Tensor { return y.Sqrt() }
	return f() // closure
}

func TestNodePositionsSkipHelpers(t *testing.T) {
	g, err := tracer.Trace(helpers{}, tracer.MustParseInputs("x=f32[N,3]"))
	if err != nil {
		t.Fatal(err)
	}
	lines := map[int]int{}
	for _, n := range g.Nodes() {
		if n.Op == ir.CallMethod {
			if n.Pos.File != "pos_test.go" {
				t.Errorf("%s at %v, want pos_test.go", n.Name, n.Pos)
			}
			lines[n.Pos.Line]++
		}
	}
	for marker, want := range map[string]int{"// first call": 6, "// second call": 6, "// helper method": 12, "return y.Sqrt()": 1} {
		if got := lines[lineOfIn(t, "pos_test.go", marker)]; got != want {
			t.Errorf("%d nodes at the line of %q, want %d (lines: %v)", got, marker, want, lines)
		}
	}
}
