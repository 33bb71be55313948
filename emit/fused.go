// This file emits the programs of ops with a program attribute
// (ir.Op.Program: fused_elementwise, attention): the constructor builds
// each once, one step a line, and Forward's call takes it.

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
// of the op it was, and returns its value.
func (e *gen) program(n *ir.Node, inputs int) (*ctorValue, error) {
	code, _ := n.Kwarg("program")
	ints, _ := code.([]int)
	prog, err := runtime.DecodeElementwiseProgram(inputs, ints)
	if err != nil {
		return nil, fmt.Errorf("node %s: %v", n.Name, err)
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
			return nil, fmt.Errorf("node %s: no Go name for %v", n.Name, st.Op)
		}
		fields := []jen.Code{jen.Id("Op").Op(":").Qual(runtimePkg, name), jen.Id("A").Op(":").Lit(st.A)}
		if st.Op.Operands() == 2 {
			fields = append(fields, jen.Id("B").Op(":").Lit(st.B))
		}
		if st.C != 0 || scalarOp(st.Op) {
			c, err := float32Literal(st.C)
			if err != nil {
				return nil, err
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
	return pv, nil
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
