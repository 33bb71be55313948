// Package testutil holds helpers shared by fxgen's tests: random inputs and
// tolerant comparison of tensors.
package testutil

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// RandFloat32 returns a float32 tensor with values uniform in [-1, 1) from
// a generator seeded with seed.
func RandFloat32(seed uint64, shape ...int) *tensor.Tensor {
	r := rand.New(rand.NewPCG(seed, 1))
	data := make([]float32, runtime.NumElements(shape))
	for i := range data {
		data[i] = r.Float32()*2 - 1
	}
	return tensor.FromFloat32(data, shape...)
}

// RandInt64 returns an int64 tensor with values in [0, n).
func RandInt64(seed uint64, n int64, shape ...int) *tensor.Tensor {
	r := rand.New(rand.NewPCG(seed, 2))
	data := make([]int64, runtime.NumElements(shape))
	for i := range data {
		data[i] = r.Int64N(n)
	}
	return tensor.FromInt64(data, shape...)
}

// Close reports whether got and want have the same dtype and shape and
// their elements differ by at most tol·max(1, max|want|); it returns a
// description of the first difference.
func Close(got, want *tensor.Tensor, tol float64) error {
	g, w := got.Array(), want.Array()
	if g.DType != w.DType || fmt.Sprint(g.Shape) != fmt.Sprint(w.Shape) {
		return fmt.Errorf("got %v%v, want %v%v", g.DType, g.Shape, w.DType, w.Shape)
	}
	scale := 1.0
	for i := 0; i < w.Len(); i++ {
		scale = math.Max(scale, math.Abs(w.At(i)))
	}
	for i := 0; i < w.Len(); i++ {
		a, b := g.At(i), w.At(i)
		if math.IsNaN(a) != math.IsNaN(b) || math.Abs(a-b) > tol*scale {
			return fmt.Errorf("element %d: got %v, want %v (tolerance %g × %g)", i, a, b, tol, scale)
		}
	}
	return nil
}
