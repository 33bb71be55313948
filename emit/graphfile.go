// This file writes the graph file: the optimised graph as short, stable
// text for review beside the generated code.

package emit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/plan"
)

// GraphFile returns the text fxgen writes beside a generated file (as
// mlp_fx.graph beside mlp_fx.go): the optimised graph g, one line per
// node, then totals, so that a pull request shows in a few lines what a
// model change did to the computation. p is the plan Generate was given
// (nil for none); title names the model.
//
// A node's line is its name, opcode, target, inputs (and attributes
// after a semicolon), result type and source position:
//
//	conv1 call_function conv2d_act(x, conv1_folded_weight, conv1_folded_bias; stride=[1, 1], padding=[1, 1], groups=1, act=1) f32[N,16,32,32] resnet20.go:46
//
// The nodes the constructor computes once (they depend on no input) come
// first, under their own heading; the totals are the number of nodes,
// the parameters and their elements, an estimate of the floating-point
// operations of one Forward call at every symbolic size 1 (2·M·N·K for
// matrix products and convolutions, one per result element and op for
// the rest), and the workspace bytes of the memory plan at those sizes.
// Lines are not aligned with each other, so that a change to one node
// changes one line.
func GraphFile(g *ir.Graph, p *plan.Plan, title string) []byte {
	var b strings.Builder
	b.WriteString("// " + Header() + "\n")
	fmt.Fprintf(&b, "// The optimised graph of %s: name opcode target(inputs; attributes) type position.\n", title)
	var paramOnly map[*ir.Node]bool
	var mem *plan.Memory
	if p != nil {
		paramOnly, mem = p.ParamOnly, p.Memory
	}
	if paramOnly == nil {
		paramOnly = plan.ParamOnly(g)
	}
	ones := map[string]int{}
	var hoisted, forward []*ir.Node
	for _, n := range g.Nodes() {
		for _, t := range n.Types {
			for _, d := range t.Shape {
				if !d.IsConst() {
					ones[d.Sym] = 1
				}
			}
		}
		if paramOnly[n] {
			hoisted = append(hoisted, n)
		} else {
			forward = append(forward, n)
		}
	}
	if len(hoisted) > 0 {
		b.WriteString("\n// parameters, and what the constructor computes from them\n")
		for _, n := range hoisted {
			b.WriteString(graphLine(n) + "\n")
		}
	}
	b.WriteString("\n// Forward\n")
	flops := 0
	for _, n := range forward {
		b.WriteString(graphLine(n) + "\n")
		flops += nodeFLOPs(g, n, ones)
	}
	names := make([]string, 0, len(g.Params))
	elems := 0
	for name, prm := range g.Params {
		names = append(names, name)
		if dims, ok := prm.Type.Shape.Ints(); ok {
			elems += product(dims)
		}
	}
	sort.Strings(names)
	syms := make([]string, 0, len(ones))
	for s := range ones {
		syms = append(syms, s)
	}
	sort.Strings(syms)
	at := "at " + strings.Join(syms, " = ") + " = 1"
	if len(syms) == 0 {
		at = "(no symbolic sizes)"
	}
	fmt.Fprintf(&b, "\n// totals\nnodes %d\nparameters %d (%d elements)\nflops %d %s\nworkspace %d bytes %s\n",
		len(g.Nodes()), len(names), elems, flops, at, mem.WorkspaceBytes(g, ones), at)
	return []byte(b.String())
}

// graphLine formats one node for the graph file.
func graphLine(n *ir.Node) string {
	var args []string
	for _, a := range n.Args() {
		args = append(args, ir.FormatArg(a, ""))
	}
	var kws []string
	for _, kw := range n.Kwargs() {
		kws = append(kws, formatKwarg(kw))
	}
	in := strings.Join(args, ", ")
	if len(kws) > 0 {
		in += "; " + strings.Join(kws, ", ")
	}
	var types []string
	for _, t := range n.Types {
		types = append(types, t.String())
	}
	line := fmt.Sprintf("%s %s %s", n.Name, n.Op, n.Target)
	if len(n.Args()) > 0 || len(kws) > 0 {
		line += "(" + in + ")"
	}
	if len(types) > 0 {
		line += " " + strings.Join(types, ",")
	}
	if p := n.Pos.String(); p != "" {
		line += " " + p
	}
	return line
}

// productOps are the ops whose cost is a matrix product's: 2·K per result
// element, K the length of the reduced dim (the last of operand 0 for
// linear and matmul, the weight's elements per output channel for
// conv1d and conv2d).
var productOps = map[string]bool{
	ir.OpLinear: true, ir.OpLinearAct: true, ir.OpLinearResidual: true, ir.OpMatmul: true, ir.OpMatmulTransb: true,
	ir.OpConv2d: true, ir.OpConv2dAct: true, ir.OpConv2dResidual: true, ir.OpConv1d: true,
}

// formatKwarg prints an attribute as name=value, a program (an
// elementwise program's code, long and saying little) as the number of
// its steps, which the generated code's comments list.
func formatKwarg(kw ir.Kwarg) string {
	if code, ok := kw.Value.([]int); ok && kw.Name == "program" {
		return fmt.Sprintf("program=<%d steps>", len(code)/4)
	}
	return kw.Name + "=" + ir.FormatArg(kw.Value, "")
}

// nodeFLOPs estimates the floating-point operations of n with the symbols
// set to syms.
func nodeFLOPs(g *ir.Graph, n *ir.Node, syms map[string]int) int {
	target := n.Target
	switch n.Op {
	case ir.CallFunction, ir.CallMethod:
	case ir.CallModule:
		m := g.Modules[n.Target]
		if m == nil || m.Kind == "" {
			return 0
		}
		target = ir.LookupModuleKind(m.Kind).Op
	default:
		return 0
	}
	if target == ir.OpGetitem || plan.IsReshape(target) || len(n.Types) == 0 {
		return 0
	}
	out := 0
	for _, t := range n.Types {
		if dims, ok := t.Shape.Eval(syms); ok {
			out += product(dims)
		}
	}
	if productOps[target] {
		if strings.HasPrefix(target, "conv") {
			if w, ok := operandType(g, n, 1); ok && len(w.Shape) > 1 {
				if dims, ok := w.Shape[1:].Eval(syms); ok {
					return 2 * out * product(dims)
				}
			}
			return 0
		}
		if a, ok := operandType(g, n, 0); ok && len(a.Shape) > 0 {
			if k, ok := a.Shape[len(a.Shape)-1:].Eval(syms); ok {
				return 2 * out * k[0]
			}
		}
		return 0
	}
	if target == ir.OpDepthwiseSeparable {
		// The expansion's C multiply-adds per input pixel and expanded
		// channel, then the depthwise 9 and the projection's O per output
		// pixel and expanded channel (as runtime.DepthwiseSeparable counts).
		x, okx := operandType(g, n, 0)
		w1, ok1 := operandType(g, n, 1)
		w2, ok2 := operandType(g, n, 5)
		xd, okd := x.Shape.Eval(syms)
		e, oke := w1.Shape.Ints()
		if okx && ok1 && ok2 && okd && oke && len(xd) == 4 && len(e) == 4 && len(w2.Shape) == 4 && w2.Shape[0].IsConst() {
			o := w2.Shape[0].Coef
			return 2 * e[0] * (product(xd) + out/o*(9+o))
		}
		return 0
	}
	if target == "fused_elementwise" {
		if code, ok := n.Kwarg("program"); ok {
			if c, ok := code.([]int); ok {
				return out * max(1, len(c)/4)
			}
		}
	}
	return out
}

// operandType returns the type of operand i of n: an arg, or for a module
// call, the module's parameters after the args.
func operandType(g *ir.Graph, n *ir.Node, i int) (ir.Type, bool) {
	args := n.Args()
	if i < len(args) {
		if m, ok := args[i].(*ir.Node); ok && len(m.Types) > 0 {
			k := plan.ResolveGetitem(m)
			return k.Node.Types[k.Result], true
		}
		return ir.Type{}, false
	}
	if n.Op == ir.CallModule {
		if m := g.Modules[n.Target]; m != nil && i-len(args) < len(m.Params) {
			if p := g.Params[m.Params[i-len(args)]]; p != nil {
				return p.Type, true
			}
		}
	}
	return ir.Type{}, false
}

func product(dims []int) int {
	p := 1
	for _, d := range dims {
		p *= d
	}
	return p
}
