// This file tests Run and the pass table: order constraints, errors and
// panics named by pass, lint between passes, dump after a pass.

package passes

import (
	"errors"
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
	fails := &Pass{Name: "fails", Doc: "fails always", Run: func(*ir.Graph) error { return errors.New("no luck") }}
	panics := &Pass{Name: "panics", Doc: "panics always", Run: func(*ir.Graph) error { panic("boom") }}
	breaks := &Pass{Name: "breaks", Doc: "breaks the graph", Run: func(g *ir.Graph) error {
		// Move the output's value after the output: lint must catch it.
		out := g.OutputNode()
		g.InsertingAt(g.AtEnd(), func() { _, _ = g.CallFunction("relu", []ir.Arg{out.Args()[0]}) })
		return nil
	}}
	for _, c := range []struct {
		p    *Pass
		want string
	}{
		{fails, "passes: fails: no luck"},
		{panics, "passes: panics: panic: boom"},
		{breaks, "passes: breaks: left an invalid graph"},
	} {
		err := Run(g.Copy(), []*Pass{DCE, c.p}, Options{Debug: true})
		var pe *Error
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &pe) || pe.Pass != c.p.Name {
			t.Errorf("Run with %s: got %v, want an *Error containing %q", c.p.Name, err, c.want)
		}
	}
	// Without Debug the broken graph goes unnoticed by Run.
	if err := Run(g.Copy(), []*Pass{breaks}, Options{}); err != nil {
		t.Errorf("Run without Debug: got %v, want nil", err)
	}
}

func TestDumpAfter(t *testing.T) {
	g := trace(t, newConvNet(), "x=f32[N,3,8,8]")
	var b strings.Builder
	if err := Run(g, Default, Options{Debug: true, DumpAfter: "fold-batchnorm", Dump: &b}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "# graph after fold-batchnorm\n") || strings.Contains(out, "batch_norm(conv1") || !strings.Contains(out, "relu") {
		t.Errorf("dump after fold-batchnorm:\n%s", out)
	}
	if err := Run(g, []*Pass{DCE}, Options{DumpAfter: "fold-batchnorm"}); err == nil || !strings.Contains(err.Error(), "no such pass") {
		t.Errorf("DumpAfter a pass not in the pipeline: got %v, want an error", err)
	}
}
