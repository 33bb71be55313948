package tensor

import "github.com/fxgen/fxgen/runtime"

// NewResult returns a new eager tensor holding a zeroed array of dtype dt
// and the shape, and that array, for compiled code to compute an output
// into: the tensor, its array and the shape (runtime.ShapedArray) are one
// allocation and the elements another, where FromArray of
// runtime.NewArray takes three.
func NewResult(dt runtime.DType, shape ...int) (*Tensor, *runtime.Array) {
	r := &result{}
	a := r.a.Init(dt, shape...)
	r.t = eagerValue(a)
	return &r.t, a
}

// result is what NewResult allocates at once.
type result struct {
	t Tensor
	a runtime.ShapedArray
}
