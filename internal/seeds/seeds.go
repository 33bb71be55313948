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

//go:generate go tool fxgen -type ClsToken -input "x=f32[N,3,4]" -leaf gate

// ClsToken is written the PyTorch way: it reads its batch size with
// x.Size(0), expands a learned class token to it, views by it and builds
// zeros of it; its gate is a leaf with dynamic control flow.
type ClsToken struct {
	Cls  *tensor.Tensor // [1,1,4]
	Proj *nn.Linear
	Gate *DynamicGate
}

// NewClsToken returns a ClsToken over 4 features.
func NewClsToken() *ClsToken {
	return &ClsToken{Cls: tensor.Rand(5, 1, 1, 4), Proj: nn.NewLinear(4, 4), Gate: &DynamicGate{}}
}

// Forward returns gate(proj(cat(cls, x))) flattened per sample, plus zeros
// of the batch size: [N,16].
func (m *ClsToken) Forward(x *tensor.Tensor) *tensor.Tensor {
	n := x.Size(0)
	cls := m.Cls.Expand(n, -1, -1)
	h := m.Proj.Forward(tensor.Cat([]*tensor.Tensor{cls, x}, 1))
	h = nn.Call(m.Gate, h)
	return h.View(n, -1).Add(tensor.Zeros(n, 16))
}

// DynamicGate branches and loops on tensor values, so it cannot be traced
// through; as a leaf, the compiled model calls its Forward.
type DynamicGate struct{}

// Forward returns relu(x) when x sums to more than 0, else -x, halved
// while its sum exceeds 4 (at most 5 times).
func (DynamicGate) Forward(x *tensor.Tensor) *tensor.Tensor {
	if x.Sum().Item() > 0 {
		x = x.Relu()
	} else {
		x = x.Neg()
	}
	for i := 0; i < 5 && x.Sum().Item() > 4; i++ {
		x = x.MulScalar(0.5)
	}
	return x
}

//go:generate go tool fxgen -type HeadSplit -input "x=f32[N,8,16]"

// HeadSplit splits 16 features into 4 heads by sizes read from its input,
// the PyTorch way: x.Size(0) and x.Size(1) in View, Reshape and Ones, and
// arithmetic on them.
type HeadSplit struct{ FC *nn.Linear }

// NewHeadSplit returns a HeadSplit.
func NewHeadSplit() *HeadSplit { return &HeadSplit{FC: nn.NewLinear(16, 16)} }

// Forward returns fc(x) split into heads [N*4,8,4], times ones, flattened
// per sample: [N,128].
func (m *HeadSplit) Forward(x *tensor.Tensor) *tensor.Tensor {
	b, t := x.Size(0), x.Size(1)
	h := m.FC.Forward(x)
	h = h.View(b, t, 4, 4).Transpose(1, 2)
	h = h.Reshape(b.Mul(4), t, 4)
	h = h.Mul(tensor.Ones(b.Mul(4), t, 1))
	return h.Reshape(b, -1)
}

//go:generate go tool fxgen -type Closures -input "x=f32[N,4]" -concrete twice=true -leaf gate

// Closures holds its projection and gain only in a closure, as
// functional-style Go code does; Go code cannot name them, so the compiled
// model finds them by tracing Forward again in its constructor
// (tracer.Captured) and reads them in place.
type Closures struct {
	Head func(*tensor.Tensor) *tensor.Tensor
	Gate *DynamicGate
}

// NewClosures returns a Closures over 4 features.
func NewClosures() *Closures { return closuresOver(nn.NewLinear(4, 4), tensor.Rand(6, 4)) }

// closuresOver returns a Closures whose head is proj(x)·sigmoid(gain).
func closuresOver(proj *nn.Linear, gain *tensor.Tensor) *Closures {
	return &Closures{
		Head: func(x *tensor.Tensor) *tensor.Tensor { return proj.Forward(x).Mul(gain.Sigmoid()) },
		Gate: &DynamicGate{},
	}
}

// Forward returns gate(head(x)), through the head a second time when
// twice is set.
func (m *Closures) Forward(x *tensor.Tensor, twice bool) *tensor.Tensor {
	h := nn.Call(m.Gate, m.Head(x))
	if twice {
		h = m.Head(h)
	}
	return h
}
