package passes

import (
	"strings"
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/plan"
	"github.com/fxgen/fxgen/tensor"
)

// viewNet reshapes a value early and reads the view late, with other
// values computed in between that would reuse the source's slot if the
// view did not keep it live; the output is a reshape too (never a view).
type viewNet struct{}

func (viewNet) Forward(x *tensor.Tensor) *tensor.Tensor {
	a := tensor.Relu(x)              // [N, 12]
	v := tensor.Reshape(a, -1, 3, 4) // view of a
	w := v.Unsqueeze(0)              // view of a view
	b := tensor.Neg(x)               // a is dead here except through v, w
	c := tensor.Relu(tensor.Neg(b))  // more values that want slots
	d := tensor.Add(tensor.Reshape(c, -1, 3, 4), v)
	e := tensor.Add(d, tensor.Reshape(w, -1, 3, 4))
	return tensor.Reshape(e, -1, 12)
}

func TestPlanMemoryViews(t *testing.T) {
	g := trace(t, viewNet{}, "x=f32[N,12]")
	after, p := applyAndCompare(t, g, 0, PlanMemory)
	if err := p.Memory.Verify(after, plan.ParamOnly(after)); err != nil {
		t.Fatal(err)
	}
	slotOf := map[string]int{}
	views := 0
	var a *ir.Node
	for _, n := range after.Nodes() {
		if s := p.Memory.Slots(n); s != nil {
			slotOf[n.Name] = s[0]
		}
		if p.Memory.IsView(n) {
			views++
			if s := p.Memory.Slots(n); s != nil && s[0] >= 0 {
				t.Errorf("view %s has slot %d", n.Name, s[0])
			}
		}
		if n.Name == "relu" {
			a = n
		}
		if n.Op == ir.Output {
			src := n.Inputs()[0]
			if p.Memory.IsView(src) {
				t.Errorf("the output %s is a view", src.Name)
			}
		}
	}
	if views != 4 {
		t.Errorf("got %d views, want 4 (reshape, unsqueeze and the two reshapes read by add)", views)
	}
	// Nothing computed while a view of relu is live may take relu's slot.
	for _, name := range []string{"neg", "neg_1", "relu_1", "add"} {
		if s, ok := slotOf[name]; ok && s == slotOf[a.Name] {
			t.Errorf("%s takes slot %d of relu while views of relu are live", name, s)
		}
	}
	// A view that kept its mark after a rewrite made it a graph output is
	// caught.
	out := after.OutputNode()
	for _, n := range after.Nodes() {
		if n.Name == "reshape" {
			if err := out.SetArgs([]ir.Arg{n}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := p.Memory.Verify(after, plan.ParamOnly(after)); err == nil || !strings.Contains(err.Error(), "view") {
		t.Errorf("Memory.Verify with a view as output: got %v, want an error", err)
	}
}
