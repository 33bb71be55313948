package runtime

import "testing"

func TestWorkspaceLayout(t *testing.T) {
	var a, b, c, d, i Array
	var l WorkspaceLayout
	l.Own(&a, Float32, 2, 3)    // slot 0: 6 elements
	l.Own(&b, Float32, 5)       // slot 1: 5, then 40
	l.Reuse(&c, &a, Float32, 4) // slot 0 again
	l.Own(&i, Int64, 3)
	l.Reuse(&d, &b, Float32, 4, 10)
	var w Workspace
	l.Bind(&w)
	if want := SlotSize(6) + SlotSize(40); len(w.F32) != want {
		t.Errorf("float32 workspace: got %d elements, want %d", len(w.F32), want)
	}
	if len(w.I64) != SlotSize(3) {
		t.Errorf("int64 workspace: got %d elements, want %d", len(w.I64), SlotSize(3))
	}
	same := func(x, y *Array) bool { return &x.F32[:1][0] == &y.F32[:1][0] }
	if !same(&a, &c) || !same(&b, &d) || same(&a, &b) {
		t.Errorf("values share storage wrongly: a=c %v, b=d %v, a=b %v", same(&a, &c), same(&b, &d), same(&a, &b))
	}
	if len(d.F32) != 40 || d.Shape[1] != 10 || len(i.I64) != 3 {
		t.Errorf("shapes: d %v (%d), i %d", d.Shape, len(d.F32), len(i.I64))
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Reuse of a value never added did not panic")
		}
	}()
	l.Reuse(&a, &Array{}, Float32, 1)
}
