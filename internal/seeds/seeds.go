// Package seeds holds the seed cases of the torch.fx documentation as
// models whose compiled forms are generated and run: a leaf user module, a
// wrapped function, a concrete argument, tensor constructors, and graphs
// transformed before emission (relu decomposed, add replaced by mul).
package seeds

import (
	"math"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

//go:generate go tool fxgen -type Leafy -input "x=f32[N,4]" -leaf sub
//go:generate go tool fxgen -type Normalize -input "x=f32[N,4]"
//go:generate go tool fxgen -type Gate -input "x=f32[N,4]" -concrete flag=true
//go:generate go tool fxgen -type Constructors -input "x=f32[N,4]"
//go:generate go tool fxgen -type Stack -input "x=f32[N,3]"

// Scale multiplies by a learned factor and applies relu.
type Scale struct{ Factor *tensor.Tensor }

// Forward returns relu(x·Factor).
func (s *Scale) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Mul(s.Factor).Relu() }

// Leafy is a Linear followed by a user submodule, which the directive
// keeps as an opaque leaf.
type Leafy struct {
	Linear *nn.Linear
	Sub    *Scale
}

// NewLeafy returns a Leafy over 4 features.
func NewLeafy() *Leafy {
	return &Leafy{Linear: nn.NewLinear(4, 4), Sub: &Scale{Factor: tensor.Rand(3, 4)}}
}

// Forward applies Linear, then Sub.
func (m *Leafy) Forward(x *tensor.Tensor) *tensor.Tensor { return nn.Call(m.Sub, m.Linear.Forward(x)) }

// InvSqrtLen returns 1/√len(x) as a 0-d tensor; it reads a size that is
// symbolic while tracing, so it is wrapped.
func InvSqrtLen(args ...*tensor.Tensor) *tensor.Tensor {
	return tensor.Scalar(float32(1 / math.Sqrt(float64(args[0].Dim(0)))))
}

var invSqrtLen = tracer.Wrap("inv_sqrt_len", InvSqrtLen,
	func(...ir.Type) (ir.Type, error) { return ir.Type{DType: ir.Float32, Shape: ir.Shape{}}, nil })

// Normalize is x / sqrt(len(x)) with the wrapped function.
type Normalize struct{}

// NewNormalize returns a Normalize.
func NewNormalize() *Normalize { return &Normalize{} }

// Forward returns x / √N.
func (Normalize) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Mul(invSqrtLen(x)) }

// Gate applies relu or neg by a flag bound at generate time.
type Gate struct{}

// NewGate returns a Gate.
func NewGate() *Gate { return &Gate{} }

// Forward returns relu(x) when flag, else -x.
func (Gate) Forward(x *tensor.Tensor, flag bool) *tensor.Tensor {
	if flag {
		return x.Relu()
	}
	return x.Neg()
}

// Constructors adds tensors made inside Forward.
type Constructors struct{}

// NewConstructors returns a Constructors.
func NewConstructors() *Constructors { return &Constructors{} }

// Forward returns x + zeros + ones + rand(seed 42) + arange.
func (Constructors) Forward(x *tensor.Tensor) *tensor.Tensor {
	z := tensor.Zeros(4).Add(tensor.Ones(4))
	return x.Add(z).Add(tensor.Rand(42, 4)).Add(tensor.Arange(4))
}

// TwoRelu is Linear, relu, Linear, relu; its graph is transformed before
// emission (see transforms.go).
type TwoRelu struct{ Fc1, Fc2 *nn.Linear }

// NewTwoRelu returns a TwoRelu over 6 features.
func NewTwoRelu() *TwoRelu { return &TwoRelu{Fc1: nn.NewLinear(6, 6), Fc2: nn.NewLinear(6, 3)} }

// Forward returns relu(fc2(relu(fc1(x)))).
func (m *TwoRelu) Forward(x *tensor.Tensor) *tensor.Tensor {
	return tensor.Relu(m.Fc2.Forward(tensor.Relu(m.Fc1.Forward(x))))
}

// AddPair returns x + y; its graph is rewritten to x * y before emission.
type AddPair struct{}

// NewAddPair returns an AddPair.
func NewAddPair() *AddPair { return &AddPair{} }

// Forward returns x + y.
func (AddPair) Forward(x, y *tensor.Tensor) *tensor.Tensor { return tensor.Add(x, y) }

// Stack is an nn.Sequential of Linear, ReLU, Linear: parameters named
// bot.0.weight ... bot.2.bias, reached through interface values.
type Stack struct{ Bot *nn.Sequential }

// NewStack returns a Stack over 3 features.
func NewStack() *Stack {
	return &Stack{Bot: nn.NewSequential(nn.NewLinear(3, 4), &nn.ReLU{}, nn.NewLinear(4, 2))}
}

// Forward applies the stack.
func (m *Stack) Forward(x *tensor.Tensor) *tensor.Tensor { return m.Bot.Forward(x) }

// AddRelu returns relu(x + y); its graph is rewritten by the subgraph
// rewriter before emission.
type AddRelu struct{}

// NewAddRelu returns an AddRelu.
func NewAddRelu() *AddRelu { return &AddRelu{} }

// Forward returns relu(x + y).
func (AddRelu) Forward(x, y *tensor.Tensor) *tensor.Tensor { return tensor.Relu(tensor.Add(x, y)) }
