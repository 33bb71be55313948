// This file tests Run and the pass table: order constraints, errors and
// panics named by pass, lint between passes, dump after a pass.

package passes

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/ir"
)

func TestDefaultPipelineRespectsConstraints(t *testing.T) {
	if err := Check(Default); err != nil {
		t.Fatal(err)
	}
	for _, c := range Constraints {
		if Lookup(c.Before) == nil || Lookup(c.After) == nil {
			t.Errorf("constraint %s < %s names a pass that does not exist", c.Before, c.After)
		}
		if c.Reason == "" {
			t.Errorf("constraint %s < %s has no reason", c.Before, c.After)
		}
	}
	for _, p := range All {
		if p.Doc == "" || !strings.HasPrefix(p.Doc, p.Name+" ") {
			t.Errorf("pass %s: doc %q should start with its name", p.Name, p.Doc)
		}
	}
}

func TestCheckAndParse(t *testing.T) {
	for _, c := range []struct{ list, err string }{
		{"none", ""},
		{"", ""},
		{"default", ""},
		{"dce", ""},
		{"lower-modules,fold-batchnorm", ""},
		{"fold-batchnorm,lower-modules", "lower-modules must run before fold-batchnorm"},
		{"dce,dce", "appears twice"},
		{"dce,nope", `unknown pass "nope"`},
	} {
		_, err := Parse(c.list)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("Parse(%q): got error %v, want %q", c.list, err, c.err)
		}
	}
	p, _ := Parse("default")
	if names(p) != names(Default) {
		t.Errorf("Parse(default) = %s, want %s", names(p), names(Default))
	}
}

func TestRunNamesTheFailingPass(t *testing.T) {
	g := trace(t, newConvNet(), "x=f32[N,3,8,8]")
	fails := &Pass{Name: "fails", Doc: "fails always", Run: func(*Context) (any, error) { return nil, errors.New("no luck") }}
	panics := &Pass{Name: "panics", Doc: "panics always", Run: func(*Context) (any, error) { panic("boom") }}
	breaks := &Pass{Name: "breaks", Doc: "breaks the graph", Run: func(c *Context) (any, error) {
		// Move the output's value after the output: lint must catch it.
		g := c.Graph
		out := g.OutputNode()
		g.InsertingAt(g.AtEnd(), func() { _, _ = g.CallFunction("relu", []ir.Arg{out.Args()[0]}) })
		return nil, nil
	}}
	untyped := &Pass{Name: "untyped", Doc: "returns a result it does not declare", Run: func(*Context) (any, error) { return 1, nil }}
	mistyped := &Pass{Name: "mistyped", Doc: "returns a result not of its type", ResultType: reflect.TypeOf(""),
		Run: func(*Context) (any, error) { return 1, nil }}
	for _, c := range []struct {
		p    *Pass
		want string
	}{
		{fails, "passes: fails: no luck"},
		{panics, "passes: panics: panic: boom"},
		{breaks, "passes: breaks: left an invalid graph"},
		{untyped, "passes: untyped: returned a int but declares no ResultType"},
		{mistyped, "passes: mistyped: returned a int, want its ResultType string"},
	} {
		_, err := Run(g.Copy(), []*Pass{DCE, c.p}, Options{Debug: true})
		var pe *Error
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &pe) || pe.Pass != c.p.Name {
			t.Errorf("Run with %s: got %v, want an *Error containing %q", c.p.Name, err, c.want)
		}
	}
	// Without Debug the broken graph goes unnoticed by Run.
	if _, err := Run(g.Copy(), []*Pass{breaks}, Options{}); err != nil {
		t.Errorf("Run without Debug: got %v, want nil", err)
	}
}

func TestDumpAfter(t *testing.T) {
	g := trace(t, newConvNet(), "x=f32[N,3,8,8]")
	var b strings.Builder
	if _, err := Run(g, Default, Options{Debug: true, DumpAfter: "fold-batchnorm", Dump: &b}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "# graph after fold-batchnorm\n") || strings.Contains(out, "batch_norm(conv1") || !strings.Contains(out, "relu") {
		t.Errorf("dump after fold-batchnorm:\n%s", out)
	}
	if _, err := Run(g, []*Pass{DCE}, Options{DumpAfter: "fold-batchnorm"}); err == nil || !strings.Contains(err.Error(), "no such pass") {
		t.Errorf("DumpAfter a pass not in the pipeline: got %v, want an error", err)
	}
}

// TestRequires checks that a required analysis runs before the pass that
// requires it, again after a transformation invalidates its result, and
// not at all while its result holds; and that a required transformation
// must come earlier in the pipeline.
func TestRequires(t *testing.T) {
	g := trace(t, newConvNet(), "x=f32[N,3,8,8]")
	runs := 0
	count := &Pass{Name: "count", Doc: "counts its runs", Analysis: true, Optional: true, ResultType: reflect.TypeOf(0),
		Run: func(*Context) (any, error) { runs++; return runs, nil }}
	var seen []any
	reader := func(name string) *Pass {
		return &Pass{Name: name, Doc: "reads count", Analysis: true, Requires: []*Pass{count},
			Run: func(c *Context) (any, error) { seen = append(seen, c.ResultOf[count]); return nil, nil }}
	}
	res, err := Run(g, []*Pass{reader("a"), reader("b"), DCE, reader("c")}, Options{Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []any{1, 1, 2}; !reflect.DeepEqual(seen, want) {
		t.Errorf("results seen: got %v, want %v (run once, again after dce)", seen, want)
	}
	if got := res.Of(count); got != 2 {
		t.Errorf("Results.Of(count) = %v, want 2", got)
	}
	needsDCE := &Pass{Name: "needs-dce", Doc: "requires a transformation", Requires: []*Pass{DCE},
		Run: func(*Context) (any, error) { return nil, nil }}
	if _, err := Run(g, []*Pass{needsDCE, DCE}, Options{}); err == nil || !strings.Contains(err.Error(), "requires dce") {
		t.Errorf("a transformation required later: got %v, want an error", err)
	}
	if _, err := Run(g, []*Pass{DCE, needsDCE}, Options{}); err != nil {
		t.Errorf("a transformation required earlier: %v", err)
	}
}

// TestResultsPlan checks that the default pipeline hands the emitter its
// plan as a value, and that a transformation after plan-memory drops it.
func TestResultsPlan(t *testing.T) {
	g := trace(t, newConvNet(), "x=f32[N,3,8,8]")
	res, err := Run(g, Default, Options{Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Plan()
	if p.Memory == nil || p.Memory.SlotCount() == 0 || len(p.ParamOnly) == 0 {
		t.Fatalf("Plan after the default pipeline: %+v, want a memory plan and parameter-only nodes", p)
	}
	res, err = Run(g, []*Pass{PlanMemory, &Pass{Name: "edit", Doc: "changes nothing but is a transformation",
		Run: func(*Context) (any, error) { return nil, nil }}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Plan(); p.Memory != nil {
		t.Errorf("a memory plan survived a later transformation")
	}
}
