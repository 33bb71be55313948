// Package dlrm is a DLRM-style recommender: a bottom MLP over dense
// features, one embedding table per sparse feature, pairwise dot-product
// interactions and a top MLP.
package dlrm

import (
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

//go:generate go tool fxgen -type DLRM -input "dense=f32[N,13]" -input "sparse=i64[N,8]"

// Tables is the number of sparse features, each with its embedding table.
const Tables = 8

// DLRM has the bottom MLP Bot (bot.0, bot.2, bot.4 are its Linears), the
// tables Emb (emb.0 ... emb.7) and the top MLP Top (top.0, top.2, top.4).
type DLRM struct {
	Bot *nn.Sequential
	Emb []*nn.Embedding
	Top *nn.Sequential
}

// NewDLRM returns the model with PyTorch's default initialisation.
func NewDLRM() *DLRM {
	m := &DLRM{
		Bot: nn.NewSequential(
			nn.NewLinear(13, 512), &nn.ReLU{},
			nn.NewLinear(512, 256), &nn.ReLU{},
			nn.NewLinear(256, 64), &nn.ReLU{}),
		Top: nn.NewSequential(
			nn.NewLinear(100, 512), &nn.ReLU{},
			nn.NewLinear(512, 256), &nn.ReLU{},
			nn.NewLinear(256, 1)),
	}
	for range Tables {
		m.Emb = append(m.Emb, nn.NewEmbedding(1000, 64))
	}
	return m
}

// trilIndex lists the flat indices i·9+j of the 36 entries strictly below
// the diagonal of a 9×9 matrix in row-major order, DLRM's li, lj. It is a
// constant of the trace, embedded in the generated code.
var trilIndex = func() *tensor.Tensor {
	var idx []int64
	for i := 0; i <= Tables; i++ {
		for j := 0; j < i; j++ {
			idx = append(idx, int64(i*(Tables+1)+j))
		}
	}
	return tensor.FromInt64(idx, len(idx))
}()

// Forward returns the click probability [N,1] for dense [N,13] and one
// row index per table in sparse [N,8].
func (m *DLRM) Forward(dense, sparse *tensor.Tensor) *tensor.Tensor {
	x := m.Bot.Forward(dense) // [N,64]
	feats := []*tensor.Tensor{x}
	for i, e := range m.Emb {
		feats = append(feats, e.Forward(sparse.Select(1, i)))
	}
	t := tensor.Stack(feats, 1)                         // [N,9,64]
	z := tensor.Matmul(t, t.Transpose(1, 2))            // [N,9,9]
	zflat := z.Flatten(1, -1).IndexSelect(1, trilIndex) // [N,36]
	r := tensor.Cat([]*tensor.Tensor{x, zflat}, 1)      // [N,100]
	return tensor.Sigmoid(m.Top.Forward(r))             // [N,1]
}
