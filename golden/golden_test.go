// This file compares the example models' graphs and generated code with
// the golden files.

package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fxgen/fxgen/emit"
	"github.com/fxgen/fxgen/example_models/fxdoc"
	"github.com/fxgen/fxgen/example_models/mlp"
	"github.com/fxgen/fxgen/passes"
	"github.com/fxgen/fxgen/tracer"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// goldenModel is one example model as its go:generate directive traces it.
type goldenModel struct {
	name   string
	root   func() any
	inputs []string
	file   string // the checked-in generated file, under example_models
	cfg    emit.Config
}

var goldenModels = []goldenModel{
	{"mlp", func() any { return mlp.NewMLP() }, []string{"x=f32[N,784]"}, "mlp/mlp_fx.go",
		emit.Config{Package: "mlp", Type: "MLP", Command: `-type MLP -input "x=f32[N,784]"`}},
	{"fxdoc", func() any { return fxdoc.NewFXDoc() }, []string{"x=f32[N,5,4]"}, "fxdoc/fxdoc_fx.go",
		emit.Config{Package: "fxdoc", Type: "FXDoc", Command: `-type FXDoc -input "x=f32[N,5,4]"`}},
}

// compareGolden compares got with the golden file, or rewrites it under
// -update.
func compareGolden(t *testing.T, file string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", file)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./golden -update to create it)", err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")); diff != "" {
		t.Errorf("%s differs from the golden file (-want +got); run go test ./golden -update if the change is intended:\n%s", path, diff)
	}
}

func TestGolden(t *testing.T) {
	for _, m := range goldenModels {
		t.Run(m.name, func(t *testing.T) {
			g, err := tracer.Trace(m.root(), tracer.MustParseInputs(m.inputs...))
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, m.name+".graph.txt", []byte(g.Tabular()+"\n"+g.String()))
			// go generate runs the default pipeline on the traced graph.
			res, err := passes.Run(g, passes.Default, passes.Options{Debug: true})
			if err != nil {
				t.Fatal(err)
			}
			cfg := m.cfg
			cfg.Plan = res.Plan()
			src, err := emit.Generate(g, cfg)
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, m.name+"_fx.go.golden", src)
			// The checked-in file is what go generate writes: the same bytes.
			onDisk, err := os.ReadFile(filepath.Join("..", "example_models", m.file))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(strings.Split(string(onDisk), "\n"), strings.Split(string(src), "\n")); diff != "" {
				t.Errorf("example_models/%s is stale; run go generate ./example_models/... (-disk +generated):\n%s", m.file, diff)
			}
			// Tracing twice gives the same bytes.
			g2, err := tracer.Trace(m.root(), tracer.MustParseInputs(m.inputs...))
			if err != nil {
				t.Fatal(err)
			}
			res2, err := passes.Run(g2, passes.Default, passes.Options{Debug: true})
			if err != nil {
				t.Fatal(err)
			}
			cfg.Plan = res2.Plan()
			src2, err := emit.Generate(g2, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if string(src) != string(src2) {
				t.Errorf("generated code differs between two traces of the same model")
			}
		})
	}
}
