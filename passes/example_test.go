package passes_test

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/passes"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tracer"
)

// DropScale is a user's pass: it removes every multiplication by a
// number, making its users use what it multiplied. Declared as an
// exported variable in a package of the user's module, say
// example.com/m/mypasses, it runs inside go generate with
//
//	//go:generate go tool fxgen -type Scaled -input "x=f32[N,4]" -pass example.com/m/mypasses.DropScale
//
// fxgen's driver, built in the user's module, runs it on the traced graph
// before the built-in pipeline.
var DropScale = &passes.Pass{
	Name: "drop-scale",
	Doc:  "drop-scale removes every multiplication by a number.",
	Run: func(c *passes.Context) (any, error) {
		g := c.Graph
		for _, n := range g.Nodes() {
			if n.Target != "mul" || len(n.Args()) != 2 || !ir.IsNumber(n.Args()[1]) {
				continue
			}
			if _, err := n.ReplaceAllUsesWith(n.Args()[0].(*ir.Node), nil); err != nil {
				return nil, err
			}
			if err := g.EraseNode(n); err != nil {
				return nil, err
			}
		}
		return nil, nil
	},
}

type Scaled struct{}

func (Scaled) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Relu().MulScalar(2).Neg() }

// A pass of one's own is a Pass value; Run applies it (and what it
// requires) like the built-in ones.
func ExamplePass() {
	g, err := tracer.Trace(Scaled{}, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := passes.Run(g, []*passes.Pass{DropScale}, passes.Options{Debug: true}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(g)
	// Output:
	// graph():
	//     %x : f32[N,4] = placeholder[target=x](args = (), kwargs = {})
	//     %relu : f32[N,4] = call_method[target=relu](args = (%x), kwargs = {})  # example_test.go:43
	//     %neg : f32[N,4] = call_method[target=neg](args = (%relu), kwargs = {})  # example_test.go:43
	//     return %neg
}
