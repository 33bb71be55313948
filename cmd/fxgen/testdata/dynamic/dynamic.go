// Package dynamic has a model whose control flow depends on tensor values,
// which fxgen cannot trace.
package dynamic

import "github.com/fxgen/fxgen/tensor"

// Dynamic returns x or relu(x) depending on x's sum.
type Dynamic struct{}

// NewDynamic returns a Dynamic.
func NewDynamic() *Dynamic { return &Dynamic{} }

// Forward branches on a tensor value.
func (m *Dynamic) Forward(x *tensor.Tensor) *tensor.Tensor {
	if x.Sum().Item() > 0 { // want trace error
		return x.Relu()
	}
	return x
}
