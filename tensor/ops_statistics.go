// This file holds the statistics reductions by hand (signatures with
// variadic dims or two results): Mean, Var, Max and Min.

package tensor

// Mean returns the mean over dims (over everything when none are given).
func (t *Tensor) Mean(dims ...int) *Tensor {
	return apply1(method, "mean", []any{t}, sumKwargs(dims, false)...)
}

// MeanKeepDim returns the mean over dims, keeping them with size 1.
func (t *Tensor) MeanKeepDim(dims ...int) *Tensor {
	return apply1(method, "mean", []any{t}, sumKwargs(dims, true)...)
}

// Mean returns the mean of x over dims (everything when dims is empty),
// keeping them with size 1 when keepdim, as torch.mean.
func Mean(x *Tensor, dims []int, keepdim bool) *Tensor {
	return apply1(function, "mean", []any{x}, sumKwargs(dims, keepdim)...)
}

// Var returns the unbiased variance over dims (over everything when none
// are given), as PyTorch's Tensor.var.
func (t *Tensor) Var(dims ...int) *Tensor {
	return apply1(method, "var", []any{t}, sumKwargs(dims, false)...)
}

// Var returns the variance of x over dims (everything when dims is
// empty): the squared deviations divided by count - correction (1 is the
// unbiased estimate, 0 the population variance), as torch.var.
func Var(x *Tensor, dims []int, correction int, keepdim bool) *Tensor {
	return apply1(function, "var", []any{x}, append(sumKwargs(dims, keepdim), kw("correction", correction))...)
}

// Max returns the largest entries of t along dim and their int64
// positions, as torch.max(t, dim): a NaN is the largest and ties keep the
// first. The reduced dim stays with size 1 when keepdim.
func (t *Tensor) Max(dim int, keepdim bool) (values, indices *Tensor) {
	r := apply(method, "max_dim", []any{t}, kw("dim", dim), kw("keepdim", keepdim))
	return r[0], r[1]
}

// Min returns the smallest entries of t along dim and their int64
// positions, as torch.min(t, dim): a NaN wins and ties keep the first.
func (t *Tensor) Min(dim int, keepdim bool) (values, indices *Tensor) {
	r := apply(method, "min_dim", []any{t}, kw("dim", dim), kw("keepdim", keepdim))
	return r[0], r[1]
}

// Max returns the largest entries of x along dim and their positions, as
// torch.max(x, dim, keepdim).
func Max(x *Tensor, dim int, keepdim bool) (values, indices *Tensor) {
	r := apply(function, "max_dim", []any{x}, kw("dim", dim), kw("keepdim", keepdim))
	return r[0], r[1]
}

// Min returns the smallest entries of x along dim and their positions, as
// torch.min(x, dim, keepdim).
func Min(x *Tensor, dim int, keepdim bool) (values, indices *Tensor) {
	r := apply(function, "min_dim", []any{x}, kw("dim", dim), kw("keepdim", keepdim))
	return r[0], r[1]
}
