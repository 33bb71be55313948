// This file defines EmbeddingBag, sums, means or maxima of bags of
// embedding rows.

package nn

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// EmbeddingBag is torch.nn.EmbeddingBag without per-sample weights: the
// sum, mean or maximum (Mode: runtime.EmbeddingBagSum, EmbeddingBagMean
// or EmbeddingBagMax) of the rows of Weight [num, dim] in each bag.
type EmbeddingBag struct {
	Weight *tensor.Tensor
	Mode   int
}

// NewEmbeddingBag returns a table of num rows of dim floats, initialised
// like PyTorch's (standard normal), reducing bags by mode: "sum", "mean"
// (PyTorch's default) or "max".
func NewEmbeddingBag(num, dim int, mode string) *EmbeddingBag {
	m, ok := map[string]int{"sum": runtime.EmbeddingBagSum, "mean": runtime.EmbeddingBagMean, "max": runtime.EmbeddingBagMax}[mode]
	if !ok {
		panic(fmt.Sprintf("nn.NewEmbeddingBag: mode %q, want \"sum\", \"mean\" or \"max\"", mode))
	}
	return &EmbeddingBag{Weight: randNormal(1, num, dim), Mode: m}
}

// Forward reduces the bags of indices: with offsets (1-D, starting at 0)
// indices is 1-D and bag b starts at offsets[b]; with nil offsets indices
// is [bags, length]. The result is [bags, dim].
func (e *EmbeddingBag) Forward(indices, offsets *tensor.Tensor) *tensor.Tensor {
	attrs := []ir.Kwarg{{Name: "mode", Value: e.Mode}}
	return tensor.CallModule(e, "EmbeddingBag", attrs, func(a []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.EmbeddingBag(a[0], e.Weight, a[1], e.Mode)}
	}, indices, offsets)[0]
}
