package tensor

import "github.com/fxgen/fxgen/runtime"

// NewResult returns a new eager tensor holding a zeroed array of dtype dt
// and the shape, and that array, for compiled code to compute an output
// into: the tensor, its array and the shape (up to resultDims dims) are
// one allocation and the elements another, where FromArray of
// runtime.NewArray takes three.
func NewResult(dt runtime.DType, shape ...int) (*Tensor, *runtime.Array) {
	if len(shape) > resultDims {
		a := runtime.NewArray(dt, shape...)
		return eager(a), a
	}
	r := &result{}
	r.a.Shape = r.dims[:0:len(shape)]
	r.a.Reset(dt, shape...)
	r.t = Tensor{arr: &r.a, born: Now()}
	return &r.t, &r.a
}

// resultDims is the most dims a result keeps in its own allocation.
const resultDims = 6

// result is what NewResult allocates at once.
type result struct {
	t    Tensor
	a    runtime.Array
	dims [resultDims]int
}
