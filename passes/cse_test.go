package passes

import (
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// twiceNet computes several values twice: a sigmoid of a parameter (as a
// closure called twice does), a Linear of the same input, a softmax; and
// values that only look alike: a softmax over another dim, a scale by
// another literal, a wrapped Go function called twice.
type twiceNet struct {
	Gain *tensor.Tensor
	FC   *nn.Linear
}

// cseNoise is a wrapped function: fxgen cannot see its code, so two calls
// stay two calls.
var cseNoise = tracer.Wrap("cse_test_noise", func(args ...*tensor.Tensor) *tensor.Tensor { return args[0].MulScalar(1.5) },
	func(ts ...ir.Type) (ir.Type, error) { return ts[0], nil })

func (m *twiceNet) Forward(x *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor, *tensor.Tensor) {
	a := m.FC.Forward(x).Mul(m.Gain.Sigmoid())
	b := m.FC.Forward(x).Mul(m.Gain.Sigmoid())
	s := a.Softmax(1).Add(b.Softmax(1)).Add(a.Softmax(0))
	k := s.MulScalar(2).Add(s.MulScalar(3))
	return k, cseNoise(a), cseNoise(b)
}

func TestCSE(t *testing.T) {
	m := &twiceNet{Gain: tensor.Rand(1, 4), FC: nn.NewLinear(4, 4)}
	g := trace(t, m, "x=f32[N,4]")
	randomize(g, 3)
	after, _ := applyAndCompare(t, g, 0, LowerModules, CSE)
	for op, want := range map[string]int{
		"sigmoid":        1,
		"linear":         1,
		"mul":            3, // by the gain, by 2 and by 3
		"softmax":        2, // over dims 1 and 0
		"add":            3,
		"cse_test_noise": 2, // a and b are one value now, but each call stays
	} {
		if got := count(after, op); got != want {
			t.Errorf("%s: %d nodes, want %d:\n%s", op, got, want, after)
		}
	}
	if got := len(after.FindNodes(ir.GetAttr, "gain")); got != 1 {
		t.Errorf("%d get_attr gain nodes, want 1:\n%s", got, after)
	}
}
