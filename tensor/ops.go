// This file holds the tensor ops as methods (recorded as call_method) and
// package functions (recorded as call_function); each is one line over the
// op vocabulary of package ir.

package tensor

import "github.com/fxgen/fxgen/ir"

const (
	method   = ir.CallMethod
	function = ir.CallFunction
)

func kw(name string, v any) ir.Kwarg { return ir.Kwarg{Name: name, Value: v} }

// Add returns t + other with broadcasting.
func (t *Tensor) Add(other *Tensor) *Tensor { return apply1(method, "add", []any{t, other}) }

// Sub returns t - other with broadcasting.
func (t *Tensor) Sub(other *Tensor) *Tensor { return apply1(method, "sub", []any{t, other}) }

// Mul returns t * other with broadcasting.
func (t *Tensor) Mul(other *Tensor) *Tensor { return apply1(method, "mul", []any{t, other}) }

// Div returns t / other with broadcasting (float32 result).
func (t *Tensor) Div(other *Tensor) *Tensor { return apply1(method, "div", []any{t, other}) }

// Gt returns the bool tensor t > other with broadcasting.
func (t *Tensor) Gt(other *Tensor) *Tensor { return apply1(method, "gt", []any{t, other}) }

// AddScalar returns t + s.
func (t *Tensor) AddScalar(s float64) *Tensor { return apply1(method, "add", []any{t, s}) }

// SubScalar returns t - s.
func (t *Tensor) SubScalar(s float64) *Tensor { return apply1(method, "sub", []any{t, s}) }

// MulScalar returns t * s.
func (t *Tensor) MulScalar(s float64) *Tensor { return apply1(method, "mul", []any{t, s}) }

// DivScalar returns t / s.
func (t *Tensor) DivScalar(s float64) *Tensor { return apply1(method, "div", []any{t, s}) }

// GtScalar returns the bool tensor t > s.
func (t *Tensor) GtScalar(s float64) *Tensor { return apply1(method, "gt", []any{t, s}) }

// Relu returns max(t, 0).
func (t *Tensor) Relu() *Tensor { return apply1(method, "relu", []any{t}) }

// Neg returns -t.
func (t *Tensor) Neg() *Tensor { return apply1(method, "neg", []any{t}) }

// Sqrt returns √t.
func (t *Tensor) Sqrt() *Tensor { return apply1(method, "sqrt", []any{t}) }

// Sum returns the sum over dims (over everything when none are given).
func (t *Tensor) Sum(dims ...int) *Tensor {
	return apply1(method, "sum", []any{t}, sumKwargs(dims, false)...)
}

// SumKeepDim returns the sum over dims, keeping them with size 1.
func (t *Tensor) SumKeepDim(dims ...int) *Tensor {
	return apply1(method, "sum", []any{t}, sumKwargs(dims, true)...)
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
	r := apply(method, "topk", []any{t}, kw("k", k))
	return r[0], r[1]
}

// Reshape returns t with another shape of as many elements; one size may be
// -1, and each is an int or a Size (x.Reshape(x.Size(0), -1)).
func (t *Tensor) Reshape(shape ...Dim) *Tensor { return reshape(method, "reshape", t, shape) }

// View is Reshape (fxgen's tensors are always contiguous).
func (t *Tensor) View(shape ...Dim) *Tensor { return reshape(method, "view", t, shape) }

// Flatten merges dims startDim..endDim (negative counts from the end).
func (t *Tensor) Flatten(startDim, endDim int) *Tensor {
	return apply1(method, "flatten", []any{t}, kw("start_dim", startDim), kw("end_dim", endDim))
}

// Matmul returns the matrix product t·other over the last two dims,
// broadcasting leading dims.
func (t *Tensor) Matmul(other *Tensor) *Tensor { return apply1(method, "matmul", []any{t, other}) }

// Add returns a + b with broadcasting.
func Add(a, b *Tensor) *Tensor { return apply1(function, "add", []any{a, b}) }

// Sub returns a - b with broadcasting.
func Sub(a, b *Tensor) *Tensor { return apply1(function, "sub", []any{a, b}) }

// Mul returns a * b with broadcasting.
func Mul(a, b *Tensor) *Tensor { return apply1(function, "mul", []any{a, b}) }

// Div returns a / b with broadcasting.
func Div(a, b *Tensor) *Tensor { return apply1(function, "div", []any{a, b}) }

// Gt returns the bool tensor a > b.
func Gt(a, b *Tensor) *Tensor { return apply1(function, "gt", []any{a, b}) }

// Relu returns max(x, 0).
func Relu(x *Tensor) *Tensor { return apply1(function, "relu", []any{x}) }

// Neg returns -x.
func Neg(x *Tensor) *Tensor { return apply1(function, "neg", []any{x}) }

// Sqrt returns √x.
func Sqrt(x *Tensor) *Tensor { return apply1(function, "sqrt", []any{x}) }

// Sum returns the sum of x over dims (over everything when none are given).
func Sum(x *Tensor, dims ...int) *Tensor {
	return apply1(function, "sum", []any{x}, sumKwargs(dims, false)...)
}

// TopK returns the k largest values of x along dim and their int64 indices.
func TopK(x *Tensor, k, dim int) (values, indices *Tensor) {
	r := apply(function, "topk", []any{x}, kw("k", k), kw("dim", dim))
	return r[0], r[1]
}

// Linear returns x·weightᵀ + bias (bias may be nil); weight is [out, in].
func Linear(x, weight, bias *Tensor) *Tensor {
	return apply1(function, "linear", []any{x, weight, bias})
}

// Matmul returns the matrix product a·b, broadcasting leading dims.
func Matmul(a, b *Tensor) *Tensor { return apply1(function, "matmul", []any{a, b}) }

// Reshape returns x with another shape; one size may be -1, and each is
// an int or a Size.
func Reshape(x *Tensor, shape ...Dim) *Tensor { return reshape(function, "reshape", x, shape) }

// Flatten merges dims startDim..endDim of x.
func Flatten(x *Tensor, startDim, endDim int) *Tensor {
	return apply1(function, "flatten", []any{x}, kw("start_dim", startDim), kw("end_dim", endDim))
}

// Zeros returns a float32 tensor of zeros; each size is an int or a Size
// (recorded as full when one is symbolic).
func Zeros(shape ...Dim) *Tensor { return constructor("zeros", 0, shape) }

// Ones returns a float32 tensor of ones; each size is an int or a Size
// (recorded as full when one is symbolic).
func Ones(shape ...Dim) *Tensor { return constructor("ones", 1, shape) }

// Arange returns the int64 tensor 0, 1, ..., end-1.
func Arange(end int) *Tensor { return apply1(function, "arange", nil, kw("end", float64(end))) }

// Rand returns a float32 tensor of uniform values in [0, 1) from a
// generator seeded with seed: the same seed gives the same values.
func Rand(seed int, shape ...int) *Tensor {
	return apply1(function, "rand", nil, kw("shape", shape), kw("seed", seed))
}
