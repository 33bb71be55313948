// This file holds the pass table, its order constraints and pass lookup.

package passes

import (
	"fmt"
	"strings"
)

// All is the registry: every built-in pass, in the order of the default
// pipeline, the analyses that run only when required included.
var All = []*Pass{ParamOnly, LowerModules, CSE, FoldBatchNorm, FuseActivation, FuseResidual, ChannelsLast, FuseDepthwiseSeparable, FuseElementwise, FoldTranspose, FuseAttention, DCE, PlanMemory}

// Default is the pipeline fxgen runs between tracing and emitting, in
// order: the passes of All that are not Optional.
var Default = defaults(All)

func defaults(all []*Pass) []*Pass {
	var out []*Pass
	for _, p := range all {
		if !p.Optional {
			out = append(out, p)
		}
	}
	return out
}

// Constraint says that pass Before, when a pipeline holds both, must run
// before pass After.
type Constraint struct {
	Before, After string
	Reason        string
}

// Constraints are the order constraints between passes.
var Constraints = []Constraint{
	{"lower-modules", "fold-batchnorm", "fold-batchnorm matches conv2d and batch_norm call_function nodes, which lower-modules makes of Conv2d and BatchNorm2d modules"},
	{"lower-modules", "fuse-activation", "fuse-activation matches linear, conv2d and relu call_function nodes, which lower-modules makes of Linear, Conv2d and ReLU modules"},
	{"fold-batchnorm", "fuse-activation", "conv2d → batch_norm → relu folds to conv2d → relu, which then fuses; fusing first would hide the conv2d from the batch_norm"},
	{"fold-batchnorm", "dce", "folding leaves the batch_norm's statistics unused only in the folded form; dce then sweeps what is left"},
	{"lower-modules", "fuse-residual", "fuse-residual matches linear call_function nodes, which lower-modules makes of Linear modules"},
	{"lower-modules", "fuse-elementwise", "fuse-elementwise matches relu call_function nodes, which lower-modules makes of ReLU modules"},
	{"fold-batchnorm", "fuse-elementwise", "fold-batchnorm matches conv2d → batch_norm; a fused group would hide a following relu from fuse-activation's conv2d_act"},
	{"fuse-activation", "fuse-elementwise", "an activation (relu, gelu, relu6, silu) after a linear or conv2d belongs in the product's epilogue, not in an elementwise group"},
	{"fuse-residual", "fuse-elementwise", "an add of a linear belongs in the GEMM (linear_residual), not in an elementwise group"},
	{"fold-transpose", "plan-memory", "folding removes the transposes' values; a plan made before would name nodes that are gone"},
	{"fuse-elementwise", "plan-memory", "fusing removes values; a plan made before would name nodes that are gone"},
	{"fuse-residual", "plan-memory", "fusing removes values; a plan made before would name nodes that are gone"},
	{"fuse-activation", "plan-memory", "fusing removes values; a plan made before would name nodes that are gone"},
	{"dce", "plan-memory", "dead values would take workspace; and the plan must be the last change to the node list"},
	{"lower-modules", "plan-memory", "the plan must be the last change to the node list"},
	{"cse", "plan-memory", "merging removes values; a plan made before would name nodes that are gone"},
	{"fold-batchnorm", "plan-memory", "the plan must be the last change to the node list"},
	{"fuse-activation", "fuse-depthwise-separable", "the block's activations join it from the conv2d_act nodes fuse-activation makes"},
	{"fuse-residual", "fuse-depthwise-separable", "the block's residual joins it from the conv2d_residual fuse-residual makes of its projection"},
	{"channels-last", "fuse-depthwise-separable", "wide blocks run channels last, where their 1×1 products are plain GEMMs; the fused kernel takes the narrow ones left in NCHW"},
	{"fuse-depthwise-separable", "plan-memory", "fusing removes values; a plan made before would name nodes that are gone"},
	{"fuse-elementwise", "fuse-attention", "the attention's score program and softmax come from the fused_elementwise node fuse-elementwise makes"},
	{"fold-transpose", "fuse-attention", "the attention's scores come from the matmul_transb fold-transpose makes of matmul(q, transpose(k))"},
	{"fuse-attention", "dce", "fusing leaves the split of q, k and v unused; dce then sweeps it"},
	{"fuse-attention", "plan-memory", "fusing removes values; a plan made before would name nodes that are gone"},
}

// Lookup returns the pass named name, or nil.
func Lookup(name string) *Pass {
	for _, p := range All {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Parse turns a comma-separated list of pass names into a pipeline in the
// order given; "none" (or "") is the empty pipeline and "default" is
// Default. The result is checked (Check).
func Parse(list string) ([]*Pass, error) {
	switch strings.TrimSpace(list) {
	case "", "none":
		return nil, nil
	case "default":
		return Default, nil
	}
	var out []*Pass
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		p := Lookup(name)
		if p == nil {
			return nil, fmt.Errorf("passes: unknown pass %q (have %s)", name, names(All))
		}
		out = append(out, p)
	}
	if err := Check(out); err != nil {
		return nil, err
	}
	return out, nil
}

// Check verifies a pipeline: every pass named, no pass twice, every
// transformation a pass requires earlier in the pipeline, and every
// constraint between two passes it holds respected.
func Check(pipeline []*Pass) error {
	seen := map[string]bool{}
	for _, p := range pipeline {
		if p == nil || p.Name == "" || p.Run == nil {
			return fmt.Errorf("passes: a pipeline entry has no name or no Run")
		}
		if seen[p.Name] {
			return fmt.Errorf("passes: pass %s appears twice in the pipeline", p.Name)
		}
		for _, q := range p.Requires {
			if q == nil || (!q.Analysis && !seen[q.Name]) {
				return fmt.Errorf("passes: pass %s requires %s, which must run before it", p.Name, reqName(q))
			}
		}
		seen[p.Name] = true
	}
	for _, c := range Constraints {
		i, j := indexOf(pipeline, c.Before), indexOf(pipeline, c.After)
		if i >= 0 && j >= 0 && i > j {
			return fmt.Errorf("passes: %s must run before %s: %s", c.Before, c.After, c.Reason)
		}
	}
	return nil
}

func reqName(p *Pass) string {
	if p == nil {
		return "a nil pass"
	}
	return p.Name
}

func indexOf(pipeline []*Pass, name string) int {
	for i, p := range pipeline {
		if p.Name == name {
			return i
		}
	}
	return -1
}

func names(pipeline []*Pass) string {
	var out []string
	for _, p := range pipeline {
		out = append(out, p.Name)
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}
