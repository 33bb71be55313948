// This file holds the seed cases of the torch.fx documentation.

package tracer_test

import (
	"errors"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// lineOf returns the line of this file holding marker.
func lineOf(t *testing.T, marker string) int {
	t.Helper()
	src, err := os.ReadFile("seed_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, marker) && !strings.Contains(l, "lineOf") {
			return i + 1
		}
	}
	t.Fatalf("marker %q not found", marker)
	return 0
}

// counts returns how many nodes have each opcode/target.
func counts(g *ir.Graph) map[string]int {
	c := map[string]int{}
	for _, n := range g.Nodes() {
		c[n.Op.String()]++
		if n.Op == ir.CallFunction || n.Op == ir.CallMethod {
			c[n.Target]++
		}
	}
	return c
}

// runGraph runs g with the interpreter on inputs.
func runGraph(t *testing.T, g *ir.Graph, inputs ...*tensor.Tensor) []*tensor.Tensor {
	t.Helper()
	arrs := make([]*runtime.Array, len(inputs))
	for i, x := range inputs {
		arrs[i] = x.Array()
	}
	outs, err := ir.NewInterpreter(g).Run(arrs...)
	if err != nil {
		t.Fatal(err)
	}
	res := make([]*tensor.Tensor, len(outs))
	for i, a := range outs {
		res[i] = tensor.FromArray(a)
	}
	return res
}

type staticFlow struct {
	DoActivation bool `fx:"-"`
	Linear       *nn.Linear
}

func (m *staticFlow) Forward(x *tensor.Tensor) *tensor.Tensor {
	x = m.Linear.Forward(x)
	if m.DoActivation {
		x = x.Relu()
	}
	return x
}

func TestStaticControlFlow(t *testing.T) {
	for _, act := range []bool{false, true} {
		m := &staticFlow{DoActivation: act, Linear: nn.NewLinear(512, 512)}
		g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,512]"))
		if err != nil {
			t.Fatal(err)
		}
		c := counts(g)
		wantRelu := 0
		if act {
			wantRelu = 1
		}
		if c["call_module"] != 1 || c["relu"] != wantRelu || g.Len() != 3+wantRelu {
			t.Errorf("DoActivation=%v: got graph\n%v\nwant one call_module and %d relu", act, g.Tabular(), wantRelu)
		}
		x := testutil.RandFloat32(3, 2, 512)
		if err := testutil.Close(runGraph(t, g, x)[0], m.Forward(x), 1e-6); err != nil {
			t.Errorf("DoActivation=%v: interpreter vs eager: %v", act, err)
		}
	}
}

type dynamicFlow struct{}

func (dynamicFlow) Forward(x *tensor.Tensor) *tensor.Tensor {
	if x.Sum().Item() > 0 { // dynamic-value-branch
		return x.Relu()
	}
	return x.Neg()
}

type shapeFlow struct{}

func (shapeFlow) Forward(x *tensor.Tensor) *tensor.Tensor {
	if x.Dim(0) > 2 { // dynamic-shape-branch
		return x.Relu()
	}
	return x
}

func TestDynamicControlFlow(t *testing.T) {
	for _, tc := range []struct {
		name, marker string
		model        any
		want         []string
	}{
		{"value", "dynamic-value-branch", dynamicFlow{}, []string{"Item()", "control flow", "tracer.Concrete", "tracer.Leaf", "tracer.Wrap"}},
		{"shape", "dynamic-shape-branch", shapeFlow{}, []string{"Dim(0)", "symbolic size N", "-1 in Reshape", "tracer.Wrap"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tracer.Trace(tc.model, tracer.MustParseInputs("x=f32[N,4]"))
			var te *tracer.TraceError
			if !errors.As(err, &te) {
				t.Fatalf("got %v, want a *tracer.TraceError", err)
			}
			if filepath.Base(te.File) != "seed_test.go" || te.Line != lineOf(t, tc.marker) {
				t.Errorf("error at %s:%d, want seed_test.go:%d", te.File, te.Line, lineOf(t, tc.marker))
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

type concreteFlow struct{}

func (concreteFlow) Forward(x *tensor.Tensor, flag bool) *tensor.Tensor {
	if flag {
		return x.Relu()
	}
	return x.Neg()
}

func TestConcreteArgs(t *testing.T) {
	_, err := tracer.Trace(concreteFlow{}, tracer.MustParseInputs("x=f32[N,4]"))
	if err == nil || !strings.Contains(err.Error(), "needs a concrete value") || !strings.Contains(err.Error(), "-concrete") {
		t.Errorf("unbound flag: got %v, want an error asking for a concrete value", err)
	}
	for _, flag := range []bool{true, false} {
		g, err := tracer.Trace(concreteFlow{}, tracer.MustParseInputs("x=f32[N,4]"), tracer.Concrete("flag", flag))
		if err != nil {
			t.Fatal(err)
		}
		want := map[bool]string{true: "relu", false: "neg"}[flag]
		if c := counts(g); c[want] != 1 || g.Len() != 3 {
			t.Errorf("flag=%v: got\n%v\nwant x, %s, output", flag, g.Tabular(), want)
		}
		if p := g.Forward.Params[1]; p.Name != "flag" || p.Tensor || p.Concrete != flag {
			t.Errorf("flag=%v: signature param %+v", flag, p)
		}
	}
}

type normalize struct{}

func (normalize) Forward(x *tensor.Tensor) *tensor.Tensor {
	return x.DivScalar(math.Sqrt(float64(x.Dim(0)))) // unwrapped-len
}

// invSqrtLen is 1/√len(x) as a 0-d tensor, wrapped so that the tracer
// records it as one node instead of reading the symbolic size.
var invSqrtLen = tracer.Wrap("inv_sqrt_len",
	func(args ...*tensor.Tensor) *tensor.Tensor {
		return tensor.Scalar(float32(1 / math.Sqrt(float64(args[0].Dim(0)))))
	},
	func(args ...ir.Type) (ir.Type, error) { return ir.Type{DType: ir.Float32, Shape: ir.Shape{}}, nil })

type normalizeWrapped struct{}

func (normalizeWrapped) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Mul(invSqrtLen(x)) }

func TestNonTensorFunctions(t *testing.T) {
	_, err := tracer.Trace(normalize{}, tracer.MustParseInputs("x=f32[N,4]"))
	var te *tracer.TraceError
	if !errors.As(err, &te) || te.Line != lineOf(t, "unwrapped-len") || !strings.Contains(err.Error(), "tracer.Wrap") {
		t.Fatalf("got %v, want a TraceError at the unwrapped call that suggests tracer.Wrap", err)
	}
	g, err := tracer.Trace(normalizeWrapped{}, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	if ns := g.FindNodes(ir.CallFunction, "inv_sqrt_len"); len(ns) != 1 {
		t.Errorf("got\n%v\nwant one call_function inv_sqrt_len", g.Tabular())
	}
	x := testutil.RandFloat32(1, 9, 4)
	if err := testutil.Close(runGraph(t, g, x)[0], (normalizeWrapped{}).Forward(x), 1e-6); err != nil {
		t.Error(err)
	}
	got, want := (normalizeWrapped{}).Forward(x).Float32s()[0], x.Array().F32[0]/3
	if math.Abs(float64(got-want)) > 1e-6 {
		t.Errorf("x/sqrt(9): got %v, want %v", got, want)
	}
}

type scale struct{ Factor *tensor.Tensor }

func (s *scale) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Mul(s.Factor).Relu() }

type leafParent struct {
	Linear *nn.Linear
	Sub    *scale
}

func (m *leafParent) Forward(x *tensor.Tensor) *tensor.Tensor {
	return nn.Call(m.Sub, m.Linear.Forward(x))
}

func TestLeafModules(t *testing.T) {
	m := &leafParent{Linear: nn.NewLinear(4, 4), Sub: &scale{Factor: testutil.RandFloat32(2, 4)}}
	x := testutil.RandFloat32(5, 3, 4)
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	c := counts(g)
	if c["call_module"] != 1 || c["mul"] != 1 || c["relu"] != 1 || len(g.FindNodes(ir.GetAttr, "sub.factor")) != 1 {
		t.Errorf("default: got\n%v\nwant call_module linear, then sub traced through (get_attr sub.factor, mul, relu)", g.Tabular())
	}
	if err := testutil.Close(runGraph(t, g, x)[0], m.Forward(x), 1e-6); err != nil {
		t.Errorf("traced through: %v", err)
	}
	leafOpts := []tracer.Option{
		tracer.Leaf("sub"),
		tracer.Leaf("scale"),
		tracer.IsLeaf(func(path, typ string, std bool) bool { return std || path == "sub" }),
	}
	for _, opt := range leafOpts {
		g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"), opt)
		if err != nil {
			t.Fatal(err)
		}
		if c := counts(g); c["call_module"] != 2 || c["mul"] != 0 || g.Modules["sub"] == nil || g.Modules["sub"].Kind != "" {
			t.Errorf("leaf sub: got\n%v\nwant call_module linear and call_module sub", g.Tabular())
		}
		if err := testutil.Close(runGraph(t, g, x)[0], m.Forward(x), 1e-6); err != nil {
			t.Errorf("leaf: %v", err)
		}
	}
}

type constructors struct{}

func (constructors) Forward(x *tensor.Tensor) *tensor.Tensor {
	z := tensor.Zeros(4).Add(tensor.Ones(4))
	r := tensor.Rand(42, 4)
	a := tensor.Arange(4)
	return x.Add(z).Add(r).Add(a)
}

func TestTensorConstructors(t *testing.T) {
	g, err := tracer.Trace(constructors{}, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	c := counts(g)
	for _, op := range []string{"zeros", "ones", "rand", "arange"} {
		if c[op] != 1 {
			t.Errorf("no %s node in\n%v", op, g.Tabular())
		}
	}
	if len(g.Params) != 0 {
		t.Errorf("constructors were baked in as constants: %v", g.Params)
	}
	x := testutil.RandFloat32(1, 2, 4)
	if err := testutil.Close(runGraph(t, g, x)[0], constructors{}.Forward(x), 1e-6); err != nil {
		t.Error(err)
	}
}

type badShape struct{ Linear *nn.Linear }

func (m *badShape) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.Linear.Forward(x) // bad-shape
}

func TestShapeErrorHasPosition(t *testing.T) {
	_, err := tracer.Trace(&badShape{nn.NewLinear(8, 2)}, tracer.MustParseInputs("x=f32[N,4]"))
	var te *tracer.TraceError
	if !errors.As(err, &te) || te.Line != lineOf(t, "bad-shape") || !strings.Contains(err.Error(), "[N,4]") {
		t.Errorf("got %v, want a TraceError at the Linear call naming the shape [N,4]", err)
	}
}

type hugeReshape struct{}

func (hugeReshape) Forward(x *tensor.Tensor) *tensor.Tensor {
	return x.Reshape(1<<(bits.UintSize-2)+1, 4).Relu() // huge-reshape: 4·(2^62+1) wraps to 4
}

type hugeZeros struct{}

func (hugeZeros) Forward(x *tensor.Tensor) *tensor.Tensor {
	return x.Add(tensor.Zeros(1<<(bits.UintSize-2), 4).Sum()) // huge-zeros
}

// TestOverflowingShapeHasPosition: a shape whose size wraps around an int
// ([2^62+1, 4] has "4" elements) or that no int can count is a TraceError
// at the model's line, not a node whose type describes no tensor.
func TestOverflowingShapeHasPosition(t *testing.T) {
	for marker, m := range map[string]any{"huge-reshape": hugeReshape{}, "huge-zeros": hugeZeros{}} {
		_, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[4]"))
		var te *tracer.TraceError
		if !errors.As(err, &te) || te.Line != lineOf(t, marker) || !strings.Contains(err.Error(), "more elements than an int can count") {
			t.Errorf("%s: got %v, want a TraceError at its line saying the size overflows", marker, err)
		}
	}
}

type twoRelu struct{ Fc1, Fc2 *nn.Linear }

func (m *twoRelu) Forward(x *tensor.Tensor) *tensor.Tensor {
	return tensor.Relu(m.Fc2.Forward(tensor.Relu(m.Fc1.Forward(x))))
}

func TestReluDecompositionByRetracing(t *testing.T) {
	m := &twoRelu{Fc1: nn.NewLinear(6, 6), Fc2: nn.NewLinear(6, 3)}
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,6]"))
	if err != nil {
		t.Fatal(err)
	}
	app := tracer.NewAppender(g)
	for _, n := range g.FindNodes(ir.CallFunction, "relu") {
		g.InsertingAt(ir.Before(n), func() {
			x := app.Proxy(n.Args()[0].(*ir.Node))
			if _, err := n.ReplaceAllUsesWith(app.Node(x.GtScalar(0).Mul(x)), nil); err != nil {
				t.Fatal(err)
			}
		})
		if err := g.EraseNode(n); err != nil {
			t.Fatal(err)
		}
	}
	if c := counts(g); c["relu"] != 0 || c["gt"] != 2 || c["mul"] != 2 {
		t.Fatalf("got\n%v\nwant two gt and two mul, no relu", g.Tabular())
	}
	x := testutil.RandFloat32(4, 5, 6)
	if err := testutil.Close(runGraph(t, g, x)[0], m.Forward(x), 1e-6); err != nil {
		t.Error(err)
	}
}

// TestLeafNamesNoModule checks that a leaf path or type that names no
// module is an error listing the paths and types that exist.
func TestLeafNamesNoModule(t *testing.T) {
	m := &leafParent{Linear: nn.NewLinear(4, 4), Sub: &scale{Factor: testutil.RandFloat32(2, 4)}}
	_, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"), tracer.Leaf("sub", "nosuch"))
	var te *tracer.TraceError
	if !errors.As(err, &te) {
		t.Fatalf("Leaf(nosuch): got %v, want a TraceError", err)
	}
	for _, want := range []string{`leaf "nosuch" names no module`, "module paths are linear, sub", "module types Linear, leafParent, scale"} {
		if !strings.Contains(te.Msg, want) {
			t.Errorf("Leaf(nosuch): message %q lacks %q", te.Msg, want)
		}
	}
}
