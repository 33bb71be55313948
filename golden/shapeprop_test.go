// This file checks shape and dtype propagation: the Interpreter's concrete
// values against the traced graph's static types.

package golden

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tracer"
)

// randomInput returns a random array of type t with its symbols set to
// syms; int64 inputs hold small indices, valid for every model's tables.
func randomInput(r *rand.Rand, t ir.Type, syms map[string]int) *runtime.Array {
	dims, _ := t.Shape.Eval(syms)
	a := runtime.NewArray(t.DType, dims...)
	for i := range a.F32 {
		a.F32[i] = r.Float32()*2 - 1
	}
	for i := range a.I64 {
		a.I64[i] = r.Int64N(8)
	}
	return a
}

func TestShapePropagation(t *testing.T) {
	for _, m := range goldenModels { // every example model

		t.Run(m.name, func(t *testing.T) {
			n := 2
			if m.name == "resnet18" {
				n = 1 // large; the small models check N ≠ 1
			}
			syms := map[string]int{"N": n}
			inputs := tracer.MustParseInputs(m.inputs...)
			g, err := tracer.Trace(m.root(), inputs)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, 2))
			var args []*runtime.Array
			for _, in := range inputs {
				args = append(args, randomInput(r, in.Type, syms))
			}
			it := ir.NewInterpreter(g)
			checked := 0
			it.AfterNode = func(node *ir.Node, v ir.Value) {
				vals, ok := v.([]*runtime.Array)
				if !ok {
					vals = []*runtime.Array{v.(*runtime.Array)}
				}
				for i, a := range vals {
					want, _ := node.Types[i].Shape.Eval(syms)
					if a.DType != node.Types[i].DType || fmt.Sprint(a.Shape) != fmt.Sprint(want) {
						t.Errorf("node %s result %d: interpreter gave %v%v, static type %v means %v%v", node.Name, i, a.DType, a.Shape, node.Types[i], node.Types[i].DType, want)
					}
					checked++
				}
			}
			if _, err := it.Run(args...); err != nil {
				t.Fatal(err)
			}
			if checked < g.Len()-1 {
				t.Errorf("checked %d values of %d nodes", checked, g.Len())
			}
		})
	}
}
