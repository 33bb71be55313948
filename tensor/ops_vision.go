// This file holds the vision ops as package functions (recorded as
// call_function, like torch.nn.functional): conv2d, batch_norm, pooling.

package tensor

// Conv2d returns the 2-D cross-correlation of x [N,C,H,W] with weight
// [O,C/groups,KH,KW] plus bias [O] (bias may be nil), as
// torch.nn.functional.conv2d with dilation 1. stride and padding hold one
// value for both spatial dims or two (height, width); padding is zeros.
func Conv2d(x, weight, bias *Tensor, stride, padding []int, groups int) *Tensor {
	return apply1(function, "conv2d", []any{x, weight, bias}, kw("stride", stride), kw("padding", padding), kw("groups", groups))
}

// BatchNorm normalizes x [N,C,...] per channel with running statistics
// (inference mode): (x - mean)/√(variance + eps)·weight + bias, as
// torch.nn.functional.batch_norm with training false. weight and bias may
// be nil.
func BatchNorm(x, weight, bias, mean, variance *Tensor, eps float64) *Tensor {
	return apply1(function, "batch_norm", []any{x, weight, bias, mean, variance}, kw("eps", eps))
}

// MaxPool2d returns the maximum over each window of the last two dims of x
// [N,C,H,W] or [C,H,W], as torch.nn.functional.max_pool2d: kernelSize,
// stride and padding hold one value or two; an empty stride means
// kernelSize; padding is -inf and at most half the window.
func MaxPool2d(x *Tensor, kernelSize, stride, padding []int) *Tensor {
	return apply1(function, "max_pool2d", []any{x}, kw("kernel_size", kernelSize), kw("stride", stride), kw("padding", padding))
}

// AdaptiveAvgPool2d averages the last two dims of x [N,C,H,W] or [C,H,W]
// down to outputSize (one value for a square or two), as
// torch.nn.functional.adaptive_avg_pool2d.
func AdaptiveAvgPool2d(x *Tensor, outputSize []int) *Tensor {
	return apply1(function, "adaptive_avg_pool2d", []any{x}, kw("output_size", outputSize))
}
