// Package transformer is a GPT-style decoder: token and learned position
// embeddings, four pre-norm blocks of causal self-attention and a GELU MLP,
// a final LayerNorm and a linear head over the vocabulary.
package transformer

import (
	"math"

	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

//go:generate go tool fxgen -type Transformer -input "tokens=i64[N,128]"

// The model's sizes.
const (
	Vocab  = 1000
	Seq    = 128
	Width  = 256
	Heads  = 4
	Layers = 4
	head   = Width / Heads
)

// Transformer holds tok_emb, pos_emb, blocks.0 ... blocks.3, ln_f and head.
type Transformer struct {
	TokEmb *nn.Embedding
	PosEmb *tensor.Tensor // [Seq, Width]
	Blocks []*Block
	LnF    *nn.LayerNorm
	Head   *nn.Linear
}

// Block is one pre-norm decoder block.
type Block struct {
	Ln1  *nn.LayerNorm
	Attn *Attention
	Ln2  *nn.LayerNorm
	MLP  *MLP `fx:"mlp"`
}

// Attention is causal multi-head self-attention with a fused qkv
// projection.
type Attention struct {
	Qkv  *nn.Linear // Linear(256, 768)
	Proj *nn.Linear // Linear(256, 256)
}

// MLP is the block's feed-forward part: fc1, exact GELU, fc2.
type MLP struct {
	Fc1 *nn.Linear // Linear(256, 1024)
	Fc2 *nn.Linear // Linear(1024, 256)
}

// NewTransformer returns the model with PyTorch's default initialisation
// of its layers and pos_emb uniform in ±0.02.
func NewTransformer() *Transformer {
	m := &Transformer{
		TokEmb: nn.NewEmbedding(Vocab, Width),
		PosEmb: tensor.Rand(7, Seq, Width).SubScalar(0.5).MulScalar(0.04),
		LnF:    nn.NewLayerNorm(Width),
		Head:   nn.NewLinear(Width, Vocab),
	}
	for range Layers {
		m.Blocks = append(m.Blocks, &Block{
			Ln1:  nn.NewLayerNorm(Width),
			Attn: &Attention{Qkv: nn.NewLinear(Width, 3*Width), Proj: nn.NewLinear(Width, Width)},
			Ln2:  nn.NewLayerNorm(Width),
			MLP:  &MLP{Fc1: nn.NewLinear(Width, 4*Width), Fc2: nn.NewLinear(4*Width, Width)},
		})
	}
	return m
}

// Forward returns the logits [N,128,1000] for tokens [N,128].
func (m *Transformer) Forward(tokens *tensor.Tensor) *tensor.Tensor {
	x := tensor.Add(m.TokEmb.Forward(tokens), m.PosEmb)
	// mask[r, c] is true above the diagonal (c > r): the future.
	i := tensor.Arange(Seq)
	mask := i.Reshape(1, Seq).Gt(i.Reshape(Seq, 1))
	for _, b := range m.Blocks {
		x = b.Forward(x, mask)
	}
	return m.Head.Forward(m.LnF.Forward(x))
}

// Forward applies the block to x [N,128,256] with the causal mask.
func (b *Block) Forward(x, mask *tensor.Tensor) *tensor.Tensor {
	x = tensor.Add(x, b.Attn.Forward(b.Ln1.Forward(x), mask))
	return tensor.Add(x, b.MLP.Forward(b.Ln2.Forward(x)))
}

// Forward attends over x [N,128,256]; mask is true where attention is cut.
func (a *Attention) Forward(x, mask *tensor.Tensor) *tensor.Tensor {
	qkv := a.Qkv.Forward(x).Split([]int{Width}, 2)
	q := qkv[0].Reshape(-1, Seq, Heads, head).Transpose(1, 2) // [N,4,128,64]
	k := qkv[1].Reshape(-1, Seq, Heads, head).Transpose(1, 2)
	v := qkv[2].Reshape(-1, Seq, Heads, head).Transpose(1, 2)
	att := tensor.Matmul(q, k.Transpose(-2, -1)).DivScalar(math.Sqrt(head)) // [N,4,128,128]
	att = tensor.Softmax(att.MaskedFill(mask, math.Inf(-1)), -1)
	y := tensor.Matmul(att, v).Transpose(1, 2).Reshape(-1, Seq, Width) // [N,128,256]
	return a.Proj.Forward(y)
}

// Forward is fc2(gelu(fc1(x))).
func (m *MLP) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.Fc2.Forward(tensor.Gelu(m.Fc1.Forward(x)))
}
