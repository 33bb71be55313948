package golden

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// patchNet is PatchNet of scripts/torch_fx_counts.py written the PyTorch
// way in Go: ReLU6 and Dropout modules, Interpolate by a scale factor, a
// class token expanded to the batch size read with Size, and a view to
// the batch size.
type patchNet struct {
	Conv *nn.Conv2d
	Act  *nn.ReLU6
	Drop *nn.Dropout
	Cls  *tensor.Tensor
	Fc   *nn.Linear
}

func (m *patchNet) Forward(x *tensor.Tensor) *tensor.Tensor {
	y := m.Act.Forward(m.Conv.Forward(x))
	y = tensor.Interpolate(y, tensor.InterpolateOptions{ScaleFactor: []float64{2}})
	y = m.Drop.Forward(y)
	tokens := y.Flatten(2, -1).Transpose(1, 2)
	cls := m.Cls.Expand(x.Size(0), -1, -1)
	z := tensor.Cat([]*tensor.Tensor{cls, tokens}, 1)
	z = z.View(x.Size(0), -1)
	return m.Fc.Forward(z)
}

// bagNet is BagNet of scripts/torch_fx_counts.py: an EmbeddingBag with
// offsets beside dense features, and an output viewed to the batch size.
type bagNet struct {
	Bag  *nn.EmbeddingBag
	Drop *nn.Dropout
	Fc   *nn.Linear
}

func (m *bagNet) Forward(dense, indices, offsets *tensor.Tensor) *tensor.Tensor {
	e := m.Bag.Forward(indices, offsets)
	z := tensor.Cat([]*tensor.Tensor{e, dense}, 1)
	z = m.Drop.Forward(z)
	return tensor.Sigmoid(m.Fc.Forward(z)).View(dense.Size(0))
}

// TestPyTorchWayMatchesTorchFX traces the two models and compares their
// nodes with the graph torch.fx 1.13 traces for the PyTorch model
// (testdata/torch_fx_graphs.json, from scripts/torch_fx_counts.py): the
// same number of nodes, of each opcode, and the same call_module and
// get_attr targets. call_function and call_method targets are op names
// here and Python names there (upsample_nearest2d for interpolate), so
// only their opcodes count. The order may differ in one way: Go creates a
// parameter's get_attr node when an op first uses it, after the op's
// other arguments (x.Size(0) in m.Cls.Expand(x.Size(0), -1, -1)), where
// Python creates it at the attribute access.
func TestPyTorchWayMatchesTorchFX(t *testing.T) {
	raw, err := os.ReadFile("testdata/torch_fx_graphs.json")
	if err != nil {
		t.Fatal(err)
	}
	var fixture struct {
		Models map[string][]struct{ Op, Target string }
	}
	if err := json.Unmarshal(raw, &fixture); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		model any
		specs []string
	}{
		{"PatchNet", &patchNet{
			Conv: nn.NewConv2d(3, 8, 3, nn.Padding(1)), Act: nn.NewReLU6(), Drop: nn.NewDropout(0.1),
			Cls: tensor.Zeros(1, 1, 8), Fc: nn.NewLinear(8*65, 10),
		}, []string{"x=f32[N,3,4,4]"}},
		{"BagNet", &bagNet{Bag: nn.NewEmbeddingBag(100, 8, "mean"), Drop: nn.NewDropout(0.2), Fc: nn.NewLinear(12, 1)},
			[]string{"dense=f32[N,4]", "indices=i64[20]", "offsets=i64[N]"}},
	} {
		g, err := tracer.Trace(c.model, tracer.MustParseInputs(c.specs...))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := fixture.Models[c.name]
		var got, exp []string
		for _, n := range g.Nodes() {
			s := n.Op.String()
			if n.Op == ir.CallModule || n.Op == ir.GetAttr {
				s += ":" + n.Target
			}
			got = append(got, s)
		}
		for _, n := range want {
			s := n.Op
			if n.Op == "call_module" || n.Op == "get_attr" {
				s += ":" + n.Target
			}
			exp = append(exp, s)
		}
		if len(got) != len(exp) {
			t.Errorf("%s: %d nodes, torch.fx %d", c.name, len(got), len(exp))
		}
		slices.Sort(got)
		slices.Sort(exp)
		if strings.Join(got, " ") != strings.Join(exp, " ") {
			t.Errorf("%s: %d nodes, torch.fx %d:\ngot  %s\nwant %s\n%s", c.name, len(got), len(exp), strings.Join(got, " "), strings.Join(exp, " "), g.Tabular())
		}
	}
}
