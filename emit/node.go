// This file emits the kernel call of each graph node.

package emit

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/plan"
	"github.com/fxgen/fxgen/runtime"
)

// emitNode gives the node's results their storage and adds its kernel call
// to Forward.
func (e *gen) emitNode(n *ir.Node, outputs map[resultKey]bool) error {
	switch n.Op {
	case ir.Placeholder, ir.Output:
		return nil
	case ir.GetAttr:
		e.ctorStore[resultKey{n, 0}] = e.params[n.Target]
		return nil
	}
	if n.Target == ir.OpGetitem && n.Op != ir.CallModule {
		k := resolve(n)
		if v, ok := e.ctorStore[k]; ok {
			e.ctorStore[resultKey{n, 0}] = v
		} else {
			e.store[resultKey{n, 0}] = e.store[k]
		}
		return nil
	}
	comment := jen.Comment(posPrefix(n) + describe(n))
	if e.mem.IsView(n) {
		return e.emitView(n, comment)
	}
	hoisted := e.hoisted[n]
	var op *ir.Op
	var operands []jen.Code
	var attrs []ir.Kwarg
	for _, a := range n.Args() {
		c, err := e.operand(a, hoisted)
		if err != nil {
			return err
		}
		operands = append(operands, c)
	}
	switch n.Op {
	case ir.CallFunction, ir.CallMethod:
		op = ir.LookupOp(n.Target)
		attrs = n.Kwargs()
	case ir.CallModule:
		m := e.g.Modules[n.Target]
		if m.Kind == "" {
			sel, err := selector(jen.Id(e.recv).Dot("model"), m.GoPath)
			if err != nil {
				return err
			}
			return e.emitGoCall(n, comment, sel.Dot("Forward"), outputs,
				"opaque leaf module "+n.Target+" ("+m.GoType+")", m.GoPath != "")
		}
		op = ir.LookupOp(ir.LookupModuleKind(m.Kind).Op)
		for _, p := range m.Params {
			switch {
			case p == "":
				operands = append(operands, jen.Nil())
			case hoisted:
				operands = append(operands, e.ctorRef(e.params[p]))
			default:
				operands = append(operands, e.fwdRef(e.params[p]))
			}
		}
		attrs = m.Attrs
	}
	if op != nil && op.IsWrapped() {
		pkg, name, ok := op.WrappedName()
		return e.emitGoCall(n, comment, jen.Qual(pkg, name), outputs, "wrapped function "+n.Target+" ("+pkg+"."+name+")", ok)
	}
	if op == nil || op.Kernel == nil {
		return fmt.Errorf("op %q has no kernel to call", n.Target)
	}
	if hoisted {
		e.snapshot = true
		e.snapshotInputs(n)
		outs, allocs := e.hoistedResults(n)
		return e.kernelCall(n, op, comment, outs, allocs, operands, attrs, &e.ctor)
	}
	outs, allocs := e.results(n, outputs)
	return e.kernelCall(n, op, comment, outs, allocs, operands, attrs, &e.body)
}

// hoistedResults gives each result of a node the constructor computes an
// array the constructor allocates: a local, or a field if Forward reads
// it.
func (e *gen) hoistedResults(n *ir.Node) (outs, allocs []jen.Code) {
	for i, t := range n.Types {
		k := resultKey{n, i}
		name := resultName(k)
		v := e.newCtorValue(name, arrayType(), name+" "+t.String()+", computed by the constructor")
		allocs = append(allocs, e.define(v).Qual(runtimePkg, "NewArray").Call(append([]jen.Code{dtypeCode(t.DType)}, e.dims(t.Shape)...)...))
		e.ctorStore[k] = v
		outs = append(outs, e.ctorRef(v))
	}
	return outs, allocs
}

// snapshotInputs adds to snapParams the model's parameters that the
// hoisted node n reads directly (through get_attr nodes or as a leaf
// module's parameters); what it reads through other hoisted nodes those
// nodes add.
func (e *gen) snapshotInputs(n *ir.Node) {
	add := func(name string) {
		if p := e.g.Params[name]; p != nil && p.GoPath != "" {
			e.snapParams[name] = true
		}
	}
	for _, in := range n.Inputs() {
		if in.Op == ir.GetAttr {
			add(in.Target)
		}
	}
	if n.Op == ir.CallModule {
		for _, p := range e.g.Modules[n.Target].Params {
			add(p)
		}
	}
}

// results gives each result of n its storage: a fresh array for a graph
// output (forward's parameter out when the batch may go in slices), else a workspace field: bound by reserve to its plan-memory slot
// of the workspace, or sized by reserve on its own when there is no plan.
func (e *gen) results(n *ir.Node, outputs map[resultKey]bool) (outs, allocs []jen.Code) {
	slots := e.mem.Slots(n)
	for i, t := range n.Types {
		k := resultKey{n, i}
		name := resultName(k)
		if outputs[k] {
			v, tv, alloc := e.newResult(k)
			e.store[k] = jen.Id(v)
			if e.split != nil {
				e.split.out, e.split.outTensor, e.split.alloc = v, tv, alloc
			} else {
				allocs = append(allocs, alloc)
			}
		} else if slots != nil && slots[i] >= 0 {
			f := e.names.name(name)
			e.frameFields = append(e.frameFields, field(f, jen.Qual(runtimePkg, "Array"), name+" "+t.String()))
			e.binds = append(e.binds, bindStmt{f, t, plan.Value{Node: n, Result: i}})
			e.planField[plan.Value{Node: n, Result: i}] = f
			e.store[k] = jen.Op("&").Id(e.frame).Dot(f)
		} else {
			f := e.names.name(name)
			e.frameFields = append(e.frameFields, field(f, jen.Qual(runtimePkg, "Array"), name+" "+t.String()))
			e.reserve = append(e.reserve, jen.Id(e.frame).Dot(f).Dot("Reset").Call(append([]jen.Code{dtypeCode(t.DType)}, e.dims(t.Shape)...)...))
			e.store[k] = jen.Op("&").Id(e.frame).Dot(f)
		}
		outs = append(outs, e.store[k])
	}
	return outs, allocs
}

// emitView gives a view (plan.Memory.IsView) a frame field that Forward
// points at its input's storage with the node's shape: no copy.
func (e *gen) emitView(n *ir.Node, comment jen.Code) error {
	src, err := e.operand(n.Args()[0], false)
	if err != nil {
		return err
	}
	t := n.Types[0]
	f := e.names.name(n.Name)
	e.frameFields = append(e.frameFields, field(f, jen.Qual(runtimePkg, "Array"), n.Name+" "+t.String()+", a view of "+n.Args()[0].(*ir.Node).Name))
	e.store[resultKey{n, 0}] = jen.Op("&").Id(e.frame).Dot(f)
	e.body = append(e.body, comment)
	e.body = append(e.body, jen.Qual(runtimePkg, "View").Call(append([]jen.Code{e.store[resultKey{n, 0}], src}, e.dims(t.Shape)...)...))
	return nil
}

// bindStmt is a planned value reserve lays out in the workspace.
type bindStmt struct {
	field string
	t     ir.Type
	value plan.Value
}

// kernelCall finishes emitNode for an op with a runtime kernel, adding the
// call to body (Forward's, or the constructor's for a hoisted node). An
// operand the op can prepare (ir.Prepared) that depends on no input is
// prepared once by the constructor, and the prepared kernel is called.
func (e *gen) kernelCall(n *ir.Node, op *ir.Op, comment jen.Code, outs, allocs, operands []jen.Code, attrs []ir.Kwarg, body *[]jen.Code) error {
	kw, err := op.NormalizeKwargs(attrs)
	if err != nil {
		return err
	}
	sig := &ir.Sig{Op: op, Kwargs: kw}
	var attrArgs []jen.Code
	for _, a := range op.KernelAttrs() {
		c, err := e.attrCode(a.Name, sig.Value(a.Name))
		if err != nil {
			return fmt.Errorf("attribute %s: %v", a.Name, err)
		}
		attrArgs = append(attrArgs, c)
	}
	pkg, fn := op.KernelName()
	if pr := op.Prepared; pr != nil && body == &e.body {
		if key, src, ok := e.paramOnlyOperand(n, pr.Operand); ok {
			// A prepare function that takes attributes prepares the
			// operand once per set of them.
			prepAttrs := attrArgs[:op.PrepareAttrs()]
			cacheKey := key
			for _, a := range op.KernelAttrs()[:len(prepAttrs)] {
				cacheKey += fmt.Sprintf(" %s=%v", a.Name, sig.Value(a.Name))
			}
			v, ok := e.prepared[cacheKey]
			if !ok {
				ppkg, pname, _, _ := op.PreparedNames()
				pt := reflect.TypeOf(pr.Prepare).Out(0).Elem()
				v = e.newCtorValue(key+"_prepared", jen.Op("*").Qual(pt.PkgPath(), pt.Name()), key+" prepared by "+pname+", computed by the constructor")
				e.prepared[cacheKey] = v
				e.ctor = append(e.ctor, e.define(v).Qual(ppkg, pname).Call(append([]jen.Code{e.ctorRef(src)}, prepAttrs...)...))
			}
			e.snapshot = true
			if p := e.g.Params[key]; p != nil && p.GoPath != "" {
				e.snapParams[key] = true
			}
			operands = append([]jen.Code{}, operands...)
			e.unref(operands[pr.Operand])
			operands[pr.Operand] = e.fwdRef(v)
			_, _, pkg, fn = op.PreparedNames()
		}
	}
	var steps []jen.Code // the comments of a program's steps
	if op.Program != nil && body == &e.body && n.Op != ir.CallModule {
		// The constructor builds the program once; the kernel takes it
		// in place of its code.
		pv, err := e.program(n, op.Program.Inputs(n.Args()))
		if err != nil {
			return err
		}
		attrArgs = append([]jen.Code{}, attrArgs...)
		attrArgs[op.ProgramAttr()] = e.fwdRef(pv)
		pkg, fn = op.ProgramKernelName()
		steps = e.fusedComments(n)
	}
	if op.ListResults() {
		outs = []jen.Code{jen.Index().Op("*").Qual(runtimePkg, "Array").Values(outs...)}
	}
	args := append(append(append([]jen.Code{}, outs...), operands...), attrArgs...)
	*body = append(*body, comment)
	*body = append(*body, steps...)
	*body = append(*body, allocs...)
	*body = append(*body, jen.Qual(pkg, fn).Call(args...))
	return nil
}

// paramOnlyOperand reports whether operand i of call n depends on no
// input, and returns a key naming its value (the parameter's name, or the
// node computing it) and the value.
func (e *gen) paramOnlyOperand(n *ir.Node, i int) (string, *ctorValue, bool) {
	args := n.Args()
	if n.Op == ir.CallModule {
		if i < len(args) {
			return "", nil, false
		}
		p := e.g.Modules[n.Target].Params[i-len(args)]
		return p, e.params[p], p != ""
	}
	if i >= len(args) {
		return "", nil, false
	}
	m, ok := args[i].(*ir.Node)
	if !ok {
		return "", nil, false
	}
	k := resolve(m)
	switch {
	case k.n.Op == ir.GetAttr:
		return k.n.Target, e.params[k.n.Target], true
	case e.hoisted[k.n]:
		return resultName(k), e.ctorStore[k], true
	}
	return "", nil, false
}

func posPrefix(n *ir.Node) string {
	if p := n.Pos.String(); p != "" {
		return p + ": "
	}
	return ""
}

// operand returns the expression of one node arg, in the constructor
// (ctor) or in Forward: a value's storage, a constant for a number, nil,
// or a list.
func (e *gen) operand(a ir.Arg, ctor bool) (jen.Code, error) {
	switch x := a.(type) {
	case *ir.Node:
		k := resolve(x)
		if v, ok := e.ctorStore[k]; ok {
			if ctor {
				return e.ctorRef(v), nil
			}
			return e.fwdRef(v), nil
		}
		c, ok := e.store[k]
		if !ok || ctor {
			return nil, fmt.Errorf("arg %s has no storage (used before it is computed?)", x.Name)
		}
		return c, nil
	case nil:
		return jen.Nil(), nil
	case []ir.Arg:
		var elems []jen.Code
		for _, y := range x {
			c, err := e.operand(y, ctor)
			if err != nil {
				return nil, err
			}
			elems = append(elems, c)
		}
		return jen.Index().Op("*").Qual(runtimePkg, "Array").Values(elems...), nil
	}
	if ir.IsNumber(a) {
		v := e.constant(a)
		if ctor {
			return e.ctorRef(v), nil
		}
		return e.fwdRef(v), nil
	}
	return nil, fmt.Errorf("unsupported arg %v (%T)", a, a)
}

// constant returns the 0-d array of a number literal, built once by the
// constructor and named after its value (f32_1e_05, i64_2).
func (e *gen) constant(v any) *ctorValue {
	key := fmt.Sprintf("%T:%v", v, v)
	c, ok := e.consts[key]
	if !ok {
		var build jen.Code
		var name string
		switch x := v.(type) {
		case int:
			name = "i64_" + strconv.Itoa(x)
			build = jen.Qual(runtimePkg, "Int64Scalar").Call(jen.Lit(x))
		case float64:
			name = "f32_" + strconv.FormatFloat(float64(float32(x)), 'g', -1, 32)
			build = jen.Qual(runtimePkg, "Float32Scalar").Call(jen.Lit(float32(x)))
		}
		c = e.newCtorValue(strings.ReplaceAll(name, "-", "m"), arrayType(), "the number "+ir.FormatArg(v, ""))
		e.consts[key] = c
		e.ctor = append(e.ctor, e.define(c).Add(build))
	}
	return c
}

// namedAttrs are the attributes whose values generated code writes as
// runtime's named constants: the activation of the fused kernels.
var namedAttrs = map[string]map[int]string{
	"act": {runtime.ActNone: "ActNone", runtime.ActReLU: "ActReLU", runtime.ActGELU: "ActGELU", runtime.ActReLU6: "ActReLU6", runtime.ActSiLU: "ActSiLU"},
}

// attrCode returns the Go expression of the value of attribute name: a
// runtime constant (namedAttrs) or a literal.
func (e *gen) attrCode(name string, v any) (jen.Code, error) {
	if names, ok := namedAttrs[name]; ok {
		if i, ok := v.(int); ok && names[i] != "" {
			return jen.Qual(runtimePkg, names[i]), nil
		}
	}
	return attrLiteral(v)
}

// attrLiteral returns the Go literal of an attribute value.
func attrLiteral(v any) (jen.Code, error) {
	switch x := v.(type) {
	case float64:
		// jen.Lit prints non-finite floats as invalid Go (-Inf.0).
		switch {
		case math.IsInf(x, 1):
			return jen.Qual("math", "Inf").Call(jen.Lit(1)), nil
		case math.IsInf(x, -1):
			return jen.Qual("math", "Inf").Call(jen.Lit(-1)), nil
		case math.IsNaN(x):
			return jen.Qual("math", "NaN").Call(), nil
		}
		return jen.Lit(x), nil
	case int, bool:
		return jen.Lit(x), nil
	case []int:
		return jen.Index().Int().Values(lits(x)...), nil
	case ir.DType:
		return dtypeCode(x), nil
	}
	return nil, fmt.Errorf("no literal for %T", v)
}

// emitGoCall calls a Go function over tensors (an opaque leaf module's
// Forward, or a wrapped function) and keeps its one result as the node's
// value, without a copy unless it shares memory with an argument. The
// model is kept by the compiled type for this.
func (e *gen) emitGoCall(n *ir.Node, comment, fn jen.Code, outputs map[resultKey]bool, what string, callable bool) error {
	if !callable {
		return fmt.Errorf("%s cannot be called from generated code: make it a named package-level function reachable by exported fields", what)
	}
	if len(n.Types) != 1 {
		return fmt.Errorf("%s has %d results; generated code calls functions with one", what, len(n.Types))
	}
	var args, arrays []jen.Code
	for _, a := range n.Args() {
		list, ok := a.([]ir.Arg)
		if !ok {
			list = []ir.Arg{a}
		}
		for _, x := range list {
			c, err := e.operand(x, false)
			if err != nil {
				return err
			}
			args = append(args, jen.Qual(tensorPkg, "FromArray").Call(c))
			arrays = append(arrays, c)
		}
	}
	e.keepModel = true
	// The result is used as it is, in a local of Forward rather than in
	// the workspace, unless it shares memory with an argument
	// (runtime.Adopt).
	k := resultKey{n, 0}
	v := e.names.name(resultName(k))
	e.store[k] = jen.Id(v)
	if outputs[k] {
		e.outVar[k] = v
	}
	t := n.Types[0]
	adopt := append([]jen.Code{jen.Lit(what), jen.Add(fn).Call(args...).Dot("Array").Call(), dtypeCode(t.DType),
		jen.Index().Int().Values(e.dims(t.Shape)...)}, arrays...)
	e.body = append(e.body, comment, jen.Id(v).Op(":=").Qual(runtimePkg, "Adopt").Call(adopt...))
	return nil
}

// newResult names an output's array and the tensor tensor.NewResult
// returns with it (the result's name and that name with _tensor), records
// both, and returns the statement that makes them.
func (e *gen) newResult(k resultKey) (array, tensor string, alloc jen.Code) {
	array = e.names.name(resultName(k))
	tensor = e.names.name(resultName(k) + "_tensor")
	e.outVar[k], e.outTensor[k] = array, tensor
	t := k.n.Types[k.i]
	alloc = jen.List(jen.Id(tensor), jen.Id(array)).Op(":=").Qual(tensorPkg, "NewResult").Call(append([]jen.Code{dtypeCode(t.DType)}, e.dims(t.Shape)...)...)
	return array, tensor, alloc
}
