package tracer_test

import (
	"testing"

	"github.com/fxgen/fxgen/example_models/fxdoc"
	"github.com/fxgen/fxgen/example_models/mlp"
	"github.com/fxgen/fxgen/tracer"
)

// BenchmarkTrace measures tracer.Trace alone on the example models.
func BenchmarkTrace(b *testing.B) {
	for _, m := range []struct {
		name   string
		root   any
		inputs []tracer.Input
	}{
		{"mlp", mlp.NewMLP(), tracer.MustParseInputs("x=f32[N,784]")},
		{"fxdoc", fxdoc.NewFXDoc(), tracer.MustParseInputs("x=f32[N,5,4]")},
	} {
		b.Run(m.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tracer.Trace(m.root, m.inputs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
