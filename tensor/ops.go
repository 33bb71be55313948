// This file holds the hand-written tensor ops, as methods (recorded as
// call_method) and package functions (recorded as call_function), whose Go
// signatures the generator cannot derive from the op table (variadic
// shapes, several results, keepdim variants); each is one line over the
// op table of package ir. The other forms are generated into ops_gen.go.

package tensor

import "github.com/fxgen/fxgen/ir"

const (
	method   = ir.CallMethod
	function = ir.CallFunction
)

func kw(name string, v any) ir.Kwarg { return ir.Kwarg{Name: name, Value: v} }

// Sum returns the sum over dims (over everything when none are given).
func (t *Tensor) Sum(dims ...int) *Tensor {
	return apply1(method, ir.OpSum, []any{t}, sumKwargs(dims, false)...)
}

// SumKeepDim returns the sum over dims, keeping them with size 1.
func (t *Tensor) SumKeepDim(dims ...int) *Tensor {
	return apply1(method, ir.OpSum, []any{t}, sumKwargs(dims, true)...)
}

func sumKwargs(dims []int, keep bool) []ir.Kwarg {
	var kws []ir.Kwarg
	if len(dims) > 0 {
		kws = append(kws, kw("dim", dims))
	}
	if keep {
		kws = append(kws, kw("keepdim", true))
	}
	return kws
}

// TopK returns the k largest values along the last dim and their int64
// indices.
func (t *Tensor) TopK(k int) (values, indices *Tensor) {
	r := apply(method, ir.OpTopk, []any{t}, kw("k", k))
	return r[0], r[1]
}

// Reshape returns t with another shape of as many elements; one size may be
// -1, and each is an int or a Size (x.Reshape(x.Size(0), -1)).
func (t *Tensor) Reshape(shape ...Dim) *Tensor { return reshape(method, ir.OpReshape, t, shape) }

// View is Reshape (fxgen's tensors are always contiguous).
func (t *Tensor) View(shape ...Dim) *Tensor { return reshape(method, ir.OpView, t, shape) }

// Flatten merges dims startDim..endDim (negative counts from the end).
func (t *Tensor) Flatten(startDim, endDim int) *Tensor {
	return apply1(method, ir.OpFlatten, []any{t}, kw("start_dim", startDim), kw("end_dim", endDim))
}

// Sum returns the sum of x over dims (over everything when none are given).
func Sum(x *Tensor, dims ...int) *Tensor {
	return apply1(function, ir.OpSum, []any{x}, sumKwargs(dims, false)...)
}

// TopK returns the k largest values of x along dim and their int64 indices.
func TopK(x *Tensor, k, dim int) (values, indices *Tensor) {
	r := apply(function, ir.OpTopk, []any{x}, kw("k", k), kw("dim", dim))
	return r[0], r[1]
}

// Reshape returns x with another shape; one size may be -1, and each is
// an int or a Size.
func Reshape(x *Tensor, shape ...Dim) *Tensor { return reshape(function, ir.OpReshape, x, shape) }

// Flatten merges dims startDim..endDim of x.
func Flatten(x *Tensor, startDim, endDim int) *Tensor {
	return apply1(function, ir.OpFlatten, []any{x}, kw("start_dim", startDim), kw("end_dim", endDim))
}

// Zeros returns a float32 tensor of zeros; each size is an int or a Size
// (recorded as full when one is symbolic).
func Zeros(shape ...Dim) *Tensor { return constructor(ir.OpZeros, 0, shape) }

// Ones returns a float32 tensor of ones; each size is an int or a Size
// (recorded as full when one is symbolic).
func Ones(shape ...Dim) *Tensor { return constructor(ir.OpOnes, 1, shape) }

// Arange returns the int64 tensor 0, 1, ..., end-1.
func Arange(end int) *Tensor { return apply1(function, ir.OpArange, nil, kw("end", float64(end))) }

// Rand returns a float32 tensor of uniform values in [0, 1) from a
// generator seeded with seed: the same seed gives the same values.
func Rand(seed int, shape ...int) *Tensor {
	return apply1(function, ir.OpRand, nil, kw("shape", shape), kw("seed", seed))
}
