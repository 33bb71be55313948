// This file holds the small models the pass tests trace.

package passes

import (
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// convNet is conv → bn → relu twice with modules, a conv with a bias whose
// result is used twice (not folded), and a linear → relu head.
type convNet struct {
	Conv1 *nn.Conv2d
	Bn1   *nn.BatchNorm2d
	Relu  *nn.ReLU
	Conv2 *nn.Conv2d
	Bn2   *nn.BatchNorm2d
	Conv3 *nn.Conv2d
	Bn3   *nn.BatchNorm2d
	Pool  *nn.AdaptiveAvgPool2d
	Fc    *nn.Linear
}

func newConvNet() *convNet {
	return &convNet{
		Conv1: nn.NewConv2d(3, 4, 3, nn.Padding(1), nn.Bias(false)), Bn1: nn.NewBatchNorm2d(4), Relu: &nn.ReLU{},
		Conv2: nn.NewConv2d(4, 4, 3, nn.Stride(2), nn.Padding(1)), Bn2: nn.NewBatchNorm2d(4),
		Conv3: nn.NewConv2d(4, 4, 1), Bn3: nn.NewBatchNorm2d(4),
		Pool: nn.NewAdaptiveAvgPool2d(1, 1), Fc: nn.NewLinear(4, 5),
	}
}

func (m *convNet) Forward(x *tensor.Tensor) *tensor.Tensor {
	x = m.Relu.Forward(m.Bn1.Forward(m.Conv1.Forward(x)))
	x = m.Relu.Forward(m.Bn2.Forward(m.Conv2.Forward(x)))
	y := m.Conv3.Forward(x)
	x = tensor.Add(m.Bn3.Forward(y), y) // y has two users: no folding
	x = tensor.Flatten(m.Pool.Forward(x), 1, -1)
	return tensor.Relu(m.Fc.Forward(x))
}

// funcNet calls conv2d, batch_norm, linear and gelu as functions, with
// optional parameters absent (no conv bias, no batch_norm affine).
type funcNet struct {
	W, Mean, Var, Gamma, Beta *tensor.Tensor
	FcW, FcB                  *tensor.Tensor
}

func newFuncNet() *funcNet {
	return &funcNet{
		W: tensor.FromFloat32(make([]float32, 6*2*3*3), 6, 2, 3, 3), Mean: tensor.FromFloat32(make([]float32, 6), 6),
		Var: tensor.FromFloat32(make([]float32, 6), 6), Gamma: tensor.FromFloat32(make([]float32, 6), 6),
		Beta: tensor.FromFloat32(make([]float32, 6), 6),
		FcW:  tensor.FromFloat32(make([]float32, 7*6), 7, 6), FcB: tensor.FromFloat32(make([]float32, 7), 7),
	}
}

func (m *funcNet) Forward(x *tensor.Tensor) *tensor.Tensor {
	a := tensor.BatchNorm(tensor.Conv2d(x, m.W, nil, []int{1, 1}, []int{0, 0}, 2), nil, nil, m.Mean, m.Var, 1e-3)
	b := tensor.BatchNorm(tensor.Conv2d(x, m.W, nil, []int{1, 1}, []int{1, 1}, 2), m.Gamma, m.Beta, m.Mean, m.Var, 1e-5)
	h := tensor.Add(tensor.Sum(a, 2, 3), tensor.Sum(tensor.Relu(b), 2, 3)) // [N, 6]
	return tensor.Gelu(tensor.Linear(h, m.FcW, m.FcB))
}
