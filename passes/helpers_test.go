// This file holds the helpers of the pass tests: tracing small models and
// checking that a pass keeps what a graph computes.

package passes

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/plan"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tracer"
)

func trace(t *testing.T, model any, specs ...string) *ir.Graph {
	t.Helper()
	g, err := tracer.Trace(model, tracer.MustParseInputs(specs...))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// randomize sets every float parameter of g to values in [0.5, 1.5) (so
// that variances stay positive) or [-1, 1) for the others.
func randomize(g *ir.Graph, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 1))
	for name, p := range g.Params {
		if p.Value == nil || p.Value.DType != runtime.Float32 {
			continue
		}
		for i := range p.Value.F32 {
			if strings.HasSuffix(name, "var") {
				p.Value.F32[i] = 0.5 + r.Float32()
			} else {
				p.Value.F32[i] = 2*r.Float32() - 1
			}
		}
	}
}

// inputs returns random arrays for g's placeholders with the symbols set
// to syms.
func inputs(t *testing.T, g *ir.Graph, syms map[string]int, seed uint64) []*runtime.Array {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 2))
	var out []*runtime.Array
	for _, ph := range g.Placeholders() {
		dims, ok := ph.Type().Shape.Eval(syms)
		if !ok {
			t.Fatalf("placeholder %s: shape %v has symbols missing from %v", ph.Name, ph.Type().Shape, syms)
		}
		a := runtime.NewArray(ph.Type().DType, dims...)
		for i := range a.F32 {
			a.F32[i] = 2*r.Float32() - 1
		}
		for i := range a.B {
			a.B[i] = r.IntN(4) == 0
		}
		out = append(out, a)
	}
	return out
}

// applyAndCompare runs pipeline on a copy of g (linting between passes)
// and checks with the interpreter, on random inputs at N=1 and N=3, that
// the result computes what g computes within tol relative to max(1,
// |want|) (a NaN where g has one agrees). It returns the rewritten graph
// and the plan the pipeline made for it.
func applyAndCompare(t *testing.T, g *ir.Graph, tol float64, pipeline ...*Pass) (*ir.Graph, *plan.Plan) {
	t.Helper()
	after := g.Copy()
	res, err := Run(after, pipeline, Options{Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 3} {
		in := inputs(t, g, map[string]int{"N": n}, uint64(n))
		want, err := ir.NewInterpreter(g).Run(in...)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ir.NewInterpreter(after).Run(in...)
		if err != nil {
			t.Fatalf("after %s: %v", names(pipeline), err)
		}
		if len(got) != len(want) {
			t.Fatalf("after %s: got %d outputs, want %d", names(pipeline), len(got), len(want))
		}
		for i := range want {
			if d := maxRelDiff(got[i], want[i]); !(d <= tol) {
				t.Errorf("after %s, N=%d, output %d: max relative difference %.3g, want ≤ %.3g", names(pipeline), n, i, d, tol)
			}
		}
	}
	return after, res.Plan()
}

func maxRelDiff(got, want *runtime.Array) float64 {
	if got.Len() != want.Len() {
		return math.Inf(1)
	}
	d := 0.0
	for i := range want.F32 {
		w, g := float64(want.F32[i]), float64(got.F32[i])
		if w != w && g != g || w == g {
			continue // NaN in both, or the same (infinite) value
		}
		d = max(d, math.Abs(g-w)/max(1, math.Abs(w)))
	}
	return d
}

// targets returns the targets of g's call nodes in order, space-separated.
func targets(g *ir.Graph) string {
	var out []string
	for _, n := range g.Nodes() {
		if n.Op == ir.CallFunction || n.Op == ir.CallMethod || n.Op == ir.CallModule {
			out = append(out, n.Target)
		}
	}
	return strings.Join(out, " ")
}

// count returns how many call nodes of g have target op.
func count(g *ir.Graph, op string) int {
	c := 0
	for _, n := range g.Nodes() {
		if (n.Op == ir.CallFunction || n.Op == ir.CallMethod) && n.Target == op {
			c++
		}
	}
	return c
}

var _ = tensor.Relu
