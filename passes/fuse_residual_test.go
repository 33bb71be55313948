package passes

import (
	"fmt"
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// residualNet has residual adds in both orders, one whose residual is
// used again later (no in-place result), a linear used twice (not fused)
// and a broadcasting add (not fused).
type residualNet struct {
	Fc1, Fc2, Fc3, Fc4 *nn.Linear
	B                  *tensor.Tensor
}

func (m *residualNet) Forward(x *tensor.Tensor) *tensor.Tensor {
	h := tensor.Relu(x)
	a := tensor.Add(h, m.Fc1.Forward(x))     // h dies here: in place
	b := tensor.Add(m.Fc2.Forward(a), a)     // a is read again below
	c := tensor.Add(tensor.Neg(a), b)        // keeps a live past b
	y := m.Fc3.Forward(c)                    // two users: not fused
	d := tensor.Add(tensor.Add(y, c), y)     // y has two users: not fused
	return tensor.Add(m.Fc4.Forward(d), m.B) // broadcasts [4] against [N, 4]: not fused
}

func TestFuseResidual(t *testing.T) {
	m := &residualNet{Fc1: nn.NewLinear(4, 4), Fc2: nn.NewLinear(4, 4), Fc3: nn.NewLinear(4, 4), Fc4: nn.NewLinear(4, 4),
		B: tensor.FromFloat32(make([]float32, 4), 4)}
	g := trace(t, m, "x=f32[N,4]")
	randomize(g, 11)
	after, p := applyAndCompare(t, g, 1e-5, Default...)
	if got := count(after, "linear_residual"); got != 2 {
		t.Errorf("got %d linear_residual nodes, want 2:\n%s", got, after)
	}
	if got := count(after, "linear"); got != 2 {
		t.Errorf("got %d linear nodes left, want 2 (fc3, used twice, and fc4, broadcast):\n%s", got, after)
	}
	inPlace := 0
	for _, n := range after.Nodes() {
		if !isCall(n, "linear_residual") {
			continue
		}
		res := n.Args()[3].(*ir.Node)
		same := p.Memory.Slots(res) != nil && p.Memory.Slots(res)[0] == p.Memory.Slots(n)[0]
		switch res.Target {
		case "relu":
			if !same {
				t.Errorf("%s does not take the slot of its dying residual %s", n.Name, res.Name)
			}
			inPlace++
		default:
			if same {
				t.Errorf("%s takes the slot of its residual %s, which is read later", n.Name, res.Name)
			}
		}
	}
	if inPlace != 1 {
		t.Errorf("got %d in-place residuals, want 1:\n%s", inPlace, after)
	}
}

// selfResidual adds a linear of x to x itself: x is the GEMM's input and
// the residual, so the result may not take x's slot even though x dies.
type selfResidual struct{ Fc *nn.Linear }

func (m *selfResidual) Forward(x *tensor.Tensor) *tensor.Tensor {
	h := tensor.Relu(x)
	return tensor.Relu(tensor.Add(h, m.Fc.Forward(h)))
}

func TestFuseResidualNotInPlaceOverItsInput(t *testing.T) {
	g := trace(t, &selfResidual{Fc: nn.NewLinear(4, 4)}, "x=f32[N,4]")
	randomize(g, 12)
	after, p := applyAndCompare(t, g, 1e-5, Default...)
	for _, n := range after.Nodes() {
		if isCall(n, "linear_residual") {
			if h := n.Args()[0].(*ir.Node); p.Memory.Slots(h)[0] == p.Memory.Slots(n)[0] {
				t.Errorf("%s writes the slot of its GEMM input %s", n.Name, h.Name)
			}
			return
		}
	}
	t.Errorf("no linear_residual:\n%s", after)
}

// convResidualNet has a ResNet block (relu(conv2(relu(conv1(x))) + x)),
// an add of a convolution followed by no activation, a convolution with
// two users (not fused), a broadcasting add (not fused), and an add whose
// relu is not its only user (the relu stays).
type convResidualNet struct {
	C1, C2, C3, C4, C5 *nn.Conv2d
	B                  *tensor.Tensor
}

func (m *convResidualNet) Forward(x *tensor.Tensor) *tensor.Tensor {
	h := tensor.Relu(m.C1.Forward(x))
	a := tensor.Relu(tensor.Add(m.C2.Forward(h), x)) // conv2d_residual, relu fused
	b := tensor.Add(a, m.C3.Forward(a))              // conv2d_residual, no act
	y := m.C4.Forward(b)                             // two users: not fused
	c := tensor.Add(tensor.Add(y, b), y)
	d := tensor.Add(m.C5.Forward(c), c) // fused; its relu has a second user
	e := tensor.Relu(d)
	return tensor.Add(tensor.Add(e, d), m.B) // broadcasts [4, 1, 1]: not fused
}

func TestFuseResidualConv(t *testing.T) {
	conv := func() *nn.Conv2d { return nn.NewConv2d(4, 4, 3, nn.Padding(1)) }
	m := &convResidualNet{C1: conv(), C2: conv(), C3: conv(), C4: conv(), C5: conv(),
		B: tensor.FromFloat32(make([]float32, 4), 4, 1, 1)}
	g := trace(t, m, "x=f32[N,4,6,6]")
	randomize(g, 13)
	after, _ := applyAndCompare(t, g, 1e-4, Default...)
	var acts []int
	for _, n := range after.Nodes() {
		if isCall(n, ir.OpConv2dResidual) {
			a, _ := n.Kwarg("act")
			acts = append(acts, a.(int))
		}
	}
	if want := []int{ir.ActReLU, ir.ActNone, ir.ActNone}; fmt.Sprint(acts) != fmt.Sprint(want) {
		t.Errorf("conv2d_residual acts %v, want %v:\n%s", acts, want, after)
	}
	if got := count(after, ir.OpConv2d); got != 1 {
		t.Errorf("got %d conv2d nodes left, want 1 (c4, used twice):\n%s", got, after)
	}
}
