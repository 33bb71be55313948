// This file checks that models written the PyTorch way trace to as many
// nodes as torch.fx records for the same models (testdata/torchfx_counts.json,
// written by testdata/torchfx_counts.py).

package seeds

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tracer"
)

func TestNodeCountsMatchTorchFX(t *testing.T) {
	raw, err := os.ReadFile("testdata/torchfx_counts.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]json.RawMessage
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		model  any
		inputs string
		opts   []tracer.Option
	}{
		{"ClsToken", NewClsToken(), "x=f32[N,3,4]", []tracer.Option{tracer.Leaf("gate")}},
		{"HeadSplit", NewHeadSplit(), "x=f32[N,8,16]", nil},
	} {
		var fx struct{ Nodes int }
		if err := json.Unmarshal(want[c.name], &fx); err != nil || fx.Nodes == 0 {
			t.Fatalf("%s: no torch.fx count in the fixture (%v)", c.name, err)
		}
		g, err := tracer.Trace(c.model, tracer.MustParseInputs(c.inputs), c.opts...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if g.Len() != fx.Nodes {
			t.Errorf("%s: %d nodes, torch.fx records %d:\n%v", c.name, g.Len(), fx.Nodes, g)
		}
	}
}

func TestHeadSplitMatchesEager(t *testing.T) {
	m := NewHeadSplit()
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,8,16]"))
	if err != nil {
		t.Fatal(err)
	}
	if got := g.OutputNode().Args()[0].(*ir.Node).Type().String(); got != "f32[N,128]" {
		t.Errorf("result type %s, want f32[N,128]", got)
	}
	for _, n := range []int{1, 3} {
		x := testutil.RandFloat32(uint64(n), n, 8, 16)
		outs, err := ir.NewInterpreter(g).Run(x.Array())
		if err != nil {
			t.Fatal(err)
		}
		if err := testutil.Close(tensor.FromArray(outs[0]), m.Forward(x), 1e-6); err != nil {
			t.Errorf("N=%d: interpreter vs eager: %v", n, err)
		}
	}
}
