// This file holds the tensor ops of sequence and recommender models:
// normalization, embedding, softmax, smooth activations and the ops that
// cut, join and reorder tensors (see ir/ops_sequence.go).

package tensor

// Transpose returns t with dims dim0 and dim1 swapped (negative counts from
// the end), as torch.Tensor.transpose.
func (t *Tensor) Transpose(dim0, dim1 int) *Tensor {
	return apply1(method, "transpose", []any{t}, kw("dim0", dim0), kw("dim1", dim1))
}

// Permute returns t with its dims reordered: dim i of the result is dim
// dims[i] of t.
func (t *Tensor) Permute(dims ...int) *Tensor {
	return apply1(method, "permute", []any{t}, kw("dims", dims))
}

// Softmax returns the softmax of t along dim.
func (t *Tensor) Softmax(dim int) *Tensor {
	return apply1(method, "softmax", []any{t}, kw("dim", dim))
}

// Chunk cuts t along dim into n pieces of ⌈size/n⌉ (the last may be
// smaller), as torch.Tensor.chunk; while tracing it is one chunk node and
// a getitem per piece.
func (t *Tensor) Chunk(n, dim int) []*Tensor {
	return apply(method, "chunk", []any{t}, kw("chunks", n), kw("dim", dim))
}

// Split cuts t along dim into pieces of sizes[0] (the last may be
// smaller) when sizes has one entry, or of the given sizes, as
// torch.Tensor.split.
func (t *Tensor) Split(sizes []int, dim int) []*Tensor {
	return apply(method, "split", []any{t}, kw("split_size_or_sections", sizes), kw("dim", dim))
}

// Select returns t at position index of dim, removing the dim: x[:, i, :]
// is x.Select(1, i).
func (t *Tensor) Select(dim, index int) *Tensor {
	return apply1(method, "select", []any{t}, kw("dim", dim), kw("index", index))
}

// Slice returns t[.., start:end:step, ..] along dim, with Python's rules
// for negative and out-of-range bounds (use math.MaxInt for an open end).
func (t *Tensor) Slice(dim, start, end, step int) *Tensor {
	return apply1(method, "slice", []any{t}, kw("dim", dim), kw("start", start), kw("end", end), kw("step", step))
}

// IndexSelect returns the entries of dim listed by the 1-d int64 index.
func (t *Tensor) IndexSelect(dim int, index *Tensor) *Tensor {
	return apply1(method, "index_select", []any{t, index}, kw("dim", dim))
}

// MaskedFill returns t with value wherever the bool mask (broadcast to t's
// shape) is true.
func (t *Tensor) MaskedFill(mask *Tensor, value float64) *Tensor {
	return apply1(method, "masked_fill", []any{t, mask}, kw("value", value))
}

// Unsqueeze returns t with a dim of size 1 inserted at dim.
func (t *Tensor) Unsqueeze(dim int) *Tensor {
	return apply1(method, "unsqueeze", []any{t}, kw("dim", dim))
}

// Transpose returns x with dims dim0 and dim1 swapped.
func Transpose(x *Tensor, dim0, dim1 int) *Tensor {
	return apply1(function, "transpose", []any{x}, kw("dim0", dim0), kw("dim1", dim1))
}

// Softmax returns the softmax of x along dim, as F.softmax.
func Softmax(x *Tensor, dim int) *Tensor {
	return apply1(function, "softmax", []any{x}, kw("dim", dim))
}

// Chunk cuts x along dim into n pieces, as torch.chunk.
func Chunk(x *Tensor, n, dim int) []*Tensor {
	return apply(function, "chunk", []any{x}, kw("chunks", n), kw("dim", dim))
}

// Cat joins tensors along dim, as torch.cat.
func Cat(tensors []*Tensor, dim int) *Tensor {
	return apply1(function, "cat", []any{tensors}, kw("dim", dim))
}

// Stack joins tensors of one shape along a new dim, as torch.stack.
func Stack(tensors []*Tensor, dim int) *Tensor {
	return apply1(function, "stack", []any{tensors}, kw("dim", dim))
}

// Embedding looks up the rows of weight [num, dim] picked by the int64
// indices: the result has shape indices.shape + [dim], as F.embedding.
func Embedding(indices, weight *Tensor) *Tensor {
	return apply1(function, "embedding", []any{indices, weight})
}

// LayerNorm normalizes x over its trailing dims normalizedShape, then
// scales by weight and adds bias (either may be nil), as F.layer_norm.
func LayerNorm(x *Tensor, normalizedShape []int, weight, bias *Tensor, eps float64) *Tensor {
	return apply1(function, "layer_norm", []any{x, weight, bias}, kw("normalized_shape", normalizedShape), kw("eps", eps))
}

// MaskedFill returns x with value where mask is true.
func MaskedFill(x, mask *Tensor, value float64) *Tensor {
	return apply1(function, "masked_fill", []any{x, mask}, kw("value", value))
}
