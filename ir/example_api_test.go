// This file holds the runnable examples of the interpreter recipes and of
// hand-built graphs: Interpreter, ShapeProp, RunNode, NodeCopy and
// DeclareForward.

package ir_test

import (
	"fmt"
	"strings"

	"github.com/fxgen/fxgen/emit"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
)

// Run a graph on concrete arrays with the kernels eager tensors use.
func ExampleInterpreter() {
	g := smallGraph() // relu(x + 1) * x
	x := runtime.FromFloat32([]float32{-2, -1, 0, 1, 2, 3, 4, 5}, 2, 4)
	outs := check(ir.NewInterpreter(g).Run(x))
	fmt.Println(outs[0].F32)
	// Output:
	// [-0 -0 0 2 6 12 20 30]
}

// ShapeProp, as in torch.fx: run the graph on example inputs and record
// each node's concrete dtype and shape in its Meta, through the RunNode
// hook that sees every node.
func ExampleInterpreter_shapeProp() {
	g := smallGraph()
	it := ir.NewInterpreter(g)
	it.RunNode = func(it *ir.Interpreter, n *ir.Node) (ir.Value, error) {
		v, err := it.DefaultRunNode(n)
		if a, ok := v.(*runtime.Array); ok {
			n.Meta["tensor_meta"] = fmt.Sprintf("%v%v", a.DType, a.Shape)
		}
		return v, err
	}
	check(it.Run(runtime.NewArray(runtime.Float32, 3, 4)))
	for _, n := range g.Nodes() {
		fmt.Println(n.Name, n.Meta["tensor_meta"])
	}
	// Output:
	// x f32[3 4]
	// add f32[3 4]
	// relu f32[3 4]
	// mul f32[3 4]
	// output <nil>
}

// RunNode can also compute some nodes itself: here every relu is the
// identity, the others run as usual.
func ExampleInterpreter_runNode() {
	g := smallGraph() // relu(x + 1) * x
	it := ir.NewInterpreter(g)
	it.RunNode = func(it *ir.Interpreter, n *ir.Node) (ir.Value, error) {
		if n.Target == "relu" {
			return it.Env[n.Args()[0].(*ir.Node)], nil
		}
		return it.DefaultRunNode(n)
	}
	outs := check(it.Run(runtime.FromFloat32([]float32{-3, -1, 1, 2}, 1, 4)))
	fmt.Println(outs[0].F32)
	// Output:
	// [6 -0 2 6]
}

// Copy nodes into a new graph: the parameter a get_attr reads comes along.
func ExampleGraph_NodeCopy() {
	src := ir.NewGraph()
	f32 := ir.Type{DType: ir.Float32, Shape: ir.Shape{ir.Sym("N"), ir.Const(2)}}
	x := src.Placeholder("x", f32)
	src.Params["scale"] = &ir.Param{Name: "scale", Type: ir.Type{DType: ir.Float32, Shape: ir.Shape{ir.Const(2)}},
		Value: runtime.FromFloat32([]float32{10, 100}, 2)}
	w := check(src.GetAttr("scale"))
	check(src.Output(check(src.CallFunction("mul", []ir.Arg{x, w}))))

	dst := ir.NewGraph()
	env := map[*ir.Node]*ir.Node{}
	for _, n := range src.Nodes() {
		env[n] = check(dst.NodeCopy(n, func(a *ir.Node) *ir.Node { return env[a] }))
	}
	fmt.Println("params:", len(dst.Params), "lint:", dst.Lint())
	fmt.Println(check(ir.NewInterpreter(dst).Run(runtime.FromFloat32([]float32{1, 2}, 1, 2)))[0].F32)
	// Output:
	// params: 1 lint: <nil>
	// [10 200]
}

// A hand-built graph is compiled like a traced one once its Go signature
// is declared.
func ExampleGraph_DeclareForward() {
	g := smallGraph()
	sig := check(g.DeclareForward())
	fmt.Println(len(sig.Params), "parameter,", sig.Results, "result")
	src := check(emit.Generate(g, emit.Config{Package: "hand", Type: "Hand"}))
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "func New") || strings.HasPrefix(line, "func (c *HandCompiled) Forward") {
			fmt.Println(line)
		}
	}
	// Output:
	// 1 parameter, 1 result
	// func NewHandCompiled(m *Hand) *HandCompiled {
	// func (c *HandCompiled) Forward(x *tensor.Tensor) *tensor.Tensor {
}
