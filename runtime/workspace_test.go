// This file tests Workspace.

package runtime

import (
	"strings"
	"testing"
)

func TestWorkspaceBind(t *testing.T) { forEachISA(t, testWorkspaceBind) }

func testWorkspaceBind(t *testing.T) {
	var w Workspace
	w.Reserve(SlotSize(5)+6, 3, 2)
	var a, b, c, d Array
	w.Bind(&a, Float32, 0, 5)
	w.Bind(&b, Float32, SlotSize(5), 2, 3)
	w.Bind(&c, Int64, 0, 3)
	w.Bind(&d, Bool, 1, 1)
	for i := range a.F32 {
		a.F32[i] = 1
	}
	for i := range b.F32 {
		b.F32[i] = 2
	}
	if a.F32[4] != 1 || b.F32[0] != 2 || len(b.F32) != 6 || cap(a.F32) != 5 || a.I64 != nil {
		t.Errorf("got a %v, b %v", &a, &b)
	}
	if len(c.I64) != 3 || len(d.B) != 1 || d.F32 != nil {
		t.Errorf("got c %v, d %v", &c, &d)
	}
	// Rebinding the same array to another dtype drops the old slice.
	w.Bind(&a, Int64, 0, 2)
	if a.F32 != nil || len(a.I64) != 2 {
		t.Errorf("rebound a: %v", &a)
	}
	if got := SlotSize(17); got != 32 {
		t.Errorf("SlotSize(17) = %d, want 32", got)
	}
	if allocs := testing.AllocsPerRun(10, func() {
		w.Reserve(10, 3, 2)
		w.Bind(&b, Float32, 0, 2, 3)
	}); allocs != 0 {
		t.Errorf("Reserve and Bind on a large enough workspace: %v allocations, want 0", allocs)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "[20, 26)") {
			t.Errorf("got panic %v, want an out-of-range one", r)
		}
	}()
	w.Bind(&b, Float32, 20, 2, 3)
}
