// This file holds EmbeddingBag and Conv1d, whose operands Go spells in
// PyTorch's order rather than the op's.

package tensor

// EmbeddingBag reduces bags of rows of weight [num, dim] picked by the
// int64 indices, as torch.nn.functional.embedding_bag(input, weight,
// offsets, mode=...): with offsets (1-D, starting at 0, not decreasing)
// input is 1-D and bag b starts at offsets[b]; with nil offsets input is
// [bags, length]. mode is runtime.EmbeddingBagSum, EmbeddingBagMean or
// EmbeddingBagMax; an empty bag gives zeros. The result is [bags, dim].
func EmbeddingBag(input, weight, offsets *Tensor, mode int) *Tensor {
	return apply1(function, "embedding_bag", []any{input, offsets, weight}, kw("mode", mode))
}

// Conv1d is the 1-D convolution of x [N,C,L] with weight [O,C/groups,K]
// and bias [O] (nil for none), as torch.nn.functional.conv1d with
// dilation 1: [N,O,(L+2·padding-K)/stride+1].
func Conv1d(x, weight, bias *Tensor, stride, padding, groups int) *Tensor {
	return apply1(function, "conv1d", []any{x, weight, bias}, kw("stride", stride), kw("padding", padding), kw("groups", groups))
}
