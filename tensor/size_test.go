// This file checks Size and the shape arguments that take it, eagerly.

package tensor_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/tensor"
)

func TestSizeEager(t *testing.T) {
	x := tensor.Zeros(6, 2)
	n := x.Size(0)
	if n.Symbolic() || n.Int() != 6 || n.Mul(2).Div(4).Int() != 3 || n.Sub(x.Size(-1)).Add(1).Int() != 5 || n.String() != "6" {
		t.Errorf("eager sizes: %v, %v, %v", n, n.Mul(2).Div(4), n.Sub(x.Size(-1)).Add(1))
	}
	if got := tensor.FromInt64([]int64{-7}, 1).Size(0).Sub(8).Div(5).Int(); got != -2 {
		t.Errorf("(1-8)//5 = %d, want -2 (floor division, as Python's //)", got)
	}
	if got := x.View(n.Div(2), -1).Shape(); !slices.Equal(got, []int{3, 4}) {
		t.Errorf("View(n/2, -1) has shape %v, want [3 4]", got)
	}
	if got := tensor.Ones(n, 1).Shape(); !slices.Equal(got, []int{6, 1}) {
		t.Errorf("Ones(n, 1) has shape %v, want [6 1]", got)
	}
	e := tensor.FromFloat32([]float32{1, 2}, 2, 1).Expand(3, -1, x.Size(1))
	if got, want := e.Float32s(), []float32{1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2}; !slices.Equal(e.Shape(), []int{3, 2, 2}) || !slices.Equal(got, want) {
		t.Errorf("Expand(3, -1, 2) = %v %v, want [3 2 2] %v", e.Shape(), got, want)
	}
	if got := tensor.Full(2.5, 2).Float32s(); !slices.Equal(got, []float32{2.5, 2.5}) {
		t.Errorf("Full(2.5, 2) = %v", got)
	}
}

func TestShapeArgumentOfAnotherType(t *testing.T) {
	defer func() {
		r := recover()
		if s, ok := r.(string); !ok || !strings.Contains(s, "float64") || !strings.Contains(s, "tensor.Size") {
			t.Errorf("got panic %v, want one naming the float64 and the accepted types", r)
		}
	}()
	tensor.Zeros(2, 3).View(1.5, -1)
}
