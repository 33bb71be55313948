// This file holds the hand-written Go forms of sequence ops whose
// signatures the generator cannot derive (several results, an operand
// after an attribute): chunk, split, index_select, layer_norm. The other
// forms are generated from the op table into ops_gen.go.

package tensor

import "github.com/fxgen/fxgen/ir"

// Chunk cuts t along dim into n pieces of ⌈size/n⌉ (the last may be
// smaller), as torch.Tensor.chunk; while tracing it is one chunk node and
// a getitem per piece.
func (t *Tensor) Chunk(n, dim int) []*Tensor {
	return apply(method, ir.OpChunk, []any{t}, kw("chunks", n), kw("dim", dim))
}

// Split cuts t along dim into pieces of sizes[0] (the last may be
// smaller) when sizes has one entry, or of the given sizes, as
// torch.Tensor.split.
func (t *Tensor) Split(sizes []int, dim int) []*Tensor {
	return apply(method, ir.OpSplit, []any{t}, kw("split_size_or_sections", sizes), kw("dim", dim))
}

// IndexSelect returns the entries of dim listed by the 1-d int64 index.
func (t *Tensor) IndexSelect(dim int, index *Tensor) *Tensor {
	return apply1(method, ir.OpIndexSelect, []any{t, index}, kw("dim", dim))
}

// Chunk cuts x along dim into n pieces, as torch.chunk.
func Chunk(x *Tensor, n, dim int) []*Tensor {
	return apply(function, ir.OpChunk, []any{x}, kw("chunks", n), kw("dim", dim))
}

// LayerNorm normalizes x over its trailing dims normalizedShape, then
// scales by weight and adds bias (either may be nil), as F.layer_norm.
func LayerNorm(x *Tensor, normalizedShape []int, weight, bias *Tensor, eps float64) *Tensor {
	return apply1(function, ir.OpLayerNorm, []any{x, weight, bias}, kw("normalized_shape", normalizedShape), kw("eps", eps))
}
