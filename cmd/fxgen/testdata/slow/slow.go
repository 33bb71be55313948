// Package slow has a model whose constructor blocks, so that a test can
// interrupt fxgen while its driver runs.
package slow

import (
	"time"

	"github.com/fxgen/fxgen/tensor"
)

// Slow is an identity model.
type Slow struct{}

// NewSlow blocks for a minute before returning a Slow.
func NewSlow() *Slow {
	time.Sleep(time.Minute)
	return &Slow{}
}

// Forward returns relu(x).
func (m *Slow) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Relu() }
