// This file holds SplitBatch, which runs a model a slice of its batch at a
// time.

package runtime

// SplitBatch has f compute out from x a slice of samples at a time along
// their first dimension: f(outRows, xRows) on views of the same samples of
// both, slices as equal as chunk allows (at most chunk samples each, in
// order). Generated code runs a model whose ops keep the samples of a
// batch apart this way, so that each layer's output is still in cache
// when the next reads it (plan.BatchChunk); f is then the compiled
// model's forward, which writes its result into outRows.
func SplitBatch(out, x *Array, chunk int, f func(outRows, xRows *Array)) {
	const name = "SplitBatch"
	if len(x.Shape) == 0 || x.Shape[0] < 1 || chunk < 1 {
		kernelPanic(name, "x %v in slices of %d: want a batch of at least one sample and slices of at least one", x.Shape, chunk)
	}
	n := x.Shape[0]
	if len(out.Shape) == 0 || out.Shape[0] != n {
		kernelPanic(name, "out %v for x %v: want the same number of samples", out.Shape, x.Shape)
	}
	parts := (n + chunk - 1) / chunk
	for i, lo := 0, 0; i < parts; i++ {
		size := n / parts
		if i < n%parts {
			size++
		}
		f(batchRows(out, lo, lo+size), batchRows(x, lo, lo+size))
		lo += size
	}
}

// batchRows returns a view of samples [lo, hi) of a.
func batchRows(a *Array, lo, hi int) *Array {
	per := a.Len() / a.Shape[0]
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
