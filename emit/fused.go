// This file emits fused_elementwise and attention nodes: the program built
// once by the constructor, one call in Forward.

package emit

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
)

// elemConsts are the Go names of the runtime's elementwise operations.
var elemConsts = map[runtime.ElementwiseOp]string{
	runtime.ElemAdd: "ElemAdd", runtime.ElemSub: "ElemSub", runtime.ElemMul: "ElemMul", runtime.ElemDiv: "ElemDiv",
	runtime.ElemAddScalar: "ElemAddScalar", runtime.ElemSubScalar: "ElemSubScalar",
	runtime.ElemMulScalar: "ElemMulScalar", runtime.ElemDivScalar: "ElemDivScalar",
	runtime.ElemScalarSub: "ElemScalarSub", runtime.ElemScalarDiv: "ElemScalarDiv",
	runtime.ElemRelu: "ElemRelu", runtime.ElemNeg: "ElemNeg", runtime.ElemSigmoid: "ElemSigmoid",
	runtime.ElemTanh: "ElemTanh", runtime.ElemGelu: "ElemGelu", runtime.ElemMaskedFill: "ElemMaskedFill",
}

// emitFused emits a fused_elementwise node computed by Forward: the
// constructor builds its runtime.ElementwiseProgram, one step a line under
// the comment of the op it was, and Forward runs it over the inputs (Run,
// or RunSoftmax when the node ends in a softmax).
func (e *gen) emitFused(n *ir.Node, outputs map[resultKey]bool) error {
	list, _ := n.Args()[0].([]ir.Arg)
	sm, _ := n.Kwarg("softmax")
	softmax, _ := sm.(bool)
	run, what := "Run", "fused elementwise ops"
	if softmax {
		run, what = "RunSoftmax", "fused elementwise ops and a softmax over the last dim"
	}
	pv, steps, err := e.program(n, len(list))
	if err != nil {
		return err
	}
	inputs, err := e.operand(n.Args()[0], false)
	if err != nil {
		return err
	}
	outs, allocs := e.results(n, outputs)
	e.body = append(e.body, jen.Comment(fmt.Sprintf("%s%s = %d %s (%s):", posPrefix(n), n.Name, steps, what, pv.name)))
	e.body = append(e.body, e.fusedComments(n)...)
	e.body = append(e.body, allocs...)
	e.body = append(e.body, e.fwdRef(pv).Dot(run).Call(outs[0], inputs))
	return nil
}

// emitAttention emits an attention node computed by Forward: the
// constructor builds its score program as emitFused does, and Forward
// calls runtime.Attention with it.
func (e *gen) emitAttention(n *ir.Node, outputs map[resultKey]bool) error {
	args := n.Args()
	list, _ := args[3].([]ir.Arg)
	pv, steps, err := e.program(n, 1+len(list))
	if err != nil {
		return err
	}
	var call []jen.Code
	for i, a := range args[:4] {
		c, err := e.operand(a, false)
		if err != nil {
			return err
		}
		if i == 3 {
			call = append(call, e.fwdRef(pv)) // the program comes before the extras
		}
		call = append(call, c)
	}
	for _, a := range []string{"heads", "q_col", "k_col", "v_col"} {
		call = append(call, jen.Lit(kwargInt(n, a)))
	}
	outs, allocs := e.results(n, outputs)
	e.body = append(e.body, jen.Comment(fmt.Sprintf("%s%s = attention of %d heads of %d, scores through %d ops and a softmax (%s):",
		posPrefix(n), n.Name, kwargInt(n, "heads"), kwargInt(n, "head_dim"), steps, pv.name)))
	e.body = append(e.body, e.fusedComments(n)...)
	e.body = append(e.body, allocs...)
	e.body = append(e.body, jen.Qual(runtimePkg, "Attention").Call(append([]jen.Code{outs[0]}, call...)...))
	return nil
}

// kwargInt returns n's int attribute name (0 when absent).
func kwargInt(n *ir.Node, name string) int {
	v, _ := n.Kwarg(name)
	i, _ := v.(int)
	return i
}

// fusedComments returns the comments naming the ops fused into n's
// program, one a line, when the plan has them.
func (e *gen) fusedComments(n *ir.Node) []jen.Code {
	var out []jen.Code
	if e.cfg.Plan != nil {
		for _, d := range e.cfg.Plan.Fused[n] {
			out = append(out, jen.Comment(d))
		}
	}
	return out
}

// program adds to the constructor the runtime.ElementwiseProgram of n's
// program attribute over inputs inputs, one step a line under the comment
// of the op it was, and returns its value and number of steps.
func (e *gen) program(n *ir.Node, inputs int) (*ctorValue, int, error) {
	code, _ := n.Kwarg("program")
	ints, _ := code.([]int)
	prog, err := runtime.DecodeElementwiseProgram(inputs, ints)
	if err != nil {
		return nil, 0, fmt.Errorf("node %s: %v", n.Name, err)
	}
	var descr []string
	if e.cfg.Plan != nil {
		descr = e.cfg.Plan.Fused[n]
	}
	steps := prog.Steps()
	var items []jen.Code
	for j, st := range steps {
		name, ok := elemConsts[st.Op]
		if !ok {
			return nil, 0, fmt.Errorf("node %s: no Go name for %v", n.Name, st.Op)
		}
		fields := []jen.Code{jen.Id("Op").Op(":").Qual(runtimePkg, name), jen.Id("A").Op(":").Lit(st.A)}
		if st.Op.Operands() == 2 {
			fields = append(fields, jen.Id("B").Op(":").Lit(st.B))
		}
		if st.C != 0 || scalarOp(st.Op) {
			c, err := float32Literal(st.C)
			if err != nil {
				return nil, 0, err
			}
			fields = append(fields, jen.Id("C").Op(":").Add(c))
		}
		item := jen.Values(fields...)
		if j < len(descr) {
			item = jen.Comment(descr[j]).Line().Add(item)
		}
		items = append(items, item)
	}
	pv := e.newCtorValue(n.Name+"_program", jen.Op("*").Qual(runtimePkg, "ElementwiseProgram"), fmt.Sprintf("the %d ops fused into %s", len(steps), n.Name))
	e.ctor = append(e.ctor, e.define(pv).Qual(runtimePkg, "NewElementwiseProgram").Call(
		jen.Lit(inputs),
		jen.Index().Qual(runtimePkg, "ElementwiseStep").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, items...),
	))
	return pv, len(steps), nil
}

// scalarOp reports whether op reads its scalar C.
func scalarOp(op runtime.ElementwiseOp) bool {
	switch op {
	case runtime.ElemAddScalar, runtime.ElemSubScalar, runtime.ElemMulScalar, runtime.ElemDivScalar,
		runtime.ElemScalarSub, runtime.ElemScalarDiv, runtime.ElemMaskedFill:
		return true
	}
	return false
}

// float32Literal returns a Go expression of the float32 v.
func float32Literal(v float32) (jen.Code, error) {
	if math.IsInf(float64(v), 0) || math.IsNaN(float64(v)) {
		c, err := attrLiteral(float64(v))
		if err != nil {
			return nil, err
		}
		return jen.Float32().Call(c), nil
	}
	return jen.Lit(float64(v)), nil
}
