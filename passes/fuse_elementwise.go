// This file defines the fuse-elementwise pass: groups of elementwise ops
// become one fused_elementwise node, evaluated chunk by chunk.

package passes

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/plan"
	"github.com/fxgen/fxgen/runtime"
)

// FuseElementwise replaces each maximal group of float32 elementwise ops
// (add, sub, mul, div, with tensors or numbers; relu, neg, sigmoid, tanh,
// gelu; masked_fill) that computes one value by one fused_elementwise
// node. A group grows from its last op (the root) through operands of the
// root's shape whose every user is in the group, so that its inner values
// are needed nowhere else; what the group reads from outside are its
// inputs, each of the root's shape, a single element, or one that
// broadcasts to it along one run of dims and the leading ones (a bias, a
// mask, a padding mask [N, 1, 1, S], a per-channel scale), at most runtime.MaxElementwiseInputs of
// them, and it has at most runtime.MaxElementwiseSteps ops. The runtime
// evaluates the group a chunk at a time, so the inner values never go to
// memory, with the same kernels and hence the same bits as the ops one by
// one. When the root's only user is a softmax over the last dim (as
// attention's scale and mask are), the softmax joins the group and each
// block of rows is normalized while in cache; a single op followed by such
// a softmax is then a group too. The fused node keeps the name and
// position of its last op. Parameter-only ops are left to the constructor.
// Its result, a plan.FusedSteps, describes the ops of each fused node for
// the generated comments.
var FuseElementwise = &Pass{
	Name: "fuse-elementwise",
	Doc: "fuse-elementwise replaces each group of float32 elementwise ops (add, sub, mul, div, relu, neg, sigmoid, " +
		"tanh, gelu, masked_fill) of one shape whose inner values have no other user by one fused_elementwise node.",
	Requires:   []*Pass{ParamOnly},
	ResultType: reflect.TypeOf(plan.FusedSteps(nil)),
	Run: func(c *Context) (any, error) {
		return fuseElementwise(c.Graph, paramOnly(c))
	},
}

// elementwiseOps are the ops fuse-elementwise fuses, with their runtime
// operation (a binary op's tensor-tensor form).
var elementwiseOps = map[string]runtime.ElementwiseOp{
	ir.OpAdd: runtime.ElemAdd, ir.OpSub: runtime.ElemSub, ir.OpMul: runtime.ElemMul, ir.OpDiv: runtime.ElemDiv,
	ir.OpRelu: runtime.ElemRelu, ir.OpNeg: runtime.ElemNeg, ir.OpSigmoid: runtime.ElemSigmoid, ir.OpTanh: runtime.ElemTanh,
	ir.OpGelu: runtime.ElemGelu, ir.OpMaskedFill: runtime.ElemMaskedFill,
	ir.OpSilu: runtime.ElemSilu, ir.OpGeluTanh: runtime.ElemGeluTanh, ir.OpExp: runtime.ElemExp, ir.OpRelu6: runtime.ElemRelu6,
	ir.OpHardswish: runtime.ElemHardswish, ir.OpHardsigmoid: runtime.ElemHardsigmoid, ir.OpAbs: runtime.ElemAbs,
	ir.OpSqrt: runtime.ElemSqrt, ir.OpRsqrt: runtime.ElemRsqrt, ir.OpLog: runtime.ElemLog,
}

// fusable reports whether n is an elementwise op fuse-elementwise can
// take: a float32 result, float32 tensor operands (a bool mask for
// masked_fill), number literals for the others.
func fusable(n *ir.Node, paramOnly map[*ir.Node]bool) bool {
	if (n.Op != ir.CallFunction && n.Op != ir.CallMethod) || paramOnly[n] || len(n.Types) != 1 || n.Types[0].DType != ir.Float32 {
		return false
	}
	op, ok := elementwiseOps[n.Target]
	if !ok {
		return false
	}
	args := n.Args()
	switch {
	case op == runtime.ElemMaskedFill:
		if len(args) != 2 || len(n.Kwargs()) != 1 {
			return false
		}
		x, ok1 := args[0].(*ir.Node)
		m, ok2 := args[1].(*ir.Node)
		_, ok3 := n.Kwargs()[0].Value.(float64)
		return ok1 && ok2 && ok3 && len(x.Types) == 1 && x.Types[0].DType == ir.Float32 && len(m.Types) == 1 && m.Types[0].DType == ir.Bool
	case len(n.Kwargs()) != 0 || len(args) != op.Operands():
		return false
	}
	tensors := 0
	for _, a := range args {
		switch x := a.(type) {
		case *ir.Node:
			if len(x.Types) != 1 || x.Types[0].DType != ir.Float32 {
				return false
			}
			tensors++
		case float64, int:
		default:
			return false
		}
	}
	return tensors > 0
}

// broadcastLayout reports whether an input of shape in can be read by the
// fused kernel for a result of shape out, by runtime.ElementwiseInputFits
// on the shapes' ir.SymbolicInts: the same shape, one
// element, or out's trailing dims with one run of them 1 (a suffix of out,
// a padding mask [N, 1, 1, S], a per-channel [C, 1, 1]). A symbolic dim is
// never taken for 1, so the runtime may take more than this does.
func broadcastLayout(in, out ir.Shape) bool {
	d := ir.SymbolicInts(in, out)
	return runtime.ElementwiseInputFits(d[0], d[1])
}

func fuseElementwise(g *ir.Graph, paramOnly map[*ir.Node]bool) (plan.FusedSteps, error) {
	steps := plan.FusedSteps{}
	nodes := g.Nodes()
	grouped := map[*ir.Node]bool{}
	for i := len(nodes) - 1; i >= 0; i-- {
		root := nodes[i]
		if grouped[root] || root.Graph() == nil || !fusable(root, paramOnly) {
			continue
		}
		members := elementwiseGroup(root, paramOnly)
		sm := softmaxUser(root, paramOnly)
		if len(members) < 2 && sm == nil {
			continue
		}
		inputs, ok := groupInputs(members, root.Types[0].Shape)
		if !ok {
			continue
		}
		for _, m := range members {
			grouped[m] = true
		}
		fused, descr, err := fuseGroup(g, root, members, inputs, sm)
		if err != nil {
			return nil, fmt.Errorf("node %s: %v", root.Name, err)
		}
		steps[fused] = descr
	}
	return steps, nil
}

// elementwiseGroup returns the group rooted at root, in graph order.
func elementwiseGroup(root *ir.Node, paramOnly map[*ir.Node]bool) []*ir.Node {
	shape := root.Types[0].Shape
	in := map[*ir.Node]bool{root: true}
	members := []*ir.Node{root}
	for changed := true; changed; {
		changed = false
		for k := 0; k < len(members); k++ {
			for _, a := range members[k].Args() {
				p, ok := a.(*ir.Node)
				if !ok || in[p] || len(members) >= runtime.MaxElementwiseSteps || !fusable(p, paramOnly) || !p.Types[0].Shape.Equal(shape) {
					continue
				}
				all := true
				for _, u := range p.Users() {
					all = all && in[u]
				}
				if all {
					in[p] = true
					members = append(members, p)
					changed = true
				}
			}
		}
	}
	pos := map[*ir.Node]int{}
	for i, n := range root.Graph().Nodes() {
		pos[n] = i
	}
	sortNodes(members, pos)
	return members
}

// sortNodes sorts ns by their position in pos (insertion sort: groups are
// small).
func sortNodes(ns []*ir.Node, pos map[*ir.Node]int) {
	for i := 1; i < len(ns); i++ {
		for j := i; j > 0 && pos[ns[j]] < pos[ns[j-1]]; j-- {
			ns[j], ns[j-1] = ns[j-1], ns[j]
		}
	}
}

// groupInputs returns the values the group reads from outside, in order of
// first use, and whether the fused kernel can take them.
func groupInputs(members []*ir.Node, shape ir.Shape) ([]*ir.Node, bool) {
	in := map[*ir.Node]bool{}
	for _, m := range members {
		in[m] = true
	}
	var inputs []*ir.Node
	seen := map[*ir.Node]bool{}
	for _, m := range members {
		for _, a := range m.Args() {
			p, ok := a.(*ir.Node)
			if !ok || in[p] || seen[p] {
				continue
			}
			if !broadcastLayout(p.Types[0].Shape, shape) {
				return nil, false
			}
			seen[p] = true
			inputs = append(inputs, p)
		}
	}
	return inputs, len(inputs) <= runtime.MaxElementwiseInputs
}

// softmaxUser returns the softmax over the last dim that is root's only
// user, or nil.
func softmaxUser(root *ir.Node, paramOnly map[*ir.Node]bool) *ir.Node {
	u := onlyUser(root)
	if u == nil || !isCall(u, ir.OpSoftmax) || paramOnly[u] || len(u.Args()) != 1 || u.Args()[0] != root || len(u.Types) != 1 {
		return nil
	}
	r := len(root.Types[0].Shape)
	d, ok := runtime.NormalizeDim(kwarg(u, "dim").(int), r)
	if !ok || r == 0 || d != r-1 || !u.Types[0].Shape.Equal(root.Types[0].Shape) {
		return nil
	}
	return u
}

// fuseGroup replaces the group by one fused_elementwise node at the root,
// or at sm, the softmax the group feeds, when sm is not nil. It returns
// the fused node and the description of its steps.
func fuseGroup(g *ir.Graph, root *ir.Node, members, inputs []*ir.Node, sm *ir.Node) (*ir.Node, []string, error) {
	reg := map[*ir.Node]int{}
	for i, p := range inputs {
		reg[p] = i
	}
	var code []int
	var steps []string
	for j, m := range members {
		st, err := elementwiseStep(m, reg)
		if err != nil {
			return nil, nil, err
		}
		code = append(code, int(st.Op), st.A, st.B, int(math.Float32bits(st.C)))
		reg[m] = len(inputs) + j
		steps = append(steps, describeStep(m, reg, len(inputs), sm == nil && m == root))
	}
	list := make([]ir.Arg, len(inputs))
	for i, p := range inputs {
		list[i] = p
	}
	kwargs := []ir.Kwarg{{Name: "program", Value: code}}
	last := root
	if sm != nil {
		kwargs = append(kwargs, ir.Kwarg{Name: "softmax", Value: true})
		steps = append(steps, describeStep(sm, reg, len(inputs), true))
		last = sm
	}
	fused, err := createBefore(root, "fused_elementwise", []ir.Arg{list}, kwargs...)
	if err != nil {
		return nil, nil, err
	}
	named, err := replaceNode(last, fused)
	if err != nil {
		return nil, nil, err
	}
	for j := len(members) - 1; j >= 0; j-- {
		if m := members[j]; m != last {
			if err := g.EraseNode(m); err != nil {
				return nil, nil, fmt.Errorf("node %s: %v", m.Name, err)
			}
		}
	}
	return named, steps, nil
}

// elementwiseStep returns the program step computing m from the registers
// of its operands.
func elementwiseStep(m *ir.Node, reg map[*ir.Node]int) (runtime.ElementwiseStep, error) {
	op := elementwiseOps[m.Target]
	args := m.Args()
	r := func(a ir.Arg) (int, bool) {
		n, ok := a.(*ir.Node)
		if !ok {
			return 0, false
		}
		i, ok := reg[n]
		return i, ok
	}
	num := func(a ir.Arg) float32 {
		switch x := a.(type) {
		case float64:
			return float32(x)
		case int:
			return float32(x)
		}
		return 0
	}
	a, aok := r(args[0])
	if op == runtime.ElemMaskedFill {
		b, _ := r(args[1])
		return runtime.ElementwiseStep{Op: op, A: a, B: b, C: float32(m.Kwargs()[0].Value.(float64))}, nil
	}
	if op.Operands() == 1 {
		return runtime.ElementwiseStep{Op: op, A: a}, nil
	}
	b, bok := r(args[1])
	switch {
	case aok && bok:
		return runtime.ElementwiseStep{Op: op, A: a, B: b}, nil
	case aok:
		return runtime.ElementwiseStep{Op: scalarForms[op][0], A: a, C: num(args[1])}, nil
	case bok:
		return runtime.ElementwiseStep{Op: scalarForms[op][1], A: b, C: num(args[0])}, nil
	}
	return runtime.ElementwiseStep{}, fmt.Errorf("%s has no tensor operand", m.Name)
}

// scalarForms gives a binary op's operation with a number on the right
// and on the left (x op c, c op x).
var scalarForms = map[runtime.ElementwiseOp][2]runtime.ElementwiseOp{
	runtime.ElemAdd: {runtime.ElemAddScalar, runtime.ElemAddScalar},
	runtime.ElemSub: {runtime.ElemSubScalar, runtime.ElemScalarSub},
	runtime.ElemMul: {runtime.ElemMulScalar, runtime.ElemMulScalar},
	runtime.ElemDiv: {runtime.ElemDivScalar, runtime.ElemScalarDiv},
}

// describeStep formats the op m of a fused group for the generated
// comments: its source position, then "r2 = add(x, y)". A value inside the
// group is named by its register in the program (r2), not by its node's
// name: those names count ops across the whole graph (add_3), so one more
// op earlier in a model would renumber every later comment. The last op
// keeps its name, which the fused node takes.
func describeStep(m *ir.Node, reg map[*ir.Node]int, inputs int, last bool) string {
	name := func(a ir.Arg) string {
		if n, ok := a.(*ir.Node); ok {
			if r, ok := reg[n]; ok && r >= inputs {
				return "r" + strconv.Itoa(r)
			}
		}
		return ir.FormatArg(a, "")
	}
	var args []string
	for _, a := range m.Args() {
		args = append(args, name(a))
	}
	for _, kw := range m.Kwargs() {
		args = append(args, kw.Name+"="+ir.FormatArg(kw.Value, ""))
	}
	result := m.Name
	if !last {
		result = name(m)
	}
	pos := ""
	if p := m.Pos.String(); p != "" {
		pos = p + ": "
	}
	return fmt.Sprintf("%s%s = %s(%s)", pos, result, m.Target, strings.Join(args, ", "))
}
