// This file holds the package's runnable examples.

package ir_test

import (
	"fmt"
	"log"

	"github.com/fxgen/fxgen/ir"
)

// check stops the example on an error.
func check[T any](v T, err error) T {
	if err != nil {
		log.Fatal(err)
	}
	return v
}

// smallGraph builds y = relu(x + 1) * x over x of type f32[N,4].
func smallGraph() *ir.Graph {
	g := ir.NewGraph()
	x := g.Placeholder("x", ir.Type{DType: ir.Float32, Shape: ir.Shape{ir.Sym("N"), ir.Const(4)}})
	add := check(g.CallFunction("add", []ir.Arg{x, 1.0}))
	relu := check(g.CallFunction("relu", []ir.Arg{add}))
	mul := check(g.CallFunction("mul", []ir.Arg{relu, x}))
	check(g.Output(mul))
	return g
}

// Build a graph with the Graph methods and print its text form.
func Example() {
	g := ir.NewGraph()
	x := g.Placeholder("x", ir.Type{DType: ir.Float32, Shape: ir.Shape{ir.Sym("N"), ir.Const(4)}})
	add := check(g.CallFunction("add", []ir.Arg{x, 1.0}))
	add.Pos = ir.Pos{File: "model.go", Line: 12}
	relu := check(g.CallFunction("relu", []ir.Arg{add}))
	sum := check(g.CallMethod("sum", []ir.Arg{relu}, ir.Kwarg{Name: "dim", Value: []int{1}}))
	check(g.Output(sum))
	fmt.Print(g)
	// Output:
	// graph():
	//     %x : f32[N,4] = placeholder[target=x](args = (), kwargs = {})
	//     %add : f32[N,4] = call_function[target=add](args = (%x, 1.0), kwargs = {})  # model.go:12
	//     %relu : f32[N,4] = call_function[target=relu](args = (%add), kwargs = {})
	//     %sum : f32[N] = call_method[target=sum](args = (%relu), kwargs = {dim: [1]})
	//     return %sum
}

// Replace every add by a mul by editing the nodes in place: SetTarget keeps
// the args and infers the types again.
func Example_replaceAddWithMul() {
	g := smallGraph()
	for _, n := range g.FindNodes(ir.CallFunction, "add") {
		if err := n.SetTarget("mul"); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Print(g)
	// Output:
	// graph():
	//     %x : f32[N,4] = placeholder[target=x](args = (), kwargs = {})
	//     %add : f32[N,4] = call_function[target=mul](args = (%x, 1.0), kwargs = {})
	//     %relu : f32[N,4] = call_function[target=relu](args = (%add), kwargs = {})
	//     %mul : f32[N,4] = call_function[target=mul](args = (%relu, %x), kwargs = {})
	//     return %mul
}

// Insert a relu after a node and make the node's other users read it.
func Example_insertRelu() {
	g := smallGraph()
	mul := g.FindNodes(ir.CallFunction, "mul")[0]
	var relu *ir.Node
	g.InsertingAt(ir.After(mul), func() {
		relu = check(g.CallFunction("relu", []ir.Arg{mul}))
	})
	// ReplaceAllUsesWith leaves the new relu itself alone.
	users := check(mul.ReplaceAllUsesWith(relu, nil))
	fmt.Println("rewired:", users[0].Name)
	fmt.Print(g)
	fmt.Println("lint:", g.Lint())
	// Output:
	// rewired: output
	// graph():
	//     %x : f32[N,4] = placeholder[target=x](args = (), kwargs = {})
	//     %add : f32[N,4] = call_function[target=add](args = (%x, 1.0), kwargs = {})
	//     %relu : f32[N,4] = call_function[target=relu](args = (%add), kwargs = {})
	//     %mul : f32[N,4] = call_function[target=mul](args = (%relu, %x), kwargs = {})
	//     %relu_1 : f32[N,4] = call_function[target=relu](args = (%mul), kwargs = {})
	//     return %relu_1
	// lint: <nil>
}

// Lint names each node at fault and the fix.
func ExampleGraph_Lint() {
	g := smallGraph()
	// Nodes added at the end land after the output.
	x := g.Placeholders()[0]
	check(g.CallFunction("neg", []ir.Arg{x}))
	g.Placeholder("y", ir.Type{DType: ir.Float32, Shape: ir.Shape{}})
	fmt.Println(g.Lint())
	// Output:
	// node output: output is followed by neg; move the output to the end
	// node y: placeholder comes after call_function add; move it before add
}

// DOT renders a graph for Graphviz.
func ExampleGraph_DOT() {
	g := ir.NewGraph()
	x := g.Placeholder("x", ir.Type{DType: ir.Float32, Shape: ir.Shape{ir.Sym("N"), ir.Const(4)}})
	relu := check(g.CallFunction("relu", []ir.Arg{x}))
	check(g.Output(relu))
	fmt.Print(g.DOT())
	// Output:
	// digraph G {
	// 	rankdir=TB;
	// 	node [fontname="monospace"];
	// 	"x" [label="x\nplaceholder\nf32[N,4]", shape=ellipse];
	// 	"relu" [label="relu\ncall_function relu\nf32[N,4]", shape=box];
	// 	"output" [label="output\noutput", shape=doubleoctagon];
	// 	"x" -> "relu";
	// 	"relu" -> "output";
	// }
}

// A Transformer rebuilds a graph; here every relu becomes (x > 0) * x.
func ExampleTransformer() {
	t := ir.NewTransformer(smallGraph())
	t.CallFunction = func(t *ir.Transformer, n *ir.Node, args []ir.Arg, kwargs []ir.Kwarg) (*ir.Node, error) {
		if n.Target != "relu" {
			return t.DefaultCallFunction(n, args, kwargs)
		}
		pos, err := t.New.CallFunction("gt", []ir.Arg{args[0], 0.0})
		if err != nil {
			return nil, err
		}
		return t.New.CallFunction("mul", []ir.Arg{pos, args[0]})
	}
	g := check(t.Transform())
	fmt.Print(g)
	// Output:
	// graph():
	//     %x : f32[N,4] = placeholder[target=x](args = (), kwargs = {})
	//     %add : f32[N,4] = call_function[target=add](args = (%x, 1.0), kwargs = {})
	//     %gt : bool[N,4] = call_function[target=gt](args = (%add, 0.0), kwargs = {})
	//     %mul : f32[N,4] = call_function[target=mul](args = (%gt, %add), kwargs = {})
	//     %mul_1 : f32[N,4] = call_function[target=mul](args = (%mul, %x), kwargs = {})
	//     return %mul_1
}

// ReplacePattern rewrites every relu(a + b) as relu(a - (-b)).
func ExampleReplacePattern() {
	f32 := ir.Type{DType: ir.Float32, Shape: ir.Shape{ir.Sym("N"), ir.Const(4)}}
	pattern := ir.NewGraph()
	a, b := pattern.Placeholder("a", f32), pattern.Placeholder("b", f32)
	check(pattern.Output(check(pattern.CallFunction("relu", []ir.Arg{check(pattern.CallFunction("add", []ir.Arg{a, b}))}))))

	replacement := ir.NewGraph()
	a, b = replacement.Placeholder("a", f32), replacement.Placeholder("b", f32)
	neg := check(replacement.CallFunction("neg", []ir.Arg{b}))
	sub := check(replacement.CallFunction("sub", []ir.Arg{a, neg}))
	check(replacement.Output(check(replacement.CallFunction("relu", []ir.Arg{sub}))))

	g := ir.NewGraph()
	x, y := g.Placeholder("x", f32), g.Placeholder("y", f32)
	check(g.Output(check(g.CallFunction("relu", []ir.Arg{check(g.CallFunction("add", []ir.Arg{x, y}))}))))

	matches := check(ir.ReplacePattern(g, pattern, replacement))
	fmt.Println(len(matches), "match at", matches[0].Anchor.Name)
	fmt.Print(g)
	// Output:
	// 1 match at relu
	// graph():
	//     %x : f32[N,4] = placeholder[target=x](args = (), kwargs = {})
	//     %y : f32[N,4] = placeholder[target=y](args = (), kwargs = {})
	//     %neg : f32[N,4] = call_function[target=neg](args = (%y), kwargs = {})
	//     %sub : f32[N,4] = call_function[target=sub](args = (%x, %neg), kwargs = {})
	//     %relu_1 : f32[N,4] = call_function[target=relu](args = (%sub), kwargs = {})
	//     return %relu_1
}
