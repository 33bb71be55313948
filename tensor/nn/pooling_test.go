package nn_test

import (
	"testing"

	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

func TestPoolingModules(t *testing.T) {
	x := tensor.FromFloat32([]float32{
		1, 2, 3, 4,
		5, 6, 7, 8,
		9, 10, 11, 12,
		13, 14, 15, 16,
	}, 1, 1, 4, 4)
	for _, c := range []struct {
		name string
		m    nn.Module
		want []float32
	}{
		{"MaxPool2d(2) with default stride", &nn.MaxPool2d{KernelSize: 2}, []float32{6, 8, 14, 16}},
		{"MaxPool2d(3, 2, 1)", nn.NewMaxPool2d(3, 2, 1), []float32{6, 8, 14, 16}},
		{"MaxPool2d(3, 1, 0)", nn.NewMaxPool2d(3, 1, 0), []float32{11, 12, 15, 16}},
		{"AdaptiveAvgPool2d(1, 1)", nn.NewAdaptiveAvgPool2d(1, 1), []float32{8.5}},
		{"AdaptiveAvgPool2d(1, 2)", nn.NewAdaptiveAvgPool2d(1, 2), []float32{7.5, 9.5}},
	} {
		got := c.m.Forward(x).Float32s()
		if len(got) != len(c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: got %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
}
