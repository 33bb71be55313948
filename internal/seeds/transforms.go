// This file holds the graph transformations whose results are compiled.

package seeds

import (
	"github.com/fxgen/fxgen/emit"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tracer"
)

// Transformed is a model whose traced graph is transformed before it is
// emitted to File with the compiled type Compiled.
type Transformed struct {
	File     string
	Root     func() any
	Inputs   []string
	Cfg      emit.Config
	Rewrite  func(g *ir.Graph) error
	Describe string
}

// TransformedModels are the transformed seed cases; a test regenerates
// each file and compares it with the checked-in copy.
var TransformedModels = []Transformed{
	{
		File: "two_relu_decomposed_fx.go", Root: func() any { return NewTwoRelu() }, Inputs: []string{"x=f32[N,6]"},
		Cfg:      emit.Config{Package: "seeds", Type: "TwoRelu", Compiled: "TwoReluDecomposed", Command: "(test) relu decomposed into (x > 0) * x"},
		Rewrite:  DecomposeRelu,
		Describe: "every relu replaced by (x > 0) * x, retraced through proxies",
	},
	{
		File: "add_pair_mul_fx.go", Root: func() any { return NewAddPair() }, Inputs: []string{"x=f32[N,4]", "y=f32[N,4]"},
		Cfg:      emit.Config{Package: "seeds", Type: "AddPair", Compiled: "AddPairMul", Command: "(test) every add replaced by mul"},
		Rewrite:  AddToMul,
		Describe: "every add replaced by mul by editing node targets",
	},
}

// DecomposeRelu replaces every relu by (x > 0) * x, written as tensor code
// over proxies of the graph's nodes.
func DecomposeRelu(g *ir.Graph) error {
	app := tracer.NewAppender(g)
	for _, n := range g.FindNodes(ir.CallFunction, "relu") {
		var err error
		g.InsertingAt(ir.Before(n), func() {
			x := app.Proxy(n.Args()[0].(*ir.Node))
			_, err = n.ReplaceAllUsesWith(app.Node(x.GtScalar(0).Mul(x)), nil)
		})
		if err != nil {
			return err
		}
		if err := g.EraseNode(n); err != nil {
			return err
		}
	}
	return g.Lint()
}

// AddToMul changes the target of every add to mul.
func AddToMul(g *ir.Graph) error {
	for _, n := range g.Nodes() {
		if n.Target == "add" && (n.Op == ir.CallFunction || n.Op == ir.CallMethod) {
			if err := n.SetTarget("mul"); err != nil {
				return err
			}
		}
	}
	return g.Lint()
}

// Generate traces, transforms and emits t.
func (t Transformed) Generate() ([]byte, error) {
	g, err := tracer.Trace(t.Root(), tracer.MustParseInputs(t.Inputs...))
	if err != nil {
		return nil, err
	}
	if err := t.Rewrite(g); err != nil {
		return nil, err
	}
	return emit.Generate(g, t.Cfg)
}
