package nn_test

import (
	"math"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// paramNames returns the qualified names and shapes of m's parameters.
func paramNames(m any) string {
	var parts []string
	for _, p := range nn.NamedParameters(m) {
		parts = append(parts, p.Name+p.Tensor.Type().String())
	}
	return strings.Join(parts, " ")
}

func TestConv2dParams(t *testing.T) {
	c := nn.NewConv2d(3, 16, 3, nn.Padding(1))
	if got, want := paramNames(c), "weightf32[16,3,3,3] biasf32[16]"; got != want {
		t.Errorf("NewConv2d(3, 16, 3, Padding(1)) params: got %q, want %q", got, want)
	}
	bound := float32(1 / math.Sqrt(27))
	for _, v := range append(c.Weight.Float32s(), c.Bias.Float32s()...) {
		if v < -bound || v > bound {
			t.Fatalf("init value %v outside ±%v", v, bound)
		}
	}
	if got, want := paramNames(nn.NewConv2d(64, 128, 1, nn.Stride(2), nn.Bias(false))), "weightf32[128,64,1,1]"; got != want {
		t.Errorf("NewConv2d(64, 128, 1, Stride(2), Bias(false)) params: got %q, want %q", got, want)
	}
}

// convNet uses every vision module once.
type convNet struct {
	Conv    *nn.Conv2d
	Bn      *nn.BatchNorm2d
	Relu    *nn.ReLU
	Pool    *nn.MaxPool2d
	Avgpool *nn.AdaptiveAvgPool2d
}

func newConvNet() *convNet {
	bn := nn.NewBatchNorm2d(8)
	// Non-trivial statistics, so that a swapped operand shows.
	bn.Weight = testutil.RandFloat32(1, 8)
	bn.Bias = testutil.RandFloat32(2, 8)
	bn.RunningMean = testutil.RandFloat32(3, 8)
	bn.RunningVar = tensor.FromFloat32([]float32{0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4}, 8)
	return &convNet{
		Conv: nn.NewConv2d(3, 8, 3, nn.Stride(2), nn.Padding(1)), Bn: bn, Relu: &nn.ReLU{},
		Pool: nn.NewMaxPool2d(3, 2, 1), Avgpool: nn.NewAdaptiveAvgPool2d(2, 1),
	}
}

func (m *convNet) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.Avgpool.Forward(m.Pool.Forward(m.Relu.Forward(m.Bn.Forward(m.Conv.Forward(x)))))
}

// functional is convNet's forward written with the tensor functions.
func (m *convNet) functional(x *tensor.Tensor) *tensor.Tensor {
	x = tensor.Conv2d(x, m.Conv.Weight, m.Conv.Bias, []int{2}, []int{1}, 1)
	x = tensor.BatchNorm(x, m.Bn.Weight, m.Bn.Bias, m.Bn.RunningMean, m.Bn.RunningVar, 1e-5)
	x = tensor.MaxPool2d(tensor.Relu(x), []int{3}, []int{2}, []int{1})
	return tensor.AdaptiveAvgPool2d(x, []int{2, 1})
}

func TestVisionModulesTraceAndRun(t *testing.T) {
	m := newConvNet()
	x := testutil.RandFloat32(4, 2, 3, 17, 15)
	eager := m.Forward(x)
	if err := testutil.Close(eager, m.functional(x), 0); err != nil {
		t.Errorf("modules vs tensor functions: %v", err)
	}
	if got, want := eager.Type().String(), "f32[2,8,2,1]"; got != want {
		t.Errorf("output type: got %s, want %s", got, want)
	}
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,3,17,15]"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range g.Nodes() {
		if n.Op == ir.CallModule {
			mod := g.Modules[n.Target]
			got = append(got, n.Target+":"+mod.Kind+"("+strings.Join(mod.Params, ",")+")"+n.Types[0].String())
		}
	}
	want := []string{
		"conv:Conv2d(conv.weight,conv.bias)f32[N,8,9,8]",
		"bn:BatchNorm2d(bn.weight,bn.bias,bn.running_mean,bn.running_var)f32[N,8,9,8]",
		"relu:ReLU()f32[N,8,9,8]",
		"pool:MaxPool2d()f32[N,8,5,4]",
		"avgpool:AdaptiveAvgPool2d()f32[N,8,2,1]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("call_module nodes:\ngot  %q\nwant %q", got, want)
	}
	outs, err := ir.NewInterpreter(g).Run(x.Array())
	if err != nil {
		t.Fatal(err)
	}
	if err := testutil.Close(tensor.FromArray(outs[0]), eager, 1e-6); err != nil {
		t.Errorf("interpreter vs eager: %v", err)
	}
}

func TestConv2dZeroConfig(t *testing.T) {
	// A Conv2d built as a literal: zero Stride and Groups mean 1.
	w := testutil.RandFloat32(5, 4, 2, 3, 3)
	c := &nn.Conv2d{Weight: w}
	x := testutil.RandFloat32(6, 1, 2, 6, 6)
	want := tensor.FromArray(runtime.NewArray(runtime.Float32, 1, 4, 4, 4))
	runtime.Conv2d(want.Array(), x.Array(), w.Array(), nil, []int{1}, []int{0}, 1)
	if err := testutil.Close(c.Forward(x), want, 0); err != nil {
		t.Error(err)
	}
}

// twoReLUs holds two ReLU modules, each used twice.
type twoReLUs struct{ A, B *nn.ReLU }

func (m *twoReLUs) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.B.Forward(m.A.Forward(m.B.Forward(m.A.Forward(x))))
}

// TestDistinctReLUModules checks that separate ReLU modules keep their own
// names (Go may give zero-size values one address).
func TestDistinctReLUModules(t *testing.T) {
	g, err := tracer.Trace(&twoReLUs{&nn.ReLU{}, &nn.ReLU{}}, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range g.Nodes() {
		if n.Op == ir.CallModule {
			got = append(got, n.Name+"="+n.Target)
		}
	}
	if want := "a=a b=b a_1=a b_1=b"; strings.Join(got, " ") != want {
		t.Errorf("call_module nodes: got %q, want %q", strings.Join(got, " "), want)
	}
}
