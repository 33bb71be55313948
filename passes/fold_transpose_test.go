package passes

import (
	"testing"

	"github.com/fxgen/fxgen/tensor"
)

// attnNet has a q·kᵀ (folds), an x·xᵀ over dims 1, 2 of a rank-3 array
// (folds), transposes of other dims (stay, one of them folded into) and a
// transpose with two users (stays).
type attnNet struct{}

func (attnNet) Forward(q, k, x *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor, *tensor.Tensor, *tensor.Tensor, *tensor.Tensor) {
	s := tensor.Matmul(q, k.Transpose(-2, -1))                                 // [N, 2, 5, 5]
	xx := tensor.Matmul(x, tensor.Transpose(x, 1, 2))                          // [N, 3, 3]
	o := tensor.Matmul(q.Transpose(1, 2), k.Transpose(1, 2).Transpose(-2, -1)) // [N, 5, 2, 2]: folds, the transposes of dims 1, 2 stay
	t := x.Transpose(-1, -2)
	return s, xx, o, tensor.Add(tensor.Matmul(x, t), xx), t
}

func TestFoldTranspose(t *testing.T) {
	g := trace(t, attnNet{}, "q=f32[N,2,5,4]", "k=f32[N,2,5,4]", "x=f32[N,3,6]")
	after, _ := applyAndCompare(t, g, 1e-6, FoldTranspose)
	if got := count(after, "matmul_transb"); got != 3 {
		t.Errorf("got %d matmul_transb, want 3:\n%s", got, after)
	}
	if got := count(after, "transpose"); got != 3 {
		t.Errorf("got %d transposes left, want 3 (dims 1, 2 twice, two users):\n%s", got, after)
	}
}
