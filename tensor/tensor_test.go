package tensor_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/tensor"
)

func TestEagerOps(t *testing.T) {
	x := tensor.FromFloat32([]float32{1, -2, 3, -4, 5, -6}, 2, 3)
	b := tensor.FromFloat32([]float32{10, 20, 30}, 3)
	if got, want := fmt.Sprint(x.Add(b).Float32s()), "[11 18 33 6 25 24]"; got != want {
		t.Errorf("x+b (broadcast) = %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(x.Relu().Float32s()), "[1 0 3 0 5 0]"; got != want {
		t.Errorf("relu = %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(x.Sum(-1).Float32s()), "[2 -5]"; got != want {
		t.Errorf("sum(-1) = %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(x.MulScalar(2).SubScalar(1).Float32s()), "[1 -5 5 -9 9 -13]"; got != want {
		t.Errorf("2x-1 = %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(x.Reshape(-1).Shape(), x.Reshape(3, -1).Shape()), "[6] [3 2]"; got != want {
		t.Errorf("reshape shapes = %s, want %s", got, want)
	}
	v, i := x.TopK(2)
	if got, want := fmt.Sprint(v.Float32s(), i.Int64s()), "[3 1 5 -4] [2 0 1 0]"; got != want {
		t.Errorf("topk = %s, want %s", got, want)
	}
	if got, want := x.GtScalar(0).Bools()[0], true; got != want {
		t.Errorf("x > 0 [0] = %v, want %v", got, want)
	}
	if got := x.Sum().Item(); got != -3 {
		t.Errorf("sum = %v, want -3", got)
	}
	if got := tensor.Arange(4).Int64s(); fmt.Sprint(got) != "[0 1 2 3]" {
		t.Errorf("arange(4) = %v", got)
	}
	if a, b := tensor.Rand(7, 5).Float32s(), tensor.Rand(7, 5).Float32s(); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("rand with one seed differs: %v vs %v", a, b)
	}
}

func TestEagerShapeErrorNamesOpAndShapes(t *testing.T) {
	defer func() {
		r := recover()
		msg := fmt.Sprint(r)
		if r == nil || !strings.Contains(msg, "add") || !strings.Contains(msg, "[2,3]") || !strings.Contains(msg, "[4]") {
			t.Errorf("got panic %q, want one naming add and both shapes", msg)
		}
	}()
	tensor.Zeros(2, 3).Add(tensor.Zeros(4))
}

// Tensors compute eagerly; the same calls on symbolic tensors are recorded
// by the tracer.
func Example() {
	x := tensor.FromFloat32([]float32{1, -2, 3, -4}, 2, 2)
	w := tensor.FromFloat32([]float32{1, 0, 0, 1}, 2, 2)
	y := tensor.Linear(x, w, nil).Relu()
	fmt.Println(y.Shape(), y.Float32s())
	// Output: [2 2] [1 0 3 0]
}
