// This file defines the analyses whose results the emitter takes, and
// Results.Plan, which gathers them.

package passes

import (
	"reflect"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/plan"
)

// ParamOnly is the analysis of the nodes that depend on no input
// (plan.ParamOnly): their values are the same on every call, so the
// emitter computes them once, in the compiled constructor, and the
// rewrites leave them alone. Its result is a map[*ir.Node]bool.
var ParamOnly = &Pass{
	Name:       "param-only",
	Doc:        "param-only finds the nodes that depend on no input (computed once by the compiled constructor).",
	ResultType: reflect.TypeOf(map[*ir.Node]bool(nil)),
	Analysis:   true,
	Optional:   true,
	Run: func(c *Context) (any, error) {
		return plan.ParamOnly(c.Graph), nil
	},
}

// paramOnly returns the result of the ParamOnly analysis from c.
func paramOnly(c *Context) map[*ir.Node]bool {
	m, _ := c.ResultOf[ParamOnly].(map[*ir.Node]bool)
	return m
}

// PlanMemory is the analysis that plans the workspace (plan.NewMemory):
// every intermediate value of Forward gets a storage slot, shared by
// values whose lifetimes do not overlap; reshapes become views of their
// input; a linear_residual may take its dying residual's slot. Its result
// is a *plan.Memory, which the emitter takes through Results.Plan. It must
// run after every transformation (Constraints).
var PlanMemory = &Pass{
	Name: "plan-memory",
	Doc: "plan-memory assigns workspace slots to intermediate values by liveness, so that values whose lifetimes " +
		"do not overlap share storage (a *plan.Memory for the emitter).",
	Requires:   []*Pass{ParamOnly},
	ResultType: reflect.TypeOf((*plan.Memory)(nil)),
	Analysis:   true,
	Run: func(c *Context) (any, error) {
		return plan.NewMemory(c.Graph, paramOnly(c))
	},
}

// Plan returns what the emitter takes from the pipeline that made r:
// the plan-memory and fuse-elementwise results, and which nodes depend on
// no input (the param-only result when the graph has not changed since,
// else computed now).
func (r *Results) Plan() *plan.Plan {
	p := &plan.Plan{}
	p.Memory, _ = r.Of(PlanMemory).(*plan.Memory)
	p.Fused, _ = r.Of(FuseElementwise).(plan.FusedSteps)
	p.ParamOnly, _ = r.Of(ParamOnly).(map[*ir.Node]bool)
	if p.ParamOnly == nil && r != nil {
		p.ParamOnly = plan.ParamOnly(r.g)
	}
	return p
}
