// This file emits the kernel call of each graph node.

package emit

import (
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/passes"
)

// emitNode gives the node's results their storage and adds its kernel call
// to Forward.
func (e *gen) emitNode(n *ir.Node, outputs map[resultKey]bool) error {
	switch n.Op {
	case ir.Placeholder, ir.Output:
		return nil
	case ir.GetAttr:
		e.store[resultKey{n, 0}] = jen.Id(e.recv).Dot(e.params[n.Target])
		return nil
	}
	if n.Target == "getitem" && n.Op != ir.CallModule {
		k := resolve(n)
		e.store[resultKey{n, 0}] = e.store[k]
		return nil
	}
	comment := jen.Comment(posPrefix(n) + describe(n))
	if passes.IsAlias(n) {
		return e.emitView(n, comment)
	}
	var op *ir.Op
	var operands []jen.Code
	var attrs []ir.Kwarg
	for _, a := range n.Args() {
		c, err := e.operand(a)
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
			if p == "" {
				operands = append(operands, jen.Nil())
			} else {
				operands = append(operands, jen.Id(e.recv).Dot(e.params[p]))
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
	if n.Target == "fused_elementwise" && n.Op != ir.CallModule && !e.hoisted[n] {
		return e.emitFused(n, outputs)
	}
	if e.hoisted[n] {
		e.snapshot = true
		e.snapshotInputs(n)
		outs, allocs := e.hoistedResults(n)
		return e.kernelCall(n, op, comment, outs, allocs, operands, attrs, &e.ctor)
	}
	outs, allocs := e.results(n, outputs)
	return e.kernelCall(n, op, comment, outs, allocs, operands, attrs, &e.body)
}

// hoistedResults gives each result of a node the constructor computes a
// field allocated by the constructor.
func (e *gen) hoistedResults(n *ir.Node) (outs, allocs []jen.Code) {
	for i, t := range n.Types {
		k := resultKey{n, i}
		name := n.Name
		if len(n.Types) > 1 {
			name += "_" + strconv.Itoa(i)
		}
		f := e.names.name(name)
		e.fields = append(e.fields, jen.Id(f).Op("*").Qual(runtimePkg, "Array").Comment(n.Name+" "+t.String()+", computed by the constructor"))
		allocs = append(allocs, jen.Id(e.recv).Dot(f).Op("=").Qual(runtimePkg, "NewArray").Call(append([]jen.Code{dtypeCode(t.DType)}, e.dims(t.Shape)...)...))
		e.store[k] = jen.Id(e.recv).Dot(f)
		outs = append(outs, e.store[k])
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
// output, else a workspace field: bound by reserve to its plan-memory slot
// of the workspace, or sized by reserve on its own when there is no plan.
func (e *gen) results(n *ir.Node, outputs map[resultKey]bool) (outs, allocs []jen.Code) {
	slots := passes.Slots(n)
	for i, t := range n.Types {
		k := resultKey{n, i}
		name := n.Name
		if len(n.Types) > 1 {
			name += "_" + strconv.Itoa(i)
		}
		if outputs[k] {
			v := e.names.name(name)
			e.outVar[k] = v
			e.store[k] = jen.Id(v)
			allocs = append(allocs, jen.Id(v).Op(":=").Qual(runtimePkg, "NewArray").Call(append([]jen.Code{dtypeCode(t.DType)}, e.dims(t.Shape)...)...))
		} else if slots != nil && slots[i] >= 0 {
			f := e.names.name(name)
			e.frameFields = append(e.frameFields, jen.Id(f).Qual(runtimePkg, "Array").Comment(n.Name+" "+t.String()+", in workspace slot "+strconv.Itoa(slots[i])))
			for len(e.slots) <= slots[i] {
				e.slots = append(e.slots, &wsSlot{})
			}
			sl := e.slots[slots[i]]
			sl.dtype = t.DType
			sl.sizes = append(sl.sizes, t.Shape)
			sl.fields = append(sl.fields, f)
			e.binds = append(e.binds, bindStmt{f, t, slots[i]})
			e.store[k] = jen.Op("&").Id(e.frame).Dot(f)
		} else {
			f := e.names.name(name)
			e.frameFields = append(e.frameFields, jen.Id(f).Qual(runtimePkg, "Array").Comment(n.Name+" "+t.String()))
			e.reserve = append(e.reserve, jen.Id(e.frame).Dot(f).Dot("Reset").Call(append([]jen.Code{dtypeCode(t.DType)}, e.dims(t.Shape)...)...))
			e.store[k] = jen.Op("&").Id(e.frame).Dot(f)
		}
		outs = append(outs, e.store[k])
	}
	return outs, allocs
}

// emitView gives a view (passes.IsAlias) a frame field that Forward points
// at its input's storage with the node's shape: no copy.
func (e *gen) emitView(n *ir.Node, comment jen.Code) error {
	src, err := e.operand(n.Args()[0])
	if err != nil {
		return err
	}
	t := n.Types[0]
	f := e.names.name(n.Name)
	e.frameFields = append(e.frameFields, jen.Id(f).Qual(runtimePkg, "Array").Comment(n.Name+" "+t.String()+", a view of "+n.Args()[0].(*ir.Node).Name))
	e.store[resultKey{n, 0}] = jen.Op("&").Id(e.frame).Dot(f)
	e.body = append(e.body, comment)
	e.body = append(e.body, jen.Qual(runtimePkg, "View").Call(append([]jen.Code{e.store[resultKey{n, 0}], src}, e.dims(t.Shape)...)...))
	return nil
}

// bindStmt is a reserve statement binding field to its slot, rendered once
// the slots' offsets are known.
type bindStmt struct {
	field string
	t     ir.Type
	slot  int
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
		c, err := attrLiteral(sig.Value(a.Name))
		if err != nil {
			return fmt.Errorf("attribute %s: %v", a.Name, err)
		}
		attrArgs = append(attrArgs, c)
	}
	pkg, fn := op.KernelName()
	if pr := op.Prepared; pr != nil && body == &e.body {
		if key, ok := e.paramOnlyOperand(n, pr.Operand); ok {
			f, ok := e.prepared[key]
			if !ok {
				f = e.names.name(key + "_prepared")
				e.prepared[key] = f
				ppkg, pname, _, _ := op.PreparedNames()
				pt := reflect.TypeOf(pr.Prepare).Out(0).Elem()
				e.fields = append(e.fields, jen.Id(f).Op("*").Qual(pt.PkgPath(), pt.Name()).Comment(key+" prepared by "+pname+", computed by the constructor"))
				e.ctor = append(e.ctor, jen.Id(e.recv).Dot(f).Op("=").Qual(ppkg, pname).Call(operands[pr.Operand]))
			}
			e.snapshot = true
			if p := e.g.Params[key]; p != nil && p.GoPath != "" {
				e.snapParams[key] = true
			}
			operands = append([]jen.Code{}, operands...)
			operands[pr.Operand] = jen.Id(e.recv).Dot(f)
			_, _, pkg, fn = op.PreparedNames()
		}
	}
	if op.ListResults() {
		outs = []jen.Code{jen.Index().Op("*").Qual(runtimePkg, "Array").Values(outs...)}
	}
	args := append(append(append([]jen.Code{}, outs...), operands...), attrArgs...)
	*body = append(*body, comment)
	*body = append(*body, allocs...)
	*body = append(*body, jen.Qual(pkg, fn).Call(args...))
	return nil
}

// paramOnlyOperand reports whether operand i of call n depends on no
// input, and returns a key naming its value: the parameter's name, or the
// node computing it.
func (e *gen) paramOnlyOperand(n *ir.Node, i int) (string, bool) {
	args := n.Args()
	if n.Op == ir.CallModule {
		if i < len(args) {
			return "", false
		}
		p := e.g.Modules[n.Target].Params[i-len(args)]
		return p, p != ""
	}
	if i >= len(args) {
		return "", false
	}
	m, ok := args[i].(*ir.Node)
	if !ok {
		return "", false
	}
	k := resolve(m)
	switch {
	case k.n.Op == ir.GetAttr:
		return k.n.Target, true
	case e.hoisted[k.n]:
		if len(k.n.Types) > 1 {
			return k.n.Name + "_" + strconv.Itoa(k.i), true
		}
		return k.n.Name, true
	}
	return "", false
}

func posPrefix(n *ir.Node) string {
	if p := n.Pos.String(); p != "" {
		return p + ": "
	}
	return ""
}

// operand returns the expression of one node arg: a node's storage, a
// constant field for a number, nil, or a list.
func (e *gen) operand(a ir.Arg) (jen.Code, error) {
	switch x := a.(type) {
	case *ir.Node:
		c, ok := e.store[resolve(x)]
		if !ok {
			return nil, fmt.Errorf("arg %s has no storage (used before it is computed?)", x.Name)
		}
		return c, nil
	case nil:
		return jen.Nil(), nil
	case []ir.Arg:
		var elems []jen.Code
		for _, y := range x {
			c, err := e.operand(y)
			if err != nil {
				return nil, err
			}
			elems = append(elems, c)
		}
		return jen.Index().Op("*").Qual(runtimePkg, "Array").Values(elems...), nil
	}
	if ir.IsNumber(a) {
		return e.constant(a), nil
	}
	return nil, fmt.Errorf("unsupported arg %v (%T)", a, a)
}

// constant returns the field holding the 0-d array of a number literal,
// built once by the constructor.
func (e *gen) constant(v any) jen.Code {
	key := fmt.Sprintf("%T:%v", v, v)
	f, ok := e.consts[key]
	if !ok {
		f = e.names.name("const" + strconv.Itoa(len(e.consts)))
		e.consts[key] = f
		e.fields = append(e.fields, jen.Id(f).Op("*").Qual(runtimePkg, "Array").Comment("the number "+ir.FormatArg(v, "")))
		var build jen.Code
		switch x := v.(type) {
		case int:
			build = jen.Qual(runtimePkg, "Int64Scalar").Call(jen.Lit(x))
		case float64:
			build = jen.Qual(runtimePkg, "Float32Scalar").Call(jen.Lit(float32(x)))
		}
		e.ctor = append(e.ctor, jen.Id(e.recv).Dot(f).Op("=").Add(build))
	}
	return jen.Id(e.recv).Dot(f)
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
// Forward, or a wrapped function) and copies its one result into the
// node's storage. The model is kept by the compiled type for this.
func (e *gen) emitGoCall(n *ir.Node, comment, fn jen.Code, outputs map[resultKey]bool, what string, callable bool) error {
	if !callable {
		return fmt.Errorf("%s cannot be called from generated code: make it a named package-level function reachable by exported fields", what)
	}
	if len(n.Types) != 1 {
		return fmt.Errorf("%s has %d results; generated code calls functions with one", what, len(n.Types))
	}
	var args []jen.Code
	for _, a := range n.Args() {
		list, ok := a.([]ir.Arg)
		if !ok {
			list = []ir.Arg{a}
		}
		for _, x := range list {
			c, err := e.operand(x)
			if err != nil {
				return err
			}
			args = append(args, jen.Qual(tensorPkg, "FromArray").Call(c))
		}
	}
	e.keepModel = true
	outs, allocs := e.results(n, outputs)
	e.body = append(e.body, comment)
	e.body = append(e.body, allocs...)
	e.body = append(e.body, jen.Qual(runtimePkg, "Copy").Call(outs[0], jen.Add(fn).Call(args...).Dot("Array").Call()))
	return nil
}
