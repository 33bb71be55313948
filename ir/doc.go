// Package ir holds fxgen's intermediate representation: a typed graph of
// tensor operations in the manner of torch.fx, the op vocabulary that gives
// the graph its meaning, and the tools that run, check, print and rewrite
// graphs.
//
// # Graph and nodes
//
// A Graph is a list of Nodes in execution order. Every node has an opcode,
// a unique name, a target, args and kwargs, result Types (dtype and shape,
// whose dims may be symbolic, as in f32[N,784]) and the source position it
// was traced from. The six opcodes are those of torch.fx:
//
//	placeholder    an input of the graph; Target is its name
//	get_attr       a parameter or buffer; Target is its qualified name
//	call_function  an op of the vocabulary written as a function
//	call_method    an op of the vocabulary written as a method
//	call_module    a leaf module of Graph.Modules
//	output         the results of the graph
//
// Nodes are created at the graph's insertion point (the end, unless set
// with SetInsertPoint or InsertingAt with Before or After) and their types
// are inferred on creation. Args are changed only through SetArgs,
// ReplaceInput and ReplaceAllUsesWith, so that every node's Users stay
// exact; EraseNode refuses to erase a node that is still used.
// EliminateDeadCode, Copy and FindNodes cover the usual bookkeeping, and
// Lint checks every invariant, naming the node at fault and the fix.
//
// # The op table
//
// Each op (add, relu, linear, reshape, sum, topk, ...) is declared once, as
// one Op entry of the table in the ops_*.go files (one family a file): its
// PyTorch name, operands, attributes with defaults, type rule, runtime
// kernel, Go method and function names, module form and fusion class.
// Graph construction infers types from it, the Interpreter and eager
// tensors run its kernel, and the emitter generates calls to it. `go
// generate ./ir` (internal/gen/opgen) writes from the table the op name
// constants (OpRelu, ...), the typed kernel calls eager execution uses
// instead of reflection, the methods and functions of package tensor, the
// activation modules of package nn and docs/ops.md; a test fails when any
// of them is stale. Adding an op is one entry and its runtime kernel.
// See Ops and LookupOp.
//
// # Running and transforming
//
// An Interpreter runs a graph on concrete runtime arrays, with an override
// point per opcode. A Transformer walks a graph and builds a new one, again
// with an override point per opcode, so that one node can become several.
// ReplacePattern finds every occurrence of a pattern graph and inlines a
// replacement graph in its place.
//
// # Text, JSON and DOT
//
// Graph.String prints one node per line, the form golden files hold:
//
//	graph():
//	    %x : f32[N,4] = placeholder[target=x](args = (), kwargs = {})
//	    %relu : f32[N,4] = call_function[target=relu](args = (%x), kwargs = {})
//	    return %relu
//
// Tabular prints a table; MarshalJSON and UnmarshalGraph give an exact
// round trip; DOT renders the graph for Graphviz.
//
// # Example
//
// Building and running y = relu(x + 1):
//
//	g := ir.NewGraph()
//	x := g.Placeholder("x", ir.Type{DType: ir.Float32, Shape: ir.Shape{ir.Sym("N"), ir.Const(4)}})
//	add, _ := g.CallFunction("add", []ir.Arg{x, 1.0})
//	relu, _ := g.CallFunction("relu", []ir.Arg{add})
//	g.Output(relu)
//	if err := g.Lint(); err != nil {
//		log.Fatal(err)
//	}
//	outs, err := ir.NewInterpreter(g).Run(runtime.NewArray(ir.Float32, 2, 4))
package ir

//go:generate go run ../internal/gen/opgen -root ..
