// This file holds SplitBatch, which runs a model a slice of its batch at a
// time.

package runtime

import "slices"

// SplitBatch returns f's results on slices of x along its first dimension,
// stacked along theirs: the slices are as equal as chunk allows (at most
// chunk samples each, in order), and each result must have its slice's
// number of samples and the same other dimensions as the others. Generated
// code runs a model whose ops keep the samples of a batch apart this way,
// so that each layer's output is still in cache when the next reads it
// (plan.BatchChunk); f is then the compiled Forward itself.
func SplitBatch(x *Array, chunk int, f func(*Array) *Array) *Array {
	const name = "SplitBatch"
	if len(x.Shape) == 0 || x.Shape[0] < 1 || chunk < 1 {
		kernelPanic(name, "x %v in slices of %d: want a batch of at least one sample and slices of at least one", x.Shape, chunk)
	}
	n := x.Shape[0]
	parts := (n + chunk - 1) / chunk
	per := x.Len() / n
	var out *Array
	for i, lo := 0, 0; i < parts; i++ {
		size := n / parts
		if i < n%parts {
			size++
		}
		part := batchRows(x, lo, lo+size, per)
		y := f(part)
		if len(y.Shape) == 0 || y.Shape[0] != size {
			kernelPanic(name, "a slice of %d samples gave a result of shape %v", size, y.Shape)
		}
		if out == nil {
			out = NewArray(y.DType, append([]int{n}, y.Shape[1:]...)...)
		} else if y.DType != out.DType || !slices.Equal(y.Shape[1:], out.Shape[1:]) {
			kernelPanic(name, "slices gave results %v %v and %v %v", out.DType, out.Shape[1:], y.DType, y.Shape[1:])
		}
		outRows := batchRows(out, lo, lo+size, out.Len()/n)
		Copy(outRows, y)
		lo += size
	}
	return out
}

// batchRows returns a view of samples [lo, hi) of a, per elements each.
func batchRows(a *Array, lo, hi, per int) *Array {
	v := &Array{DType: a.DType, Shape: append([]int{hi - lo}, a.Shape[1:]...)}
	switch a.DType {
	case Float32:
		v.F32 = a.F32[lo*per : hi*per]
	case Int64:
		v.I64 = a.I64[lo*per : hi*per]
	case Bool:
		v.B = a.B[lo*per : hi*per]
	}
	return v
}
