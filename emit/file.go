// This file assembles the generated file: header, type, constructor,
// reserve and Forward.

package emit

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/fxgen/fxgen/ir"
)

func (e *gen) render() ([]byte, error) {
	f := jen.NewFile(e.cfg.Package)
	if e.cfg.PackagePath != "" {
		f = jen.NewFilePathName(e.cfg.PackagePath, e.cfg.Package)
	}
	f.HeaderComment(Header())
	if e.cfg.Command != "" {
		f.HeaderComment("fxgen " + e.cfg.Command)
	}
	f.ImportName(runtimePkg, "runtime")
	f.ImportName(tensorPkg, "tensor")
	T, C := e.cfg.Type, e.cfg.Compiled

	// The compile-time guard: a changed Forward signature breaks the build
	// until the file is regenerated.
	f.Comment("Regenerate this file if " + T + ".Forward's signature changes: this line stops stale code from building.")
	f.Var().Id("_").Func().Params(append([]jen.Code{jen.Op("*").Id(T)}, e.paramTypes()...)...).Add(e.resultTypes()).Op("=").Parens(jen.Op("*").Id(T)).Dot("Forward")

	ctor := append([]jen.Code{}, e.ctor[:e.ctorParams]...)
	snap := make([]string, 0, len(e.snapParams))
	for p := range e.snapParams {
		snap = append(snap, p)
	}
	sort.Strings(snap)
	for _, p := range snap {
		ctor = append(ctor, jen.Id(e.recv).Dot("snapshot").Dot("Record").Call(jen.Lit(p), e.ctorRef(e.params[p])))
	}
	ctor = append(ctor, e.ctor[e.ctorParams:]...)
	fields := e.fix()
	if e.keepModel {
		fields = append([]jen.Code{field("model", jen.Op("*").Id(T), "the model, whose own Go code Forward calls")}, fields...)
		ctor = append([]jen.Code{jen.Id(e.recv).Dot("model").Op("=").Id("m")}, ctor...)
	}
	if len(snap) > 0 {
		fields = append(fields, field("snapshot", jen.Qual(runtimePkg, "Snapshot"), "versions of the parameters the constructor computed from"))
	}
	F := e.frameType
	fields = append(fields, field("frames", jen.Qual(runtimePkg, "Frames").Types(jen.Id(F)), "the free per-call workspaces"))

	frameFields := append([]jen.Code{}, e.frameFields...)
	for _, s := range e.syms {
		frameFields = append(frameFields, field(e.symField[s], jen.Int(), "the size "+s+" the workspace is sized for"))
	}
	frameFields = append(frameFields, field("ready", jen.Bool(), "whether the workspace is allocated"))
	sharing := "It reads the model's parameters in place, so it sees weights loaded into the model later. "
	if len(snap) > 0 {
		sharing = "It reads the model's parameters in place, but what New" + C + " computes from them " +
			"(folded batch norms, packed weights) is computed once: after a load changes one of those " +
			"parameters, Forward panics saying to build a new " + C + ", rather than mix old and new weights. "
	}
	comments(f, fmt.Sprintf("%s is %s compiled by fxgen: Forward runs the traced graph with direct "+
		"kernel calls. It is safe for concurrent use: each call takes a workspace of its own from a "+
		"free list and returns it, so any number of goroutines may call Forward at once, each with its "+
		"own batch size, and a warmed-up workspace is reused without allocating. %sForward returns fresh tensors.", C, T, sharing))
	f.Type().Id(C).Struct(fields...)

	comments(f, fmt.Sprintf("%s is the state of one %s.Forward call: the workspace and the arrays bound to it.", F, C))
	f.Type().Id(F).Struct(frameFields...)

	ctorDoc, more := fmt.Sprintf("New%s compiles m, checking that its parameters have the traced shapes.", C), ""
	if e.g.Forward != nil && e.g.Forward.Captured > 0 {
		more += " It finds those m holds in closures by tracing m.Forward again."
	}
	if len(snap) > 0 {
		more += " Build it after loading m's weights: it computes from some of them once (those it records in its snapshot), " +
			"and Forward panics if a load changes them later."
	}
	if more == "" {
		f.Comment(ctorDoc) // one line, however long
	} else {
		comments(f, ctorDoc+more)
	}
	f.Func().Id("New" + C).Params(jen.Id("m").Op("*").Id(T)).Op("*").Id(C).Block(
		append(append([]jen.Code{jen.Id(e.recv).Op(":=").Op("&").Id(C).Values()}, ctor...), jen.Return(jen.Id(e.recv)))...)

	var symParams []jen.Code
	fr := e.frame
	cond := jen.Id(fr).Dot("ready")
	setSyms := []jen.Code{}
	for _, s := range e.syms {
		symParams = append(symParams, jen.Id(e.symVar[s]).Int())
		cond = cond.Op("&&").Id(fr).Dot(e.symField[s]).Op("==").Id(e.symVar[s])
		setSyms = append(setSyms, jen.Id(fr).Dot(e.symField[s]).Op("=").Id(e.symVar[s]))
	}
	reserveBody := []jen.Code{jen.If(cond).Block(jen.Return())}
	reserveBody = append(reserveBody, e.reserve...)
	reserveBody = append(reserveBody, setSyms...)
	reserveBody = append(reserveBody, jen.Id(fr).Dot("ready").Op("=").True())
	f.Comment("reserve sizes the workspace for the given symbolic sizes.")
	f.Func().Params(jen.Id(fr).Op("*").Id(F)).Id("reserve").Params(symParams...).Block(reserveBody...)

	var body []jen.Code
	if len(snap) > 0 {
		body = append(body, jen.Id(e.recv).Dot("snapshot").Dot("Check").Call(jen.Lit(e.fnName), jen.Lit("New"+C)))
	}
	compute := e.body
	if e.split != nil {
		body = append(body, e.body[:e.split.head]...)
		compute = e.body[e.split.head:]
		body = append(body, e.splitBatch()...)
	} else {
		body = append(body, compute...)
		body = append(body, jen.Id(e.recv).Dot("frames").Dot("Put").Call(jen.Id(fr)))
		body = append(body, jen.Return(e.returns()...))
	}
	var specs []string
	for _, ph := range e.g.Placeholders() {
		specs = append(specs, ph.Name+" "+ph.Type().String())
	}
	f.Commentf("Forward computes %s.Forward for %s.", T, strings.Join(specs, ", "))
	f.Func().Params(jen.Id(e.recv).Op("*").Id(C)).Id("Forward").Params(e.params_()...).Add(e.resultTypes()).Block(body...)
	if e.split != nil {
		ph := e.g.Placeholders()[0]
		n := e.symVar[ph.Type().Shape[0].Sym]
		x := e.store[resultKey{ph, 0}]
		inner := append([]jen.Code{jen.Id(n).Op(":=").Add(x).Dot("Shape").Index(jen.Lit(0))}, compute...)
		inner = append(inner, jen.Id(e.recv).Dot("frames").Dot("Put").Call(jen.Id(fr)))
		f.Commentf("forward computes Forward's result for the batch %s into %s: the whole batch or a slice of it.", ph.Name, e.split.out)
		f.Func().Params(jen.Id(e.recv).Op("*").Id(C)).Id("forward").Params(jen.List(jen.Id(e.split.out), x).Op("*").Qual(runtimePkg, "Array")).Block(inner...)
	}

	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		// jennifer's error carries the whole unformatted source.
		return nil, fmt.Errorf("emit: %v", err)
	}
	return buf.Bytes(), nil
}

func (e *gen) paramTypes() []jen.Code {
	var out []jen.Code
	for _, p := range e.g.Forward.Params {
		out = append(out, e.paramType(p))
	}
	return out
}

func (e *gen) paramType(p ir.SigParam) jen.Code {
	if p.Tensor {
		return jen.Op("*").Qual(tensorPkg, "Tensor")
	}
	t := p.GoType
	if pre := e.cfg.Package + "."; strings.HasPrefix(t, pre) {
		t = strings.TrimPrefix(t, pre)
	}
	return jen.Id(t)
}

func (e *gen) params_() []jen.Code {
	var out []jen.Code
	for _, p := range e.g.Forward.Params {
		out = append(out, jen.Id(p.Name).Add(e.paramType(p)))
	}
	return out
}

func (e *gen) resultTypes() jen.Code {
	n := e.g.Forward.Results
	if n == 1 {
		return jen.Op("*").Qual(tensorPkg, "Tensor")
	}
	var rs []jen.Code
	for i := 0; i < n; i++ {
		rs = append(rs, jen.Op("*").Qual(tensorPkg, "Tensor"))
	}
	return jen.Parens(jen.List(rs...))
}

// splitBatch ends a Forward that may run its batch a slice at a time: it
// allocates the result and has forward compute it, on one worker a slice
// of chunk samples at a time (runtime.SplitBatch), on more the whole batch
// at once.
func (e *gen) splitBatch() []jen.Code {
	sp := e.split
	ph := e.g.Placeholders()[0]
	n := e.symVar[ph.Type().Shape[0].Sym]
	x := e.store[resultKey{ph, 0}]
	forward := jen.Id(e.recv).Dot("forward")
	return []jen.Code{
		sp.alloc,
		jen.Comment(fmt.Sprintf("On one worker, a batch larger than %d goes through every layer in slices of %d, so", sp.chunk, sp.chunk)),
		jen.Comment("that a layer's output is still in cache when the next reads it (plan.BatchChunk); more"),
		jen.Comment("workers share each layer of the whole batch instead."),
		jen.If(jen.Id(n).Op(">").Lit(sp.chunk).Op("&&").Qual(runtimePkg, "Workers").Call().Op("==").Lit(1)).Block(
			jen.Qual(runtimePkg, "SplitBatch").Call(jen.Id(sp.out), x, jen.Lit(sp.chunk), forward),
		).Else().Block(
			jen.Add(forward.Clone()).Call(jen.Id(sp.out), x),
		),
		jen.Return(jen.Id(sp.outTensor)),
	}
}

// returns gives each output's tensor: the one tensor.NewResult made with
// its array (a tensor of its own for each further time Forward returns
// the same value), a fresh array wrapped, or the input tensor itself when
// Forward returns an input.
func (e *gen) returns() []jen.Code {
	var out []jen.Code
	returned := map[resultKey]bool{}
	for _, n := range outputNodes(e.g.OutputNode()) {
		k := resolve(n)
		switch {
		case k.n.Op == ir.Placeholder:
			out = append(out, jen.Id(e.inputs[k.n]))
		case e.outTensor[k] != "" && !returned[k]:
			returned[k] = true
			out = append(out, jen.Id(e.outTensor[k]))
		case e.outVar[k] != "":
			out = append(out, jen.Qual(tensorPkg, "FromArray").Call(jen.Id(e.outVar[k])))
		default:
			out = append(out, jen.Qual(tensorPkg, "FromArray").Call(e.store[k]))
		}
	}
	return out
}

// comments adds text as line comments wrapped at about 76 columns.
func comments(f *jen.File, text string) {
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > 76 {
			f.Comment(line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		f.Comment(line)
	}
}
