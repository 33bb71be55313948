// This file defines Module, what a model holds as a layer, and Call.

package nn

import (
	"github.com/fxgen/fxgen/tensor"
)

// Module is a module with one tensor in and one out.
type Module interface {
	Forward(x *tensor.Tensor) *tensor.Tensor
}

// Call calls a user submodule's Forward through the tracer's module hook:
// eagerly it is m.Forward(x); while tracing, m is traced through, or kept as
// one opaque call_module node when the tracer is told it is a leaf.
func Call(m Module, x *tensor.Tensor) *tensor.Tensor {
	return tensor.CallModule(m, "", nil, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{m.Forward(a[0])}
	}, x)[0]
}
