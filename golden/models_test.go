// This file holds the one table of example models the golden tests run.

package golden

import (
	"path/filepath"
	"strings"

	"github.com/fxgen/fxgen/emit"
	"github.com/fxgen/fxgen/example_models/dlrm"
	"github.com/fxgen/fxgen/example_models/fxdoc"
	"github.com/fxgen/fxgen/example_models/lstm"
	"github.com/fxgen/fxgen/example_models/mlp"
	"github.com/fxgen/fxgen/example_models/resnet18"
	"github.com/fxgen/fxgen/example_models/resnet20"
	"github.com/fxgen/fxgen/example_models/transformer"
)

// goldenModel is one example model as its go:generate directive traces it.
type goldenModel struct {
	name   string // the directory under example_models, and the package
	typ    string // -type
	root   func() any
	inputs []string // -input, in order
	file   string   // the generated file, in the model's directory
	vision bool     // compared node by node with torch.fx's graph
}

var goldenModels = []goldenModel{
	{"mlp", "MLP", func() any { return mlp.NewMLP() }, []string{"x=f32[N,784]"}, "mlp_fx.go", false},
	{"fxdoc", "FXDoc", func() any { return fxdoc.NewFXDoc() }, []string{"x=f32[N,5,4]"}, "fxdoc_fx.go", false},
	{"resnet20", "ResNet20", func() any { return resnet20.NewResNet20() }, []string{"x=f32[N,3,32,32]"}, "resnet20_fx.go", true},
	{"resnet18", "ResNet18", func() any { return resnet18.NewResNet18() }, []string{"x=f32[N,3,224,224]"}, "resnet18_fx.go", true},
	{"lstm", "LSTM", func() any { return lstm.NewLSTM() }, []string{"x=f32[N,16,128]", "h0=f32[N,256]", "c0=f32[N,256]"}, "lstm_fx.go", false},
	{"dlrm", "DLRM", func() any { return dlrm.NewDLRM() }, []string{"dense=f32[N,13]", "sparse=i64[N,8]"}, "dlrm_fx.go", false},
	{"transformer", "Transformer", func() any { return transformer.NewTransformer() }, []string{"tokens=i64[N,128]"}, "transformer_fx.go", false},
}

// cfg returns the emitter's configuration for m as fxgen sets it: the
// command recorded in the header is the directive's -type and -inputs.
func (m goldenModel) cfg() emit.Config {
	cmd := "-type " + m.typ
	for _, in := range m.inputs {
		cmd += ` -input "` + in + `"`
	}
	return emit.Config{Package: m.name, Type: m.typ, Command: cmd}
}

// goPath and graphPath are the checked-in generated file and graph file.
func (m goldenModel) goPath() string { return filepath.Join("..", "example_models", m.name, m.file) }

func (m goldenModel) graphPath() string { return strings.TrimSuffix(m.goPath(), ".go") + ".graph" }
