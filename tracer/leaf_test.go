// This file checks opaque leaves: never traced through, typed by a rule or
// an example run, and refused when called without nn.Call.

package tracer_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// dynamicLeaf has dynamic control flow: a branch and a loop on values.
type dynamicLeaf struct {
	Scale *tensor.Tensor // [1]
	calls int
}

func (m *dynamicLeaf) Forward(x *tensor.Tensor) *tensor.Tensor {
	m.calls++
	if x.Sum().Item() > 0 {
		x = x.Relu()
	} else {
		x = x.Neg()
	}
	for i := 0; i < 3 && x.Sum().Item() > 1; i++ {
		x = x.MulScalar(0.5)
	}
	return x.Mul(m.Scale).Flatten(1, -1) // [N,12]
}

type withDynamicLeaf struct {
	FC   *nn.Linear
	Leaf *dynamicLeaf
}

func (m *withDynamicLeaf) Forward(x *tensor.Tensor) *tensor.Tensor {
	return nn.Call(m.Leaf, m.FC.Forward(x).View(x.Size(0), 3, 4)).Relu()
}

func newWithDynamicLeaf() *withDynamicLeaf {
	return &withDynamicLeaf{FC: nn.NewLinear(4, 12), Leaf: &dynamicLeaf{Scale: tensor.FromFloat32([]float32{2}, 1)}}
}

func TestLeafWithDynamicControlFlow(t *testing.T) {
	m := newWithDynamicLeaf()
	if _, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]")); err == nil {
		t.Error("dynamic control flow traced through: want a TraceError")
	}
	m.Leaf.calls = 0
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"), tracer.Leaf("leaf"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Leaf.calls != 2 {
		t.Errorf("the leaf ran %d times while tracing, want 2 (the example runs)", m.Leaf.calls)
	}
	if got, want := g.Modules["leaf"].Results, []ir.Type{{DType: ir.Float32, Shape: ir.Shape{ir.Sym("N"), ir.Const(12)}}}; len(got) != 1 || !got[0].Equal(want[0]) {
		t.Errorf("leaf result types %v, want %v", got, want)
	}
	if c := counts(g); c["call_module"] != 2 || c["relu"] != 1 || c["neg"] != 0 {
		t.Errorf("got %v, want the Linear, the leaf and one relu:\n%v", c, g)
	}
	for _, seed := range []uint64{1, 2, 3} {
		x := testutil.RandFloat32(seed, 5, 4)
		if err := testutil.Close(runGraph(t, g, x)[0], m.Forward(x), 1e-6); err != nil {
			t.Errorf("seed %d: interpreter vs eager: %v", seed, err)
		}
	}
}

// typedLeaf is dynamicLeaf with a ResultTypes method.
type typedLeaf struct{ dynamicLeaf }

func (m *typedLeaf) Forward(x *tensor.Tensor) *tensor.Tensor { return m.dynamicLeaf.Forward(x) }

func (m *typedLeaf) ResultTypes(args ...ir.Type) ([]ir.Type, error) {
	return []ir.Type{{DType: ir.Float32, Shape: ir.Shape{args[0].Shape[0], ir.Const(12)}}}, nil
}

type withTypedLeaf struct{ Leaf *typedLeaf }

func (m *withTypedLeaf) Forward(x *tensor.Tensor) *tensor.Tensor { return nn.Call(m.Leaf, x) }

// ruledLeaf is dynamicLeaf with a declared result rule.
type ruledLeaf struct{ dynamicLeaf }

func (m *ruledLeaf) Forward(x *tensor.Tensor) *tensor.Tensor { return m.dynamicLeaf.Forward(x) }

func TestLeafResultRule(t *testing.T) {
	m := &withTypedLeaf{Leaf: &typedLeaf{dynamicLeaf{Scale: tensor.FromFloat32([]float32{2}, 1)}}}
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,3,4]"), tracer.Leaf("leaf"))
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Modules["leaf"].Results[0].String(); got != "f32[N,12]" {
		t.Errorf("ResultTypes gave %s, want f32[N,12]", got)
	}
	if m.Leaf.calls != 0 {
		t.Errorf("a leaf with a ResultTypes method ran %d times while tracing, want 0", m.Leaf.calls)
	}
	ruled := &withRuledLeaf{Leaf: &ruledLeaf{dynamicLeaf{Scale: tensor.FromFloat32([]float32{2}, 1)}}}
	g, err = tracer.Trace(ruled, tracer.MustParseInputs("x=f32[N,3,4]"), tracer.LeafRule("ruledLeaf",
		func(args ...ir.Type) ([]ir.Type, error) {
			return []ir.Type{{DType: ir.Float32, Shape: ir.Shape{args[0].Shape[0], ir.Const(7)}}}, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Modules["leaf"].Results[0].String(); got != "f32[N,7]" {
		t.Errorf("LeafRule gave %s, want its f32[N,7]", got)
	}
	if ruled.Leaf.calls != 0 {
		t.Errorf("a leaf with a LeafRule ran %d times while tracing, want 0", ruled.Leaf.calls)
	}
}

type withRuledLeaf struct{ Leaf *ruledLeaf }

func (m *withRuledLeaf) Forward(x *tensor.Tensor) *tensor.Tensor { return nn.Call(m.Leaf, x) }

// directLeaf calls its leaf's Forward without nn.Call.
type directLeaf struct {
	A, B *scaleBy
}

type scaleBy struct{ K *tensor.Tensor }

func (s *scaleBy) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Mul(s.K) }

func (m *directLeaf) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.B.Forward(m.A.Forward(x)) // direct call
}

func TestLeafCalledDirectlyIsTraceError(t *testing.T) {
	m := &directLeaf{A: &scaleBy{K: tensor.FromFloat32([]float32{2}, 1)}, B: &scaleBy{K: tensor.FromFloat32([]float32{3}, 1)}}
	_, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"), tracer.Leaf("scaleBy"))
	var te *tracer.TraceError
	if !errors.As(err, &te) || te.Line != lineOfIn(t, "leaf_test.go", "// direct call") {
		t.Fatalf("got %v, want a TraceError at leaf_test.go:%d", err, lineOfIn(t, "leaf_test.go", "// direct call"))
	}
	// Only a leaf by path: the other instance of the type is traced
	// through, and a frame cannot tell the two apart, so no error.
	if _, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"), tracer.Leaf("a")); err != nil {
		t.Errorf("leaf by path with a traced-through twin: %v", err)
	}
}

type valueScale struct{ K *tensor.Tensor }

func (s valueScale) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Mul(s.K) }

type byValueLeaf struct{ Sub valueScale }

func (m *byValueLeaf) Forward(x *tensor.Tensor) *tensor.Tensor { return nn.Call(m.Sub, x) } // by value

// TestLeafByValueIsTraceError: a leaf passed to nn.Call by value is a
// copy the tracer cannot name; the error says to pass a pointer.
func TestLeafByValueIsTraceError(t *testing.T) {
	m := &byValueLeaf{Sub: valueScale{K: tensor.FromFloat32([]float32{2}, 1)}}
	_, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"), tracer.Leaf("sub"))
	var te *tracer.TraceError
	if !errors.As(err, &te) || te.Line != lineOfIn(t, "leaf_test.go", "// by value") || !strings.Contains(te.Msg, "by pointer") {
		t.Errorf("got %v, want a TraceError at the nn.Call line asking for a pointer", err)
	}
}
