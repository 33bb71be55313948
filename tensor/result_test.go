package tensor_test

import (
	"slices"
	"testing"

	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// TestNewResult checks that NewResult's tensor holds its array, zeroed,
// with the dtype and shape asked for (past six dims too), and that it
// makes two allocations for a float32 result of up to six dims.
func TestNewResult(t *testing.T) {
	for _, c := range []struct {
		dt    runtime.DType
		shape []int
	}{{runtime.Float32, []int{2, 3}}, {runtime.Int64, []int{4}}, {runtime.Bool, []int{1, 2, 1}}, {runtime.Float32, nil},
		{runtime.Float32, []int{1, 2, 1, 2, 1, 2}}, {runtime.Float32, []int{1, 1, 1, 1, 1, 1, 2}}} {
		x, a := tensor.NewResult(c.dt, c.shape...)
		if tensor.Data(x) != a {
			t.Errorf("%v %v: the tensor does not hold the array returned", c.dt, c.shape)
		}
		if a.DType != c.dt || !slices.Equal(a.Shape, c.shape) {
			t.Errorf("%v %v: array is %v %v", c.dt, c.shape, a.DType, a.Shape)
		}
		n := 1
		for _, d := range c.shape {
			n *= d
		}
		if got := len(a.F32) + len(a.I64) + len(a.B); got != n {
			t.Errorf("%v %v: %d elements, want %d", c.dt, c.shape, got, n)
		}
		for _, v := range a.F32 {
			if v != 0 {
				t.Errorf("%v %v: not zeroed", c.dt, c.shape)
			}
		}
		if x.Symbolic() != nil {
			t.Errorf("%v %v: symbolic", c.dt, c.shape)
		}
	}
	shape := []int{3, 5}
	if got := testing.AllocsPerRun(100, func() { tensor.NewResult(runtime.Float32, shape...) }); got != 2 {
		t.Errorf("NewResult made %v allocations, want 2", got)
	}
}
