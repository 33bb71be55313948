package conformance

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// TestEveryOpHasSamples fails for an op of the table without a sample.
func TestEveryOpHasSamples(t *testing.T) {
	have := map[string]bool{}
	for _, s := range Samples() {
		have[s.Op] = true
	}
	for _, op := range ir.Ops() {
		if op.IsWrapped() {
			continue
		}
		if !have[op.Name] && coveredBy[op.Name] == "" {
			t.Errorf("op %s has no conformance sample: add it to specialSamples in samples.go (or make it pointwise)", op.Name)
		}
	}
}

// eager runs s with eager tensors and returns every result.
func eager(s *Sample, ins []*runtime.Array) (outs []*runtime.Array, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	ts := make([]*tensor.Tensor, len(ins))
	for i, a := range ins {
		ts[i] = tensor.FromArray(a)
	}
	vals := make([]any, len(s.Args))
	for i, a := range s.Args {
		switch x := a.(type) {
		case Input:
			vals[i] = ts[x]
		case []Input:
			var list []*tensor.Tensor
			for _, k := range x {
				list = append(list, ts[k])
			}
			vals[i] = list
		case nil:
			vals[i] = (*tensor.Tensor)(nil)
		default:
			vals[i] = a
		}
	}
	for _, r := range tensor.Apply(ir.CallFunction, s.Op, vals, s.Kwargs...) {
		outs = append(outs, r.Array())
	}
	return outs, nil
}

// interpret runs s as a graph of one node over placeholders of the
// sample's symbolic types, its results picked by getitem nodes.
func interpret(s *Sample, ins []*runtime.Array) ([]*runtime.Array, error) {
	g := ir.NewGraph()
	var phs []*ir.Node
	for i, t := range s.Types() {
		phs = append(phs, g.Placeholder(fmt.Sprint("in", i), t))
	}
	args := make([]ir.Arg, len(s.Args))
	for i, a := range s.Args {
		switch x := a.(type) {
		case Input:
			args[i] = phs[x]
		case []Input:
			var list []ir.Arg
			for _, k := range x {
				list = append(list, phs[k])
			}
			args[i] = list
		default:
			args[i] = a
		}
	}
	n, err := g.CallFunction(s.Op, args, s.Kwargs...)
	if err != nil {
		return nil, err
	}
	var result ir.Arg = n
	if len(n.Types) > 1 {
		var items []ir.Arg
		for i := range n.Types {
			gi, err := g.CallFunction("getitem", []ir.Arg{n}, ir.Kwarg{Name: "index", Value: i})
			if err != nil {
				return nil, err
			}
			items = append(items, gi)
		}
		result = items
	}
	if _, err := g.Output(result); err != nil {
		return nil, err
	}
	if err := g.Lint(); err != nil {
		return nil, err
	}
	return ir.NewInterpreter(g).Run(ins...)
}

// compiled runs the sample's generated code.
func compiled(s *Sample, ins []*runtime.Array) (out *runtime.Array, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	mk := Compiled[s.Name]
	if mk == nil {
		return nil, fmt.Errorf("no compiled code: run go generate ./internal/conformance")
	}
	model, _ := s.Model()
	ts := make([]*tensor.Tensor, len(ins))
	for i, a := range ins {
		ts[i] = tensor.FromArray(a)
	}
	return mk(model)(ts).Array(), nil
}

// same compares two arrays: dtype, shape, and values within tol relative
// (NaN equals NaN, infinities and bools exactly).
func same(got, want *runtime.Array, tol float64) error {
	if got.DType != want.DType || fmt.Sprint(got.Shape) != fmt.Sprint(want.Shape) {
		return fmt.Errorf("got %v%v, want %v%v", got.DType, got.Shape, want.DType, want.Shape)
	}
	for i := 0; i < want.Len(); i++ {
		g, w := got.At(i), want.At(i)
		switch {
		case math.IsNaN(w):
			if !math.IsNaN(g) {
				return fmt.Errorf("element %d: got %v, want NaN", i, g)
			}
		case math.IsInf(w, 0) || tol == 0:
			if g != w {
				return fmt.Errorf("element %d: got %v, want %v", i, g, w)
			}
		case math.Abs(g-w) > tol*(1+math.Abs(w)):
			return fmt.Errorf("element %d: got %v, want %v (tolerance %g)", i, g, w, tol)
		}
	}
	return nil
}

// crossTierTol is how far a tier's results may be from the portable
// tier's: the vector kernels sum and round in other orders.
const crossTierTol = 1e-5

// TestConformance runs every sample eagerly, through the interpreter and
// through its compiled code, for two batch sizes, on every kernel tier,
// and requires the three to agree exactly on each tier and every tier to
// agree with the portable tier within crossTierTol.
func TestConformance(t *testing.T) {
	samples := Samples()
	type key struct {
		sample string
		n      int
	}
	reference := map[key][]*runtime.Array{}
	isas := runtime.ISAs()
	// The portable tier first: it is the reference of the others.
	for _, isa := range isas {
		t.Run(isa.String(), func(t *testing.T) {
			prev, err := runtime.SetISA(isa)
			if err != nil {
				t.Fatal(err)
			}
			defer runtime.SetISA(prev)
			for _, s := range samples {
				for _, n := range []int{1, 3} {
					r := rand.New(rand.NewPCG(uint64(n), uint64(len(s.Name))))
					ins := s.RandomInputs(r, n)
					want, err := eager(s, ins)
					if err != nil {
						t.Errorf("%s N=%d: eager: %v", s.Name, n, err)
						continue
					}
					got, err := interpret(s, ins)
					if err != nil {
						t.Errorf("%s N=%d: interpreter: %v", s.Name, n, err)
						continue
					}
					if len(got) != len(want) {
						t.Errorf("%s N=%d: interpreter: %d results, eager %d", s.Name, n, len(got), len(want))
						continue
					}
					for i := range want {
						if err := same(got[i], want[i], 0); err != nil {
							t.Errorf("%s N=%d: interpreter result %d: %v", s.Name, n, i, err)
						}
					}
					if !s.NoCompile {
						c, err := compiled(s, ins)
						if err != nil {
							t.Errorf("%s N=%d: compiled: %v", s.Name, n, err)
						} else if err := same(c, want[0], 0); err != nil {
							t.Errorf("%s N=%d: compiled: %v", s.Name, n, err)
						}
					}
					k := key{s.Name, n}
					if ref, ok := reference[k]; !ok {
						reference[k] = want
					} else {
						tol := crossTierTol
						if s.TierTol != 0 {
							tol = s.TierTol
						}
						for i := range want {
							if err := same(want[i], ref[i], tol); err != nil {
								t.Errorf("%s N=%d: result %d differs from tier %v: %v", s.Name, n, i, isas[0], err)
							}
						}
					}
				}
			}
		})
	}
}
