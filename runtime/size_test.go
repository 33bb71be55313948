// This file checks the size kernels against hand-computed results.

package runtime

import (
	"slices"
	"testing"
)

func TestExpand(t *testing.T) {
	x := FromFloat32([]float32{1, 2, 3}, 3, 1)
	out := NewArray(Float32, 2, 3, 2)
	Expand(out, x, []*Array{Int64Scalar(2), Int64Scalar(-1), Int64Scalar(2)})
	want := []float32{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}
	if !slices.Equal(out.F32, want) {
		t.Errorf("Expand([3,1] → [2,3,2]) = %v, want %v", out.F32, want)
	}
	row := FromInt64([]int64{4, 5}, 1, 2)
	oi := NewArray(Int64, 3, 2)
	ExpandAs(oi, row, oi)
	if want := []int64{4, 5, 4, 5, 4, 5}; !slices.Equal(oi.I64, want) {
		t.Errorf("ExpandAs([1,2] → [3,2]) = %v, want %v", oi.I64, want)
	}
}

func TestFloorDivAndSizeOf(t *testing.T) {
	out := NewArray(Int64, 4)
	FloorDiv(out, FromInt64([]int64{7, -7, 6, -6}, 4), Int64Scalar(2))
	if want := []int64{3, -4, 3, -3}; !slices.Equal(out.I64, want) {
		t.Errorf("FloorDiv = %v, want %v", out.I64, want)
	}
	s := NewArray(Int64)
	SizeOf(s, NewArray(Float32, 5, 7), -1)
	if s.I64[0] != 7 {
		t.Errorf("SizeOf(dim -1 of [5,7]) = %d, want 7", s.I64[0])
	}
}

// TestSizeKernelsDoNotAllocate: compiled models call these kernels on
// every Forward.
func TestSizeKernelsDoNotAllocate(t *testing.T) {
	x, out := NewArray(Float32, 3, 1, 4), NewArray(Float32, 2, 3, 5, 4)
	sizes := []*Array{Int64Scalar(2), Int64Scalar(-1), Int64Scalar(5), Int64Scalar(-1)}
	a, b, q := NewArray(Int64, 4, 3), NewArray(Int64, 3), NewArray(Int64, 4, 3)
	Fill(b, 2)
	s := NewArray(Int64)
	if n := testing.AllocsPerRun(10, func() {
		Expand(out, x, sizes)
		ExpandAs(out, x, out)
		FloorDiv(q, a, b)
		Full(out, []*Array{Int64Scalar(2), Int64Scalar(3), Int64Scalar(5), Int64Scalar(4)}, 1)
		SizeOf(s, out, 2)
	}); n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
}
