// This file holds the statistics reductions: mean and variance over dims,
// and max, min, argmax and argmin along one dim.

package runtime

// reduction is the layout of a reduction of shape over some dims: for
// each element of x, ost gives its output offset (strides of the output
// in x's dims, 0 where reduced); count is the number of elements reduced
// into each output.
type reduction struct {
	ost    []int
	outLen int
	count  int
}

// newReduction lays out the reduction of shape over dims (all dims when
// dims is empty), panicking for kernel fn on a dim out of range.
func newReduction(fn string, shape, dims []int) reduction {
	rank := len(shape)
	reduced := make([]bool, rank)
	for i := range reduced {
		reduced[i] = len(dims) == 0
	}
	for _, d := range dims {
		nd, ok := NormalizeDim(d, rank)
		if !ok {
			kernelPanic(fn, "dim %d out of range for %v", d, shape)
		}
		reduced[nd] = true
	}
	r := reduction{ost: make([]int, rank), outLen: 1, count: 1}
	for i := rank - 1; i >= 0; i-- {
		if reduced[i] {
			r.count *= shape[i]
		} else {
			r.ost[i] = r.outLen
			r.outLen *= shape[i]
		}
	}
	return r
}

// sums returns, per output element, the float64 sum of x's elements
// reduced into it.
func (r reduction) sums(x *Array) []float64 {
	acc := make([]float64, r.outLen)
	forEachIndex(x.Shape, r.ost, x.Len(), func(i, o int) { acc[o] += float64(x.F32[i]) })
	return acc
}

// Mean sets out to the mean of the float32 array x over dims (all dims
// when dims is empty), as torch.mean; keepdim only decides out's shape.
// The sums are taken in float64.
//
//	out[i..] = (Σ over reduced j.. of x[i.., j..]) / count
func Mean(out, x *Array, dims []int, keepdim bool) {
	checkDType("Mean", "x", x, Float32)
	checkDType("Mean", "out", out, Float32)
	if inner, ok := suffixReduction(x.Shape, dims); ok && inner > 0 && out.Len()*inner == x.Len() {
		// The reduced dims are the last ones: rows of x, no allocation.
		for o := range out.F32 {
			out.F32[o] = float32(sumF64(x.F32[o*inner:(o+1)*inner]) / float64(inner))
		}
		return
	}
	r := newReduction("Mean", x.Shape, dims)
	if out.Len() != r.outLen {
		kernelPanic("Mean", "out shape %v does not fit the mean of %v over %v", out.Shape, x.Shape, append([]int(nil), dims...))
	}
	for o, s := range r.sums(x) {
		out.F32[o] = float32(s / float64(r.count))
	}
}

// Var sets out to the variance of the float32 array x over dims (all dims
// when dims is empty), as torch.var: the sum of squared deviations from
// the mean divided by count - correction (1 is the unbiased estimate, 0
// the population variance). A divisor of zero or less gives NaN or +Inf,
// as in PyTorch. Both passes are taken in float64.
//
//	out[i..] = Σ (x[i.., j..] - mean[i..])² / max(0, count - correction)
func Var(out, x *Array, dims []int, correction int, keepdim bool) {
	checkDType("Var", "x", x, Float32)
	checkDType("Var", "out", out, Float32)
	if inner, ok := suffixReduction(x.Shape, dims); ok && inner > 0 && out.Len()*inner == x.Len() {
		// The reduced dims are the last ones: rows of x, no allocation.
		div := float64(max(0, inner-correction))
		for o := range out.F32 {
			row := x.F32[o*inner : (o+1)*inner]
			mean := sumF64(row) / float64(inner)
			var sq float64
			for _, v := range row {
				d := float64(v) - mean
				sq += d * d
			}
			out.F32[o] = float32(sq / div)
		}
		return
	}
	r := newReduction("Var", x.Shape, dims)
	if out.Len() != r.outLen {
		kernelPanic("Var", "out shape %v does not fit the variance of %v over %v", out.Shape, x.Shape, append([]int(nil), dims...))
	}
	mean := r.sums(x)
	for o := range mean {
		mean[o] /= float64(r.count)
	}
	sq := make([]float64, r.outLen)
	forEachIndex(x.Shape, r.ost, x.Len(), func(i, o int) {
		d := float64(x.F32[i]) - mean[o]
		sq[o] += d * d
	})
	div := float64(max(0, r.count-correction))
	for o, s := range sq {
		out.F32[o] = float32(s / div)
	}
}

// MaxDim sets values and indices to the largest entry of x (float32 or
// int64) along dim and its position, as torch.max(x, dim): a NaN is the
// largest value and ties keep the first position. values and indices have
// x's shape without dim (with dim of size 1 when keepdim).
func MaxDim(values, indices, x *Array, dim int, keepdim bool) {
	extremeDim("MaxDim", values, indices, x, dim, true)
}

// MinDim is MaxDim for the smallest entry, as torch.min(x, dim); a NaN is
// still the result where there is one, as in PyTorch.
func MinDim(values, indices, x *Array, dim int, keepdim bool) {
	extremeDim("MinDim", values, indices, x, dim, false)
}

// ArgMax sets out to the int64 position of the largest entry of x along
// dim, as torch.argmax(x, dim): the first NaN, else the first maximum.
func ArgMax(out, x *Array, dim int, keepdim bool) { extremeDim("ArgMax", nil, out, x, dim, true) }

// ArgMin sets out to the int64 position of the smallest entry of x along
// dim, as torch.argmin(x, dim): the first NaN, else the first minimum.
func ArgMin(out, x *Array, dim int, keepdim bool) { extremeDim("ArgMin", nil, out, x, dim, false) }

// extremeDim computes the max or min of x along dim into values (nil for
// argmax/argmin) and indices.
func extremeDim(fn string, values, indices, x *Array, dim int, largest bool) {
	checkDType(fn, "indices", indices, Int64)
	if x.DType != Float32 && x.DType != Int64 {
		kernelPanic(fn, "x is %v, want f32 or i64", x.DType)
	}
	d, ok := NormalizeDim(dim, len(x.Shape))
	if !ok {
		kernelPanic(fn, "dim %d out of range for %v", dim, x.Shape)
	}
	size := x.Shape[d]
	if size == 0 {
		kernelPanic(fn, "dim %d of %v is empty", dim, x.Shape)
	}
	outer, inner := NumElements(x.Shape[:d]), NumElements(x.Shape[d+1:])
	if indices.Len() != outer*inner || values != nil && (values.DType != x.DType || values.Len() != outer*inner) {
		kernelPanic(fn, "outputs do not fit the reduction of %v along dim %d", x.Shape, dim)
	}
	for o := 0; o < outer; o++ {
		for in := 0; in < inner; in++ {
			base, at := o*size*inner+in, o*inner+in
			best := 0
			if x.DType == Float32 {
				row := x.F32
				for j := 1; j < size; j++ {
					v, b := row[base+j*inner], row[base+best*inner]
					if b != b {
						break // the first NaN wins
					}
					if v != v || largest && v > b || !largest && v < b {
						best = j
					}
				}
				if values != nil {
					values.F32[at] = row[base+best*inner]
				}
			} else {
				row := x.I64
				for j := 1; j < size; j++ {
					v, b := row[base+j*inner], row[base+best*inner]
					if largest && v > b || !largest && v < b {
						best = j
					}
				}
				if values != nil {
					values.I64[at] = row[base+best*inner]
				}
			}
			indices.I64[at] = int64(best)
		}
	}
}

// sumF64 returns the float64 sum of s.
func sumF64(s []float32) float64 {
	var acc float64
	for _, v := range s {
		acc += float64(v)
	}
	return acc
}
