package runtime

import (
	"strings"
	"testing"
)

func TestAdopt(t *testing.T) {
	x := NewArray(Float32, 2, 3)
	fresh := NewArray(Float32, 2, 3)
	if got := Adopt("leaf", fresh, Float32, []int{2, 3}, x); got != fresh {
		t.Error("a fresh result was copied")
	}
	// The argument itself, and a view of its second half, are copied.
	if got := Adopt("leaf", x, Float32, []int{2, 3}, x); got == x || &got.F32[0] == &x.F32[0] {
		t.Error("a result that is the argument was not copied")
	}
	half := &Array{DType: Float32, Shape: []int{3}, F32: x.F32[3:]}
	x.F32[4] = 7
	if got := Adopt("leaf", half, Float32, []int{3}, fresh, x); &got.F32[0] == &x.F32[3] || got.F32[1] != 7 {
		t.Error("a view of an argument was not copied, or copied wrong")
	}
	for _, c := range []struct {
		r    *Array
		want string
	}{
		{nil, "leaf returned nil; it was traced to return f32[2 3]"},
		{NewArray(Float32, 3, 2), "leaf returned f32[3 2]; it was traced to return f32[2 3]"},
		{NewArray(Int64, 2, 3), "leaf returned i64[2 3]"},
	} {
		msg := panicText(func() { Adopt("leaf", c.r, Float32, []int{2, 3}, x) })
		if !strings.Contains(msg, c.want) {
			t.Errorf("panic %q, want %q", msg, c.want)
		}
	}
}
