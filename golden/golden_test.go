// This file compares the example models' traced graphs with the golden
// files, and their generated code and graph files with the checked-in
// ones.

package golden

import (
	"path/filepath"
	"testing"

	"github.com/fxgen/fxgen/emit"
	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/passes"
	"github.com/fxgen/fxgen/tracer"
)

func TestGolden(t *testing.T) {
	for _, m := range goldenModels {
		t.Run(m.name, func(t *testing.T) {
			g, err := tracer.Trace(m.root(), tracer.MustParseInputs(m.inputs...))
			if err != nil {
				t.Fatal(err)
			}
			testutil.CompareFile(t, filepath.Join("testdata", m.name+".graph.txt"), []byte(g.Tabular()+"\n"+g.String()))
			// go generate runs the default pipeline on the traced graph.
			res, err := passes.Run(g, passes.Default, passes.Options{Debug: true})
			if err != nil {
				t.Fatal(err)
			}
			cfg := m.cfg()
			cfg.Plan = res.Plan()
			src, err := emit.Generate(g, cfg)
			if err != nil {
				t.Fatal(err)
			}
			// The golden files of the generated code are the checked-in
			// files go generate writes: one copy of each.
			testutil.CompareFile(t, m.goPath(), src)
			testutil.CompareFile(t, m.graphPath(), emit.GraphFile(g, cfg.Plan, m.name+"."+m.typ))
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
