package tracer_test

import (
	"testing"

	"github.com/fxgen/fxgen/example_models/dlrm"
	"github.com/fxgen/fxgen/example_models/fxdoc"
	"github.com/fxgen/fxgen/example_models/lstm"
	"github.com/fxgen/fxgen/example_models/mlp"
	"github.com/fxgen/fxgen/example_models/resnet18"
	"github.com/fxgen/fxgen/example_models/resnet20"
	"github.com/fxgen/fxgen/example_models/transformer"
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
		{"resnet20", resnet20.NewResNet20(), tracer.MustParseInputs("x=f32[N,3,32,32]")},
		{"resnet18", resnet18.NewResNet18(), tracer.MustParseInputs("x=f32[N,3,224,224]")},
		{"transformer", transformer.NewTransformer(), tracer.MustParseInputs("tokens=i64[N,128]")},
		{"dlrm", dlrm.NewDLRM(), tracer.MustParseInputs("dense=f32[N,13]", "sparse=i64[N,8]")},
		{"lstm", lstm.NewLSTM(), tracer.MustParseInputs("x=f32[N,16,128]", "h0=f32[N,256]", "c0=f32[N,256]")},
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
