// This file emits how the constructor finds the parameters the model holds
// where Go code cannot name them (in closures).

package emit

import (
	"fmt"
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/fxgen/fxgen/ir"
)

const tracerPkg = "github.com/fxgen/fxgen/tracer"

// emitCaptured adds to the constructor, when the graph has parameters
// whose Go path is ir.CapturedGoPath(k), the call of tracer.Captured that
// finds them by tracing m.Forward again with the same inputs, concrete
// values and leaves, and returns the variable holding them; nil when
// there are none.
func (e *gen) emitCaptured() (*jen.Statement, error) {
	used := false
	for _, p := range e.g.Params {
		if _, ok := ir.CapturedIndex(p.GoPath); ok {
			used = true
		}
	}
	if !used {
		return nil, nil
	}
	sig := e.g.Forward
	if sig == nil || sig.Captured == 0 {
		return nil, fmt.Errorf("emit: the graph has captured parameters but its Forward signature does not count them")
	}
	types := map[string]ir.Type{}
	for _, ph := range e.g.Placeholders() {
		types[ph.Name] = ph.Type()
	}
	var specs, opts []jen.Code
	for _, p := range sig.Params {
		if p.Tensor {
			t, ok := types[p.Name]
			if !ok {
				return nil, fmt.Errorf("emit: Forward parameter %s has no placeholder", p.Name)
			}
			specs = append(specs, jen.Lit(p.Name+"="+t.String()))
			continue
		}
		lit, err := literal(p.Concrete)
		if err != nil {
			return nil, fmt.Errorf("emit: parameter %s: %v", p.Name, err)
		}
		opts = append(opts, jen.Qual(tracerPkg, "Concrete").Call(jen.Lit(p.Name), lit))
	}
	var leaves []string
	for name, m := range e.g.Modules {
		if m.Kind == "" {
			leaves = append(leaves, name)
		}
	}
	if len(leaves) > 0 {
		sort.Strings(leaves)
		var lits []jen.Code
		for _, l := range leaves {
			lits = append(lits, jen.Lit(l))
		}
		opts = append(opts, jen.Qual(tracerPkg, "Leaf").Call(lits...))
	}
	v := jen.Id(e.names.name("captured"))
	args := append([]jen.Code{jen.Id("m"), jen.Lit("New" + e.cfg.Compiled), jen.Index().String().Values(specs...), jen.Lit(sig.Captured)}, opts...)
	e.ctor = append(e.ctor,
		jen.Commentf("m holds %d tensors where Go code cannot name them (in closures): tracing m.Forward again finds them, in the order it meets them.", sig.Captured),
		v.Clone().Op(":=").Qual(tracerPkg, "Captured").Call(args...))
	return v, nil
}
