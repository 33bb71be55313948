// This file defines GELU, the activation module whose op depends on a
// field (the generated activation modules are in modules_gen.go).

package nn

import (
	"fmt"

	"github.com/fxgen/fxgen/tensor"
)

// GELU is the module form of tensor.Gelu, or of tensor.GeluTanh when
// Approximate is "tanh", as torch.nn.GELU(approximate=...).
type GELU struct {
	// Approximate is "none" (or "") for the exact GELU, "tanh" for its
	// tanh approximation.
	Approximate string
}

// NewGELU returns the exact GELU, as torch.nn.GELU().
func NewGELU() *GELU { return &GELU{Approximate: "none"} }

// NewGELUTanh returns the tanh approximation of GELU, as
// torch.nn.GELU(approximate="tanh").
func NewGELUTanh() *GELU { return &GELU{Approximate: "tanh"} }

// Forward returns the GELU of x.
func (m *GELU) Forward(x *tensor.Tensor) *tensor.Tensor {
	switch m.Approximate {
	case "", "none":
		return tensor.CallModule(m, "GELU", nil, func(a []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Gelu(a[0])}
		}, x)[0]
	case "tanh":
		return tensor.CallModule(m, "GELUTanh", nil, func(a []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.GeluTanh(a[0])}
		}, x)[0]
	}
	panic(fmt.Sprintf("nn: GELU: Approximate %q, want \"none\" or \"tanh\"", m.Approximate))
}
