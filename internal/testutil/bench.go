// This file holds the shared benchmark of eager against compiled Forward.

package testutil

import (
	"fmt"
	"testing"

	"github.com/fxgen/fxgen/ir"
)

// BenchForward runs the sub-benchmarks eager/N=n and compiled/N=n of one
// model, reporting allocations and, when flops > 0, GFLOP/s, and
// concurrent/N=n: compiled Forward called from GOMAXPROCS goroutines at
// once, as a service serving that many requests calls it (its time per
// call is the wall time over all goroutines' calls).
func BenchForward(b *testing.B, n int, flops float64, eager, compiled func()) {
	for _, v := range []struct {
		name       string
		fn         func()
		concurrent bool
	}{{"eager", eager, false}, {"compiled", compiled, false}, {"concurrent", compiled, true}} {
		b.Run(fmt.Sprintf("%s/N=%d", v.name, n), func(b *testing.B) {
			b.ReportAllocs()
			if v.concurrent {
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						v.fn()
					}
				})
			} else {
				for b.Loop() {
					v.fn()
				}
			}
			if flops > 0 {
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			}
		})
	}
}

// GraphFLOPs returns the floating-point operations (2 per multiply-add)
// of the matrix products and convolutions of g — linear, matmul and
// conv2d, called as functions, methods or leaf modules — with the symbolic
// dims set to syms.
func GraphFLOPs(g *ir.Graph, syms map[string]int) float64 {
	var total float64
	for _, n := range g.Nodes() {
		op, operands := n.Target, argTypes(n)
		if n.Op == ir.CallModule {
			m := g.Modules[n.Target]
			k := ir.LookupModuleKind(m.Kind)
			if k == nil {
				continue
			}
			op = k.Op
			for _, p := range m.Params {
				if p != "" {
					operands = append(operands, g.Params[p].Type)
				}
			}
		} else if n.Op != ir.CallFunction && n.Op != ir.CallMethod {
			continue
		}
		var macsPerOut int
		switch {
		case op == "linear" && len(operands) >= 2:
			macsPerOut = operands[1].Shape[1].Coef // weight [out, in]
		case op == "conv2d" && len(operands) >= 2:
			w := operands[1].Shape // [O, C/groups, KH, KW]
			macsPerOut = w[1].Coef * w[2].Coef * w[3].Coef
		case op == "matmul" && len(operands) >= 1:
			in := operands[0].Shape
			macsPerOut = in[len(in)-1].Coef
		default:
			continue
		}
		dims, ok := n.Types[0].Shape.Eval(syms)
		if !ok {
			continue
		}
		outs := 1
		for _, d := range dims {
			outs *= d
		}
		total += 2 * float64(outs) * float64(macsPerOut)
	}
	return total
}

func argTypes(n *ir.Node) []ir.Type {
	var ts []ir.Type
	for _, a := range n.Args() {
		if m, ok := a.(*ir.Node); ok && len(m.Types) == 1 {
			ts = append(ts, m.Types[0])
		}
	}
	return ts
}
