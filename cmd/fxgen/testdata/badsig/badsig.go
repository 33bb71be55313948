// Package badsig has a model whose Forward fxgen cannot trace: it returns a
// Go value.
package badsig

import "github.com/fxgen/fxgen/tensor"

// BadSig returns a float64 from Forward.
type BadSig struct{}

// NewBadSig returns a BadSig.
func NewBadSig() *BadSig { return &BadSig{} }

// Forward returns a Go number instead of a tensor.
func (m *BadSig) Forward(x *tensor.Tensor) float64 { // want signature error
	return 0
}
