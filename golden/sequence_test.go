// This file adds the sequence and recommender models to the golden files.

package golden

import (
	"github.com/fxgen/fxgen/emit"
	"github.com/fxgen/fxgen/example_models/dlrm"
	"github.com/fxgen/fxgen/example_models/lstm"
	"github.com/fxgen/fxgen/example_models/transformer"
)

func init() {
	goldenModels = append(goldenModels,
		goldenModel{"lstm", func() any { return lstm.NewLSTM() },
			[]string{"x=f32[N,16,128]", "h0=f32[N,256]", "c0=f32[N,256]"}, "lstm/lstm_fx.go",
			emit.Config{Package: "lstm", Type: "LSTM", Command: `-type LSTM -input "x=f32[N,16,128]" -input "h0=f32[N,256]" -input "c0=f32[N,256]"`}},
		goldenModel{"dlrm", func() any { return dlrm.NewDLRM() },
			[]string{"dense=f32[N,13]", "sparse=i64[N,8]"}, "dlrm/dlrm_fx.go",
			emit.Config{Package: "dlrm", Type: "DLRM", Command: `-type DLRM -input "dense=f32[N,13]" -input "sparse=i64[N,8]"`}},
		goldenModel{"transformer", func() any { return transformer.NewTransformer() },
			[]string{"tokens=i64[N,128]"}, "transformer/transformer_fx.go",
			emit.Config{Package: "transformer", Type: "Transformer", Command: `-type Transformer -input "tokens=i64[N,128]"`}},
	)
}
