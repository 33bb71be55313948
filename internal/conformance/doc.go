// Package conformance checks every op of fxgen's op table three ways on
// the same random inputs: eager tensor execution, ir.Interpreter on a
// graph of one node (inputs with a symbolic batch size N), and the code
// the emitter writes for a model of that one op (compiled_gen.go, written
// by `go generate` from the same samples), on every kernel tier this
// machine and build can run (runtime.ISAs), each tier also checked against
// the portable one.
//
// Samples lists the calls: generic ones derived from the type rule of
// every pointwise op (each dtype the rule accepts, broadcasting shapes,
// number operands, attribute variants), and hand-written ones for the
// other ops. A new op without samples fails TestEveryOpHasSamples, so a
// new op is tested by existing.
//
//go:generate go run -tags conformancegen ./gen
package conformance
