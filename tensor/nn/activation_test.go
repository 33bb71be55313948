package nn_test

import (
	"math"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// TestDropoutKeepsStateDictNumbering checks that a Dropout, which has no
// parameters, still takes its index in a Sequential, as in PyTorch: the
// Linear after it is "2".
func TestDropoutKeepsStateDictNumbering(t *testing.T) {
	s := nn.NewSequential(nn.NewLinear(4, 3), nn.NewDropout(0.1), nn.NewLinear(3, 2), nn.NewReLU6())
	var names []string
	for _, p := range nn.NamedParameters(s) {
		names = append(names, p.Name)
	}
	if got, want := strings.Join(names, " "), "0.weight 0.bias 2.weight 2.bias"; got != want {
		t.Errorf("parameters %s, want %s", got, want)
	}
}

// TestActivationModules traces each activation module to one call_module
// node of its kind, and runs it eagerly as its function.
func TestActivationModules(t *testing.T) {
	x := tensor.FromFloat32([]float32{-7, -3, -1, -0.5, 0, 0.5, 1, 3, 7, float32(math.NaN())}, 2, 5)
	for _, c := range []struct {
		m    nn.Module
		kind string
		want *tensor.Tensor
	}{
		{nn.NewReLU(), "ReLU", tensor.Relu(x)},
		{nn.NewReLU6(), "ReLU6", tensor.Relu6(x)},
		{nn.NewHardtanh(-2, 2), "Hardtanh", tensor.Hardtanh(x, -2, 2)},
		{nn.NewGELU(), "GELU", tensor.Gelu(x)},
		{nn.NewGELUTanh(), "GELUTanh", tensor.GeluTanh(x)},
		{nn.NewSiLU(), "SiLU", tensor.Silu(x)},
		{nn.NewSigmoid(), "Sigmoid", tensor.Sigmoid(x)},
		{nn.NewTanh(), "Tanh", tensor.Tanh(x)},
		{nn.NewHardswish(), "Hardswish", tensor.Hardswish(x)},
		{nn.NewHardsigmoid(), "Hardsigmoid", tensor.Hardsigmoid(x)},
		{nn.NewIdentity(), "Identity", x},
		{nn.NewDropout(0.5), "Dropout", x},
		{nn.NewSoftmax(-1), "Softmax", tensor.Softmax(x, -1)},
	} {
		got := c.m.Forward(x).Float32s()
		for i, w := range c.want.Float32s() {
			if got[i] != w && !(math.IsNaN(float64(w)) && math.IsNaN(float64(got[i]))) {
				t.Errorf("%s: element %d: got %v, want %v", c.kind, i, got[i], w)
			}
		}
		g, err := tracer.Trace(&wrap{M: c.m}, tracer.MustParseInputs("x=f32[N,5]"))
		if err != nil {
			t.Fatalf("%s: %v", c.kind, err)
		}
		calls := g.FindNodes(ir.CallModule, "")
		if len(calls) != 1 || g.Modules[calls[0].Target].Kind != c.kind {
			t.Errorf("%s: traced to\n%v\nwant one call_module of kind %s", c.kind, g, c.kind)
		}
	}
}

type wrap struct{ M nn.Module }

func (w *wrap) Forward(x *tensor.Tensor) *tensor.Tensor { return w.M.Forward(x) }
