// This file defines Embedding, a lookup table of vectors.

package nn

import (
	"github.com/fxgen/fxgen/tensor"
)

// Embedding maps int64 indices to rows of Weight [num, dim], as
// torch.nn.Embedding.
type Embedding struct {
	Weight *tensor.Tensor
}

// NewEmbedding returns an Embedding of num vectors of size dim initialised
// like PyTorch's: weight drawn from N(0, 1).
func NewEmbedding(num, dim int) *Embedding {
	return &Embedding{Weight: randNormal(1, num, dim)}
}

// Forward returns the rows of Weight picked by indices: indices.shape +
// [dim]. An index outside [0, num) panics.
func (e *Embedding) Forward(indices *tensor.Tensor) *tensor.Tensor {
	return tensor.CallModule(e, "Embedding", nil, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Embedding(a[0], e.Weight)}
	}, indices)[0]
}
