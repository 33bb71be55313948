package nn_test

import (
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/tensor/nn"
)

func TestBatchNorm2dParams(t *testing.T) {
	b := nn.NewBatchNorm2d(4)
	want := "weightf32[4] biasf32[4] running_meanf32[4] running_varf32[4] num_batches_trackedi64[]"
	if got := paramNames(b); got != want {
		t.Errorf("NewBatchNorm2d(4) params: got %q, want %q", got, want)
	}
	if b.Eps != 1e-5 {
		t.Errorf("Eps: got %v, want 1e-5", b.Eps)
	}
	// Freshly initialised, it is the identity up to √(1+eps).
	x := testutil.RandFloat32(1, 2, 4, 3, 3)
	if err := testutil.Close(b.Forward(x), x, 1e-5); err != nil {
		t.Error(err)
	}
}

func TestBatchNorm2dNoAffine(t *testing.T) {
	b := nn.NewBatchNorm2d(3)
	b.Weight, b.Bias = nil, nil
	b.Eps = 0
	x := testutil.RandFloat32(2, 1, 3, 2, 2)
	if err := testutil.Close(b.Forward(x), x, 0); err != nil {
		t.Error(err)
	}
}
