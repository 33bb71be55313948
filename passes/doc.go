// Package passes holds fxgen's graph passes: named rewrites of an ir.Graph
// that make the generated code faster while keeping what it computes.
//
// A pass is a value, in the manner of go/analysis's Analyzer and the Go
// compiler's SSA pass table: a name, a doc, the passes whose results it
// reads (Requires), the type of the result it produces (ResultType) and a
// Run over a Context holding the graph and those results. A transformation
// changes the graph; an analysis (Analysis) only reads it, runs on demand
// when a pass requires it, and is run again after a transformation. The
// registry (All) knows every pass and which are on by default (Default:
// those not Optional); the order the pipeline must respect is written
// down as pairs with a reason (Constraints) and checked by a test and by
// Run. Run lints the graph between passes when Options.Debug asks (tests
// always ask), reports an error or a panic with the name of the pass that
// raised it, can print the graph after a named pass, and returns the
// results:
//
//	res, err := passes.Run(g, passes.Default, passes.Options{Debug: true, DumpAfter: "fold-batchnorm", Dump: os.Stderr})
//	src, err := emit.Generate(g, emit.Config{Package: "mlp", Type: "MLP", Plan: res.Plan()})
//
// The emitter takes what it needs as a value (Results.Plan, a
// *plan.Plan): the memory plan, the nodes that depend on no input, and the
// descriptions of fused ops. It does not import this package.
//
// A pass of the user's own, written in Go in the user's module, is a
// *Pass too; fxgen -pass runs it in go generate (see cmd/fxgen).
//
// The passes of the default pipeline, in order (param-only, the analysis
// of the nodes that depend on no input, runs where they require it):
//
//	lower-modules    call_module of a standard kind → its functional op over get_attr nodes
//	cse              nodes computing the same op of the same inputs and attributes → the first of them
//	fold-batchnorm   conv2d → batch_norm (inference) → one conv2d with folded weight and bias
//	fuse-activation  linear/conv2d whose only user is relu (or gelu) → linear_act/conv2d_act
//	fuse-residual    add(r, linear(x)) whose linear has no other user → linear_residual (product accumulated into r);
//	                 add(r, conv2d(x)) likewise, with the activation after it → conv2d_residual
//	channels-last    wide 1×1 → depthwise 3×3 → 1×1 convolution chains → linear and depthwise_conv2d_nhwc on
//	                 channels-last images, between a permute at the chain's start and one at its end
//	fuse-depthwise-separable
//	                 narrow such chains (stride 1) on large images → depthwise_separable (a band of rows at a time)
//	fuse-elementwise groups of float32 elementwise ops of one shape → fused_elementwise (one chunked pass over memory)
//	fold-transpose   matmul(a, transpose(b, -2, -1)) whose transpose has no other user → matmul_transb(a, b)
//	fuse-attention   heads split by reshape and transpose, matmul_transb, a fused softmax, matmul, heads joined
//	                 → attention (a sample and head at a time, q, k and v read where they lie)
//	dce              erase nodes whose results are unused
//	plan-memory      (analysis) give each workspace value a storage slot, shared when lifetimes do not overlap;
//	                 reshapes become views of their input; a linear_residual may take its dying residual's slot
//
// The folded weights and biases are ordinary graph ops over get_attr nodes
// (sqrt, add, div, mul, reshape, sub): they depend on no input, so the
// emitter computes them once in the compiled module's constructor, in
// locals (see ParamOnly).
package passes
