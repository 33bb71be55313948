package plan_test

import (
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/plan"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tracer"
)

// blocks is a chain of residual blocks, with an extra op at the start
// when extra is set.
type blocks struct{ extra bool }

func (m blocks) Forward(x *tensor.Tensor) *tensor.Tensor {
	x = tensor.Neg(x)
	if m.extra {
		x = tensor.Relu(x)
	}
	for i := 0; i < 6; i++ {
		h := tensor.Neg(tensor.Relu(x))
		x = tensor.Relu(tensor.Add(h, x))
	}
	return tensor.Neg(x)
}

// previous traces m, plans it and returns, for each planned value, the
// value whose storage it takes (-1 for a slot's first), each named by its
// node's distance from the graph's end: node names count ops across the
// graph, so the inserted op would rename every later one.
func previous(t *testing.T, m blocks) map[int]int {
	t.Helper()
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,8]"))
	if err != nil {
		t.Fatal(err)
	}
	mem, err := plan.NewMemory(g, plan.ParamOnly(g))
	if err != nil {
		t.Fatal(err)
	}
	fromEnd := map[*ir.Node]int{}
	nodes := g.Nodes()
	for i, n := range nodes {
		fromEnd[n] = len(nodes) - i
	}
	out := map[int]int{}
	for v, p := range mem.Previous(g) {
		out[fromEnd[v.Node]] = -1
		if p.Node != nil {
			out[fromEnd[v.Node]] = fromEnd[p.Node]
		}
	}
	return out
}

// TestPreviousIsLocal checks what makes the generated workspace layout
// diff like the model: one more value at the start of a chain changes
// which value's storage another takes for a few values near it, not for
// every later one (slot numbers would all change).
func TestPreviousIsLocal(t *testing.T) {
	before, after := previous(t, blocks{}), previous(t, blocks{extra: true})
	changed := 0
	for v, p := range before {
		if q, ok := after[v]; ok && q != p {
			changed++
		}
	}
	if len(before) < 20 || changed > 4 {
		t.Errorf("%d of %d planned values take another value's storage after inserting one op, want at most 4:\nbefore %v\nafter  %v", changed, len(before), before, after)
	}
}

// TestNilMemory checks the plan with no sharing.
func TestNilMemory(t *testing.T) {
	var m *plan.Memory
	g := ir.NewGraph()
	if m.Slots(nil) != nil || m.IsView(nil) || m.SlotCount() != 0 || m.Verify(g, nil) != nil {
		t.Errorf("the nil *Memory is not the empty plan")
	}
}
