// This file checks symbolic sizes: x.Size(i) while tracing, the shapes
// that take it, arithmetic on it, and branching on it.

package tracer_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tracer"
)

// sizesModel reads its batch size the PyTorch way.
type sizesModel struct {
	Cls *tensor.Tensor // [1,1,4]
}

func (m *sizesModel) Forward(x *tensor.Tensor) *tensor.Tensor {
	n := x.Size(0)
	flat := x.View(n, -1)                    // [N,12]
	cls := m.Cls.Expand(n, -1, -1)           // [N,1,4]
	pad := tensor.Zeros(n.Mul(2).Div(2), 12) // [N,12]
	seq := flat.Add(pad).Reshape(n, 3, 4)    // [N,3,4]
	seq = seq.Add(cls)                       // broadcast over dim 1
	return seq.View(n.Mul(3), -1).Add(tensor.Ones(1, 4).ExpandAs(seq.View(-1, 4)))
}

func newSizesModel() *sizesModel {
	return &sizesModel{Cls: testutil.RandFloat32(7, 1, 1, 4)}
}

func TestSymbolicSizes(t *testing.T) {
	m := newSizesModel()
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,3,4]"))
	if err != nil {
		t.Fatal(err)
	}
	c := counts(g)
	for target, want := range map[string]int{"size": 1, "view": 3, "expand": 1, "full": 1, "mul": 2, "floordiv": 1, "expand_as": 1, "reshape": 1} {
		if c[target] != want {
			t.Errorf("%d %s nodes, want %d:\n%v", c[target], target, want, g)
		}
	}
	if got, want := g.OutputNode().Args()[0].(*ir.Node).Type().String(), "f32[3*N,4]"; got != want {
		t.Errorf("result type %s, want %s", got, want)
	}
	if err := g.Lint(); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 5} {
		x := testutil.RandFloat32(3, n, 3, 4)
		want := m.Forward(x)
		got := runGraph(t, g, x)[0]
		if err := testutil.Close(got, want, 0); err != nil {
			t.Errorf("N=%d: interpreter vs eager: %v", n, err)
		}
	}
}

type branchOnSize struct{}

func (branchOnSize) Forward(x *tensor.Tensor) *tensor.Tensor {
	if x.Size(0).Int() > 2 { // branch on size
		return x.Relu()
	}
	return x
}

func TestBranchOnSymbolicSize(t *testing.T) {
	_, err := tracer.Trace(branchOnSize{}, tracer.MustParseInputs("x=f32[N,3]"))
	var te *tracer.TraceError
	if !errors.As(err, &te) {
		t.Fatalf("got %v, want a TraceError", err)
	}
	if !strings.HasSuffix(te.File, "size_test.go") || te.Line != lineOfIn(t, "size_test.go", "// branch on size") || !strings.Contains(te.Msg, "Size") {
		t.Errorf("got %v, want size_test.go:%d and a remedy naming Size", err, lineOfIn(t, "size_test.go", "// branch on size"))
	}
	// A constant dim is a plain int even while tracing.
	if _, err := tracer.Trace(branchOnSize{}, tracer.MustParseInputs("x=f32[4,3]")); err != nil {
		t.Errorf("constant size: %v", err)
	}
}

// lineOfIn returns the line of file holding marker.
func lineOfIn(t *testing.T, file, marker string) int {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, marker) && !strings.Contains(l, "lineOfIn") {
			return i + 1
		}
	}
	t.Fatalf("marker %q not found in %s", marker, file)
	return 0
}
