// This file tests the eager sequence ops on small tensors.

package tensor_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/fxgen/fxgen/tensor"
)

func TestEagerSequenceOps(t *testing.T) {
	x := tensor.FromFloat32([]float32{0, 1, 2, 3, 4, 5}, 2, 3)
	check := func(what string, got any, want string) {
		t.Helper()
		if s := fmt.Sprint(got); s != want {
			t.Errorf("%s = %s, want %s", what, s, want)
		}
	}
	check("transpose", x.Transpose(0, 1).Float32s(), "[0 3 1 4 2 5]")
	check("permute", x.Unsqueeze(0).Permute(2, 0, 1).Shape(), "[3 1 2]")
	c := x.Chunk(3, 1)
	check("chunk", fmt.Sprint(len(c), c[0].Float32s(), c[2].Float32s()), "3 [0 3] [2 5]")
	s := x.Split([]int{2, 1}, 1)
	check("split", fmt.Sprint(s[0].Float32s(), s[1].Float32s()), "[0 1 3 4] [2 5]")
	check("select", x.Select(1, -1).Float32s(), "[2 5]")
	check("slice", x.Slice(1, 0, math.MaxInt, 2).Float32s(), "[0 2 3 5]")
	check("index_select", x.IndexSelect(1, tensor.FromInt64([]int64{2, 0, 2}, 3)).Float32s(), "[2 0 2 5 3 5]")
	check("cat", tensor.Cat([]*tensor.Tensor{x, x.Select(1, 0).Unsqueeze(1)}, 1).Float32s(), "[0 1 2 0 3 4 5 3]")
	check("stack", tensor.Stack([]*tensor.Tensor{x, x}, 1).Shape(), "[2 2 3]")
	mask := tensor.FromBool([]bool{true, false, false}, 3)
	check("masked_fill", x.MaskedFill(mask, -1).Float32s(), "[-1 1 2 -1 4 5]")
	check("unsqueeze", x.Unsqueeze(-1).Shape(), "[2 3 1]")
	sm := x.Softmax(1).Sum(1).Float32s()
	if math.Abs(float64(sm[0])-1) > 1e-6 || math.Abs(float64(sm[1])-1) > 1e-6 {
		t.Errorf("softmax rows sum to %v, want 1", sm)
	}
	check("sigmoid(0)", tensor.Sigmoid(tensor.Zeros(1)).Float32s(), "[0.5]")
	check("tanh(0)", tensor.Zeros(1).Tanh().Float32s(), "[0]")
	check("gelu(0)", tensor.Gelu(tensor.Zeros(1)).Float32s(), "[0]")
	w := tensor.FromFloat32([]float32{1, 2, 3, 4}, 2, 2)
	check("embedding", tensor.Embedding(tensor.FromInt64([]int64{1, 0}, 2), w).Float32s(), "[3 4 1 2]")
	check("layer_norm", tensor.LayerNorm(tensor.FromFloat32([]float32{1, 3}, 1, 2), []int{2}, nil, nil, 0).Float32s(), "[-1 1]")
}
