// Package tracer captures a model's Forward as an ir.Graph, in the manner
// of torch.fx's symbolic tracing: Trace calls Forward with symbolic tensors
// for its tensor parameters, and every op on them records a node.
//
//	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,784]"))
//
// Forward is ordinary Go that really runs: branches and loops on Go values
// (fields, concrete arguments, constant sizes) run natively and leave only
// the ops they reach in the graph. Turning a symbolic value into a Go value
// (Item, Bool, Float32s, Size(i).Int() of a symbolic size, Dim(i) and
// Shape() of a symbolic dim) is dynamic control flow: the trace stops with
// a *TraceError at the model's file:line that names the remedies.
//
// # Options
//
// Concrete binds Forward's non-tensor parameters. Leaf (fxgen -leaf),
// LeafRule and IsLeaf choose the leaf modules: standard nn modules are
// leaves by default, user modules are traced through. Wrap makes a Go
// function one call_function node. Appender records tensor code into an
// existing graph, for transformations written as tensor code.
//
// # Sizes
//
// x.Size(i) is a tensor.Size: an int eagerly, and while tracing a size node
// (x.size(i) in torch.fx) whose static value is a dim of the input specs
// (N, 4*N). View, Reshape, Expand, Zeros, Ones and Full take it; Mul, Div,
// Add and Sub on it are recorded. Generated code reads the sizes from its
// inputs at run time.
//
// # Leaves
//
// A leaf user module is one call_module node and is never traced through,
// so its Forward may hold dynamic control flow; the compiled model calls it.
// Its result types come from, in order: a LeafRule for its path or type, a
// ResultTypes method (ResultTyper), or two eager runs of its Forward on
// zeros of its argument types, off the tracing goroutine, with each symbol
// given two different sizes. A leaf is called through nn.Call (or
// tensor.CallModule) with a pointer; calling its Forward directly, which
// would trace through it, is a TraceError at the calling line (when every
// instance of its type is a leaf: a stack frame cannot tell instances
// apart). The compiled model uses a leaf's (or a wrapped function's)
// result as it is, without a copy, unless it shares memory with the
// call's arguments (runtime.Adopt): so a leaf must return a tensor it does
// not keep, as Go's tensor ops do.
//
// # Positions
//
// Each node records the source position of the model's code nearest the
// call: the innermost stack frame outside fxgen's packages (tensor, nn,
// tracer, ir, runtime), moved outward past the helper functions of that
// frame's package (any function or method but Forward, and the function
// literals inside them) to the Forward that called them. So a helper that
// makes a ReLU6 gives its nodes the lines of Forward that call the helper,
// and a submodule's nodes get lines of the submodule's own Forward. When
// no Forward of that package is on the stack, the innermost frame is the
// position. A TraceError keeps the innermost frame, the line that failed.
//
// # Parameters
//
// The model's parameters and buffers are get_attr values wherever Forward
// finds them. Those the walk names (exported fields, slices, arrays, maps
// in key order, method values) keep their state-dict names and Go paths.
// Those it cannot (modules and floating-point tensors made before the
// trace that closures hold, or package-level variables) are named
// captured0.weight, captured1, ... in the order the trace meets them, and
// the compiled model's constructor finds the same tensors with Captured,
// which traces Forward once more. Reading any of them while tracing is a
// TraceError.
//
// # Concurrency
//
// There is no package-level state: a trace is reached through its tensors
// and, for constructors and parameters, through the goroutine running
// Forward, so traces and eager work may run at once on other goroutines.
package tracer
