// This file holds the reduction kernels: sum and topk.

package runtime

import (
	"math"
	"slices"
	"sort"
)

// NormalizeDim maps a possibly negative dimension index into [0, rank).
func NormalizeDim(dim, rank int) (int, bool) {
	if dim < 0 {
		dim += rank
	}
	return dim, dim >= 0 && dim < rank
}

// Sum sets out to the sum of x over dims (all dims when dims is empty);
// keepdim keeps the reduced dimensions with size 1. out is float32 for a
// float32 x and int64 otherwise.
//
//	out[i..] = Σ over reduced j.. of x[i.., j..]
func Sum(out, x *Array, dims []int, keepdim bool) {
	if inner, ok := suffixReduction(x.Shape, dims); ok && x.DType == Float32 && out.DType == Float32 {
		if out.Len()*inner != x.Len() {
			kernelPanic("Sum", "out shape %v does not fit sum of %v over %v", out.Shape, x.Shape, append([]int(nil), dims...))
		}
		sumRows(out.F32, x.F32, inner)
		return
	}
	r := newReduction("Sum", x.Shape, dims)
	if out.Len() != r.outLen {
		kernelPanic("Sum", "out shape %v does not fit sum of %v over %v", out.Shape, x.Shape, append([]int(nil), dims...))
	}
	n, ost := x.Len(), r.ost
	if x.DType == Float32 {
		acc := make([]float64, out.Len())
		forEachIndex(x.Shape, ost, n, func(i, o int) { acc[o] += float64(x.F32[i]) })
		for i, v := range acc {
			out.F32[i] = float32(v)
		}
		return
	}
	for i := range out.I64 {
		out.I64[i] = 0
	}
	forEachIndex(x.Shape, ost, n, func(i, o int) { out.I64[o] += intAt(x, i) })
}

// sumRows sets out[o] to the float64 sum of row o of x (rows of inner
// floats), in order. Short rows are summed four at a time: their additions
// are independent chains that overlap, where one row's chain would wait on
// each addition's latency.
func sumRows(out, x []float32, inner int) {
	o := 0
	if inner <= 16 {
		for ; o+4 <= len(out); o += 4 {
			rows := x[o*inner : (o+4)*inner]
			r0, r1, r2, r3 := rows[:inner], rows[inner:2*inner], rows[2*inner:3*inner], rows[3*inner:]
			r1, r2, r3 = r1[:len(r0)], r2[:len(r0)], r3[:len(r0)]
			var a0, a1, a2, a3 float64
			for i, v := range r0 {
				a0 += float64(v)
				a1 += float64(r1[i])
				a2 += float64(r2[i])
				a3 += float64(r3[i])
			}
			out[o], out[o+1], out[o+2], out[o+3] = float32(a0), float32(a1), float32(a2), float32(a3)
		}
	}
	for ; o < len(out); o++ {
		out[o] = float32(sumF64(x[o*inner : (o+1)*inner]))
	}
}

// suffixReduction reports whether dims (empty: all) are exactly the last
// few dims of shape, and returns the number of elements they hold.
func suffixReduction(shape, dims []int) (inner int, ok bool) {
	rank := len(shape)
	if len(dims) == 0 {
		return NumElements(shape), true
	}
	var seen [8]bool
	if rank > len(seen) {
		return 0, false
	}
	for _, d := range dims {
		nd, ok := NormalizeDim(d, rank)
		if !ok || seen[nd] {
			return 0, false
		}
		seen[nd] = true
	}
	inner = 1
	for i := rank - len(dims); i < rank; i++ {
		if i < 0 || !seen[i] {
			return 0, false
		}
		inner *= shape[i]
	}
	return inner, true
}

// forEachIndex calls fn(flat index, offset under strides) for every element.
func forEachIndex(shape, strides []int, n int, fn func(i, off int)) {
	idx := make([]int, len(shape))
	off := 0
	for i := 0; i < n; i++ {
		fn(i, off)
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			off += strides[d]
			if idx[d] < shape[d] {
				break
			}
			off -= strides[d] * idx[d]
			idx[d] = 0
		}
	}
}

// TopK sets values and indices to the k largest (or smallest) entries of the
// float32 array x along dim, in descending (ascending) order; ties keep the
// lower index first. values and indices have x's shape with dim set to k.
//
//	values[.., :, ..] = sort(x[.., :, ..])[:k]; indices = their positions
func TopK(values, indices, x *Array, k, dim int, largest bool) {
	checkDType("TopK", "x", x, Float32)
	checkDType("TopK", "indices", indices, Int64)
	d, ok := NormalizeDim(dim, len(x.Shape))
	if !ok {
		kernelPanic("TopK", "dim %d out of range for %v", dim, x.Shape)
	}
	size := x.Shape[d]
	if k < 0 || k > size {
		kernelPanic("TopK", "k = %d out of range for dimension of size %d", k, size)
	}
	if !topKShape(values.Shape, x.Shape, d, k) || !topKShape(indices.Shape, x.Shape, d, k) {
		want := slices.Clone(x.Shape)
		want[d] = k
		kernelPanic("TopK", "values %v and indices %v, want %v", values.Shape, indices.Shape, want)
	}
	inner := NumElements(x.Shape[d+1:])
	outer := NumElements(x.Shape[:d])
	if inner == 1 && k <= topKInsertionMax {
		var keys [topKInsertionMax]uint32
		for o := 0; o < outer; o++ {
			topKRow(values.F32[o*k:(o+1)*k], indices.I64[o*k:(o+1)*k], x.F32[o*size:(o+1)*size], largest, &keys)
		}
		return
	}
	var order []int // only for large k
	for o := 0; o < outer; o++ {
		for in := 0; in < inner; in++ {
			base, ob := o*size*inner+in, o*k*inner+in
			if k <= topKInsertionMax {
				topKInsert(values.F32, indices.I64, x.F32, base, ob, inner, size, k, largest)
				continue
			}
			if order == nil {
				order = make([]int, size)
			}
			topKSort(values.F32, indices.I64, x.F32, order, base, ob, inner, k, largest)
		}
	}
}

// topKInsertionMax is the largest k selected by insertion (O(size·k), no
// allocation); larger k sorts.
const topKInsertionMax = 64

// better reports whether a ranks before b: NaN is the largest value, as
// in PyTorch; ties keep the earlier index (callers only move on strict
// improvement).
func better(a, b float32, largest bool) bool {
	an, bn := a != a, b != b
	if an || bn {
		if largest {
			return an && !bn
		}
		return bn && !an
	}
	if largest {
		return a > b
	}
	return a < b
}

// topKInsert keeps the best k of one strided row in the output slots,
// inserting each element into the sorted prefix.
func topKInsert(vals []float32, idx []int64, x []float32, base, ob, inner, size, k int, largest bool) {
	if k == 0 {
		return
	}
	n := 0
	for j := 0; j < size; j++ {
		v := x[base+j*inner]
		if n == k && !better(v, vals[ob+(k-1)*inner], largest) {
			continue
		}
		p := n
		if n < k {
			n++
		} else {
			p = k - 1
		}
		for p > 0 && better(v, vals[ob+(p-1)*inner], largest) {
			vals[ob+p*inner] = vals[ob+(p-1)*inner]
			idx[ob+p*inner] = idx[ob+(p-1)*inner]
			p--
		}
		vals[ob+p*inner] = v
		idx[ob+p*inner] = int64(j)
	}
}

// topKKey maps v to a key that orders as better does: a larger key ranks
// first, equal keys are ties (-0 and +0 are equal, NaNs are equal and rank
// first when largest, last otherwise).
func topKKey(v float32, largest bool) uint32 {
	if v != v {
		if largest {
			return math.MaxUint32
		}
		return 0
	}
	b := math.Float32bits(v)
	if b == 1<<31 {
		b = 0 // -0 ranks with +0
	}
	// Negative values flip all their bits, others only the sign bit, a
	// mask rather than a branch on the sign.
	b ^= uint32(int32(b)>>31) | 1<<31
	if !largest {
		b = ^b
	}
	return b
}

// topKRow is topKInsert for a contiguous row (inner == 1), comparing
// integer keys (topKKey) instead of floats with their NaN cases; k =
// len(vals) ≤ topKInsertionMax. keys is the caller's scratch for all its
// rows, rather than an array cleared for each row (the torch.fx
// example's rows are 5 long).
func topKRow(vals []float32, idx []int64, x []float32, largest bool, keys *[topKInsertionMax]uint32) {
	k := len(vals)
	if k == 0 {
		return
	}
	_ = idx[k-1]
	n := 0
	for j, v := range x {
		key := topKKey(v, largest)
		p := n
		if n < k {
			n++
		} else {
			if key <= keys[k-1] {
				continue
			}
			p = k - 1
		}
		for p > 0 && key > keys[p-1] {
			keys[p], vals[p], idx[p] = keys[p-1], vals[p-1], idx[p-1]
			p--
		}
		keys[p], vals[p], idx[p] = key, v, int64(j)
	}
}

// topKSort sorts the row's positions stably and keeps the first k.
func topKSort(vals []float32, idx []int64, x []float32, order []int, base, ob, inner, k int, largest bool) {
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		return better(x[base+order[i]*inner], x[base+order[j]*inner], largest)
	})
	for i := 0; i < k; i++ {
		vals[ob+i*inner] = x[base+order[i]*inner]
		idx[ob+i*inner] = int64(order[i])
	}
}

// topKShape reports whether got is x's shape with dimension d of size k.
func topKShape(got, x []int, d, k int) bool {
	if len(got) != len(x) {
		return false
	}
	for i, n := range x {
		if i == d {
			n = k
		}
		if got[i] != n {
			return false
		}
	}
	return true
}
