// This file holds the graph transformations whose results are compiled.

package seeds

import (
	"fmt"

	"github.com/fxgen/fxgen/emit"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tracer"
)

// Transformed is a model whose traced graph is transformed before it is
// emitted to File with the compiled type Compiled.
type Transformed struct {
	File     string
	Root     func() any
	Inputs   []string
	Cfg      emit.Config
	Rewrite  func(g *ir.Graph) (*ir.Graph, error)
	Describe string
}

// TransformedModels are the transformed seed cases; a test regenerates
// each file and compares it with the checked-in copy.
var TransformedModels = []Transformed{
	{
		File: "two_relu_decomposed_fx.go", Root: func() any { return NewTwoRelu() }, Inputs: []string{"x=f32[N,6]"},
		Cfg:      emit.Config{Package: "seeds", Type: "TwoRelu", Compiled: "TwoReluDecomposed", Command: "(test) relu decomposed into (x > 0) * x"},
		Rewrite:  inPlace(DecomposeRelu),
		Describe: "every relu replaced by (x > 0) * x, retraced through proxies",
	},
	{
		File: "add_pair_mul_fx.go", Root: func() any { return NewAddPair() }, Inputs: []string{"x=f32[N,4]", "y=f32[N,4]"},
		Cfg:      emit.Config{Package: "seeds", Type: "AddPair", Compiled: "AddPairMul", Command: "(test) every add replaced by mul"},
		Rewrite:  inPlace(AddToMul),
		Describe: "every add replaced by mul by editing node targets",
	},
	{
		File: "add_pair_sub_fx.go", Root: func() any { return NewAddPair() }, Inputs: []string{"x=f32[N,4]", "y=f32[N,4]"},
		Cfg:      emit.Config{Package: "seeds", Type: "AddPair", Compiled: "AddPairSub", Command: "(test) a Transformer that rewrites add as sub"},
		Rewrite:  AddToSubTransformer,
		Describe: "a Transformer that rebuilds the graph, writing sub where it meets add",
	},
	{
		File: "add_relu_mul_fx.go", Root: func() any { return NewAddRelu() }, Inputs: []string{"x=f32[N,4]", "y=f32[N,4]"},
		Cfg:      emit.Config{Package: "seeds", Type: "AddRelu", Compiled: "AddReluMul", Command: "(test) relu(a + b) replaced by a * b with the subgraph rewriter"},
		Rewrite:  ReplaceAddReluWithMul,
		Describe: "the subgraph rewriter replacing relu(a + b) by a * b",
	},
}

// inPlace adapts an in-place graph edit to Rewrite.
func inPlace(edit func(*ir.Graph) error) func(*ir.Graph) (*ir.Graph, error) {
	return func(g *ir.Graph) (*ir.Graph, error) { return g, edit(g) }
}

// AddToSubTransformer rebuilds g with a Transformer that writes sub for
// every add it meets, copying every other node.
func AddToSubTransformer(g *ir.Graph) (*ir.Graph, error) {
	t := ir.NewTransformer(g)
	t.CallFunction = func(t *ir.Transformer, n *ir.Node, args []ir.Arg, kwargs []ir.Kwarg) (*ir.Node, error) {
		if n.Target == "add" {
			return t.New.CallFunction("sub", args, kwargs...)
		}
		return t.DefaultCallFunction(n, args, kwargs)
	}
	out, err := t.Transform()
	if err != nil {
		return nil, err
	}
	return out, out.Lint()
}

// addReluPattern and mulReplacement are the pattern and the replacement
// of ReplaceAddReluWithMul, written as Go and traced.
type addReluPattern struct{}

func (addReluPattern) Forward(a, b *tensor.Tensor) *tensor.Tensor {
	return tensor.Relu(tensor.Add(a, b))
}

type mulReplacement struct{}

func (mulReplacement) Forward(a, b *tensor.Tensor) *tensor.Tensor { return tensor.Mul(a, b) }

// ReplaceAddReluWithMul replaces every relu(a + b) in g by a * b with the
// subgraph rewriter, the pattern and replacement traced from Go.
func ReplaceAddReluWithMul(g *ir.Graph) (*ir.Graph, error) {
	specs := tracer.MustParseInputs("a=f32[N,4]", "b=f32[N,4]")
	pattern, err := tracer.Trace(addReluPattern{}, specs)
	if err != nil {
		return nil, err
	}
	replacement, err := tracer.Trace(mulReplacement{}, specs)
	if err != nil {
		return nil, err
	}
	matches, err := ir.ReplacePattern(g, pattern, replacement)
	if err != nil {
		return nil, err
	}
	if len(matches) != 1 {
		return nil, fmt.Errorf("ReplaceAddReluWithMul: %d matches, want 1", len(matches))
	}
	return g, g.Lint()
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
	g, err = t.Rewrite(g)
	if err != nil {
		return nil, err
	}
	return emit.Generate(g, t.Cfg)
}
