// This file checks the deterministic fill against values computed by
// scripts/torch_reference.py (bit patterns of the float32 results).

package testutil

import (
	"math"
	"testing"

	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

func TestHashUniform(t *testing.T) {
	if got, want := fnv32a("layer1.0.bn1.running_var"), uint64(0xb03b1c59); got != want {
		t.Errorf("fnv32a = %#x, want %#x", got, want)
	}
	for i, want := range []float64{0.035, -0.759, 0.448, -0.346} {
		if got := HashUniform("x", i); got != want {
			t.Errorf("HashUniform(x, %d) = %v, want %v", i, got, want)
		}
	}
	x := HashInput("x", 2, 2)
	if got := x.Float32s()[1]; got != float32(-0.759) {
		t.Errorf("HashInput(x)[1] = %v, want -0.759", got)
	}
}

func TestFillValueMatchesPython(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shape []int
		bits  [3]uint32 // elements 0, 1, 5
	}{
		{"conv1.weight", []int{64, 3, 7, 7}, [3]uint32{1010465733, 3177029176, 1013299677}},
		{"bn1.running_var", []int{64}, [3]uint32{1060261331, 1067869798, 1060529766}},
		{"bn1.weight", []int{64}, [3]uint32{1064287863, 1065833044, 1064341550}},
		{"fc.bias", []int{1000}, [3]uint32{3182839202, 1023530972, 3182409705}},
		{"pos_emb", []int{128, 256}, [3]uint32{1028829217, 988647784, 1029366088}},
	} {
		for k, i := range []int{0, 1, 5} {
			got := FillValue(tc.name, tc.shape, i)
			if math.Float32bits(got) != tc.bits[k] {
				t.Errorf("FillValue(%s, %v, %d) = %v, want %v", tc.name, tc.shape, i, got, math.Float32frombits(tc.bits[k]))
			}
		}
	}
}

func TestFillStateDict(t *testing.T) {
	sd := map[string]*tensor.Tensor{
		"bn.running_var":         tensor.FromFloat32(make([]float32, 3), 3),
		"bn.num_batches_tracked": tensor.FromArray(runtime.Int64Scalar(7)),
		"fc.weight":              tensor.FromFloat32(make([]float32, 6), 2, 3),
	}
	FillStateDict(sd)
	for i, v := range sd["bn.running_var"].Float32s() {
		if want := FillValue("bn.running_var", []int{3}, i); v != want || v <= 0 {
			t.Errorf("running_var[%d] = %v, want %v > 0", i, v, want)
		}
	}
	if got := sd["bn.num_batches_tracked"].Item(); got != 0 {
		t.Errorf("num_batches_tracked = %v, want 0", got)
	}
	if got, want := sd["fc.weight"].Float32s()[4], FillValue("fc.weight", []int{2, 3}, 4); got != want {
		t.Errorf("fc.weight[4] = %v, want %v", got, want)
	}
}
