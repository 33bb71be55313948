// Package lstm is one LSTM layer unrolled over 16 time steps by a plain Go
// loop, which the trace flattens into straight-line code.
package lstm

import (
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

//go:generate go tool fxgen -type LSTM -input "x=f32[N,16,128]" -input "h0=f32[N,256]" -input "c0=f32[N,256]"

// Steps is the number of time steps Forward unrolls.
const Steps = 16

// LSTM is one LSTM layer of 128 inputs and 256 hidden units: Ih maps the
// input and Hh the hidden state to the four gates (i, f, g, o).
type LSTM struct {
	Ih *nn.Linear // ih: Linear(128, 1024)
	Hh *nn.Linear // hh: Linear(256, 1024)
}

// NewLSTM returns the layer with PyTorch's default Linear initialisation.
func NewLSTM() *LSTM {
	return &LSTM{Ih: nn.NewLinear(128, 1024), Hh: nn.NewLinear(256, 1024)}
}

// Forward runs the layer over x [N,16,128] from the state h0, c0 [N,256]
// and returns the final state (h, c).
func (m *LSTM) Forward(x, h0, c0 *tensor.Tensor) (h, c *tensor.Tensor) {
	h, c = h0, c0
	for t := 0; t < Steps; t++ {
		gates := tensor.Add(m.Ih.Forward(x.Select(1, t)), m.Hh.Forward(h))
		g := gates.Chunk(4, 1)
		i, f, cand, o := tensor.Sigmoid(g[0]), tensor.Sigmoid(g[1]), tensor.Tanh(g[2]), tensor.Sigmoid(g[3])
		c = tensor.Add(tensor.Mul(f, c), tensor.Mul(i, cand))
		h = tensor.Mul(o, tensor.Tanh(c))
	}
	return h, c
}
