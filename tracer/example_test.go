package tracer_test

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

type tinyMLP struct{ Fc1, Fc2 *nn.Linear }

func (m *tinyMLP) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.Fc2.Forward(tensor.Relu(m.Fc1.Forward(x)))
}

// Trace a model and print its graph as a table.
func ExampleTrace() {
	m := &tinyMLP{Fc1: nn.NewLinear(8, 16), Fc2: nn.NewLinear(16, 2)}
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,8]"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(g.Tabular())
	// Output:
	// opcode         name    target  args    kwargs  type       pos
	// ------         ----    ------  ----    ------  ----       ---
	// placeholder    x       x       ()      {}      f32[N,8]
	// call_module    fc1     fc1     (x)     {}      f32[N,16]  example_test.go:15
	// call_function  relu    relu    (fc1)   {}      f32[N,16]  example_test.go:15
	// call_module    fc2     fc2     (relu)  {}      f32[N,2]   example_test.go:15
	// output         output  output  (fc2)   {}      ()
}

// Decompose every relu into (x > 0) * x by retracing: the replacement is
// ordinary tensor code over proxies of the graph's nodes.
func ExampleAppender() {
	m := &tinyMLP{Fc1: nn.NewLinear(8, 16), Fc2: nn.NewLinear(16, 2)}
	g, _ := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,8]"))
	app := tracer.NewAppender(g)
	for _, n := range g.FindNodes(ir.CallFunction, "relu") {
		g.InsertingAt(ir.Before(n), func() {
			x := app.Proxy(n.Args()[0].(*ir.Node))
			repl := app.Node(x.GtScalar(0).Mul(x))
			n.ReplaceAllUsesWith(repl, nil)
		})
		g.EraseNode(n)
	}
	for _, n := range g.Nodes() {
		fmt.Println(n.Op, n.Name, n.Target)
	}
	// Output:
	// placeholder x x
	// call_module fc1 fc1
	// call_method gt gt
	// call_method mul mul
	// call_module fc2 fc2
	// output output output
}
