// Package plan holds what the passes work out about a finished graph and
// the emitter needs to write its code, as values rather than strings in
// Node.Meta: which nodes depend on no input (ParamOnly, computed once by
// the compiled constructor), where each intermediate value of Forward is
// stored (Memory: workspace slots shared by values whose lifetimes do not
// overlap, and views that share their input's storage), and what each
// fused elementwise node computes (FusedSteps, for the generated
// comments). Plan gathers them for emit.Config.
//
// The passes package produces these values (its param-only,
// fuse-elementwise and plan-memory passes); emit reads them and does not
// import the passes. Both import this package, which imports only ir and
// runtime.
//
//	mem, err := plan.NewMemory(g, plan.ParamOnly(g))
//	src, err := emit.Generate(g, emit.Config{Package: "mlp", Type: "MLP", Plan: &plan.Plan{Memory: mem}})
package plan

import "github.com/fxgen/fxgen/ir"

// Plan is what the emitter takes from the passes besides the graph. A nil
// Plan, or nil fields, are valid: the emitter then computes ParamOnly
// itself, gives every intermediate value storage of its own, and writes
// no step comments for fused nodes.
type Plan struct {
	// ParamOnly are the nodes that depend on no input (ParamOnly of the
	// graph as the emitter sees it).
	ParamOnly map[*ir.Node]bool
	// Memory is the workspace plan of the graph (NewMemory).
	Memory *Memory
	// Fused describes the ops each fused_elementwise node computes.
	Fused FusedSteps
}

// FusedSteps maps each fused_elementwise node to one line per op it
// computes, in program order: the op's source position and the node it
// was, for the generated code's comments.
type FusedSteps map[*ir.Node][]string
