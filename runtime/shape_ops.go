// This file holds the kernels that move elements without arithmetic:
// transpose, permute, split, select, slice, index_select, stack and cat.
// They work on every dtype.

package runtime

// Transpose sets out to x with dims dim0 and dim1 swapped (negative counts
// from the end).
//
//	out[.., j, .., i, ..] = x[.., i, .., j, ..]
func Transpose(out, x *Array, dim0, dim1 int) {
	r := len(x.Shape)
	a, ok0 := NormalizeDim(dim0, r)
	b, ok1 := NormalizeDim(dim1, r)
	if !ok0 || !ok1 {
		if r == 0 && (dim0 == 0 || dim0 == -1) && (dim1 == 0 || dim1 == -1) {
			Copy(out, x)
			return
		}
		kernelPanic("Transpose", "dims %d, %d out of range for %v", dim0, dim1, x.Shape)
	}
	var buf [smallRank]int
	perm := smallInts(buf[:], r)
	for i := range perm {
		perm[i] = i
	}
	perm[a], perm[b] = b, a
	permute("Transpose", out, x, perm)
}

// Permute sets out to x with its dims reordered: dim i of out is dim
// dims[i] of x (negative counts from the end).
//
//	out[i0, i1, ..] = x[.., i_k at position dims[k], ..]
func Permute(out, x *Array, dims []int) {
	r := len(x.Shape)
	if len(dims) != r {
		kernelPanic("Permute", "dims %v for %v: want one per dim", dupInts(dims), x.Shape)
	}
	var buf [smallRank]int
	perm := smallInts(buf[:], r)
	for i, d := range dims {
		nd, ok := NormalizeDim(d, r)
		if !ok || slicesContains(perm[:i], nd) {
			kernelPanic("Permute", "dims %v is not a permutation of the dims of %v", dupInts(dims), x.Shape)
		}
		perm[i] = nd
	}
	permute("Permute", out, x, perm)
}

func permute(name string, out, x *Array, perm []int) {
	checkDType(name, "out", out, x.DType)
	r := len(x.Shape)
	var wantBuf, xstBuf, istBuf [smallRank]int
	want := smallInts(wantBuf[:], r)
	for i, p := range perm {
		want[i] = x.Shape[p]
	}
	if !equalInts(out.Shape, want) {
		kernelPanic(name, "out shape %v, want %v", out.Shape, dupInts(want))
	}
	// ist[i] is the stride in x of dim i of out.
	xst, ist := smallInts(xstBuf[:], r), smallInts(istBuf[:], r)
	stride := 1
	for d := r - 1; d >= 0; d-- {
		xst[d] = stride
		stride *= x.Shape[d]
	}
	for i, p := range perm {
		ist[i] = xst[p]
	}
	if permuteChannels(out, x, perm) {
		return
	}
	switch x.DType {
	case Float32:
		permuteT(out.F32, x.F32, want, ist)
	case Int64:
		permuteT(out.I64, x.I64, want, ist)
	case Bool:
		permuteT(out.B, x.B, want, ist)
	}
}

// smallRank is the rank up to which kernels keep index scratch on the stack.
const smallRank = 8

// smallInts returns buf[:n] when it fits, else a new slice.
func smallInts(buf []int, n int) []int {
	if n <= len(buf) {
		s := buf[:n]
		clear(s)
		return s
	}
	return make([]int, n)
}

// dupInts copies s for a panic message, so that s itself does not escape
// (a literal the caller passes would otherwise be heap-allocated per call).
func dupInts(s []int) []int { return append([]int(nil), s...) }

func slicesContains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// shapeReplaced reports whether got is base with dim d set to size.
func shapeReplaced(got, base []int, d, size int) bool {
	if len(got) != len(base) {
		return false
	}
	for i := range got {
		if i == d && got[i] != size || i != d && got[i] != base[i] {
			return false
		}
	}
	return true
}

// shapeInserted reports whether got is base with a dim of size inserted
// at d (0 ≤ d ≤ len(base)).
func shapeInserted(got, base []int, d, size int) bool {
	return len(got) == len(base)+1 && got[d] == size &&
		equalInts(got[:d], base[:d]) && equalInts(got[d+1:], base[d:])
}

// shapeRemoved reports whether got is base without dim d.
func shapeRemoved(got, base []int, d int) bool {
	return len(got)+1 == len(base) && equalInts(got[:d], base[:d]) && equalInts(got[d:], base[d+1:])
}

// permuteT writes out (shape oshape, row-major) from x read with the
// strides ist, one output row (last dim) at a time.
func permuteT[T any](out, x []T, oshape, ist []int) {
	n := len(out)
	if n == 0 {
		return
	}
	r := len(oshape)
	if r == 0 {
		out[0] = x[0]
		return
	}
	inner, stride := oshape[r-1], ist[r-1]
	var idxBuf [smallRank]int
	idx := smallInts(idxBuf[:], r-1)
	off := 0
	for o := 0; o < n; o += inner {
		row := out[o : o+inner]
		if stride == 1 {
			copy(row, x[off:off+inner])
		} else {
			p := off
			for i := range row {
				row[i] = x[p]
				p += stride
			}
		}
		for d := r - 2; d >= 0; d-- {
			idx[d]++
			off += ist[d]
			if idx[d] < oshape[d] {
				break
			}
			off -= ist[d] * idx[d]
			idx[d] = 0
		}
	}
}

// Split cuts x along dim into consecutive pieces, one per array of outs,
// whose sizes along dim are taken from their shapes and must add up to
// x's. It is the kernel of split and chunk.
//
//	outs[k][.., j, ..] = x[.., offset_k + j, ..]
func Split(outs []*Array, x *Array, dim int) {
	d, ok := NormalizeDim(dim, len(x.Shape))
	if !ok {
		kernelPanic("Split", "dim %d out of range for %v", dim, x.Shape)
	}
	total := 0
	for k, o := range outs {
		checkDType("Split", "out", o, x.DType)
		if len(o.Shape) != len(x.Shape) || !equalInts(o.Shape[:d], x.Shape[:d]) || !equalInts(o.Shape[d+1:], x.Shape[d+1:]) {
			kernelPanic("Split", "result %d has shape %v, which is not a piece of %v along dim %d", k, o.Shape, x.Shape, d)
		}
		total += o.Shape[d]
	}
	if total != x.Shape[d] {
		kernelPanic("Split", "results cover %d of the %d entries of dim %d of %v", total, x.Shape[d], d, x.Shape)
	}
	outer, inner, size := NumElements(x.Shape[:d]), NumElements(x.Shape[d+1:]), x.Shape[d]
	off := 0
	for _, o := range outs {
		s := o.Shape[d]
		switch x.DType {
		case Float32:
			copyBlocks(o.F32, x.F32, outer, s*inner, size*inner, off*inner)
		case Int64:
			copyBlocks(o.I64, x.I64, outer, s*inner, size*inner, off*inner)
		case Bool:
			copyBlocks(o.B, x.B, outer, s*inner, size*inner, off*inner)
		}
		off += s
	}
}

// copyBlocks copies outer blocks of n elements: dst[o·n : (o+1)·n] =
// src[o·stride + off : ... + n].
func copyBlocks[T any](dst, src []T, outer, n, stride, off int) {
	for o := 0; o < outer; o++ {
		copy(dst[o*n:(o+1)*n], src[o*stride+off:o*stride+off+n])
	}
}

// Select sets out to x at position index of dim, which disappears from
// the shape (x[:, index] for dim 1); a negative index counts from the end.
//
//	out[a.., b..] = x[a.., index, b..]
func Select(out, x *Array, dim, index int) {
	d, ok := NormalizeDim(dim, len(x.Shape))
	if !ok {
		kernelPanic("Select", "dim %d out of range for %v", dim, x.Shape)
	}
	size := x.Shape[d]
	i := index
	if i < 0 {
		i += size
	}
	if i < 0 || i >= size {
		kernelPanic("Select", "index %d out of range for dim %d of %v", index, d, x.Shape)
	}
	checkDType("Select", "out", out, x.DType)
	if !shapeRemoved(out.Shape, x.Shape, d) {
		kernelPanic("Select", "out shape %v, want %v without dim %d", out.Shape, x.Shape, d)
	}
	outer, inner := NumElements(x.Shape[:d]), NumElements(x.Shape[d+1:])
	switch x.DType {
	case Float32:
		copyBlocks(out.F32, x.F32, outer, inner, size*inner, i*inner)
	case Int64:
		copyBlocks(out.I64, x.I64, outer, inner, size*inner, i*inner)
	case Bool:
		copyBlocks(out.B, x.B, outer, inner, size*inner, i*inner)
	}
}

// SliceRange resolves a Python-style slice start:end:step (step ≥ 1) over
// a dim of the given size: negative bounds count from the end, and both
// are clamped to [0, size]. It returns the first index and the count.
func SliceRange(size, start, end, step int) (first, count int) {
	clamp := func(v int) int {
		if v < 0 {
			v += size
		}
		return min(max(v, 0), size)
	}
	first, last := clamp(start), clamp(end)
	if step < 1 || last <= first {
		return first, 0
	}
	return first, (last - first + step - 1) / step
}

// Slice sets out to x[.., start:end:step, ..] along dim, with the bounds
// resolved as SliceRange does; step must be at least 1.
//
//	out[.., j, ..] = x[.., first + j·step, ..]
func Slice(out, x *Array, dim, start, end, step int) {
	d, ok := NormalizeDim(dim, len(x.Shape))
	if !ok {
		kernelPanic("Slice", "dim %d out of range for %v", dim, x.Shape)
	}
	if step < 1 {
		kernelPanic("Slice", "step %d, want ≥ 1", step)
	}
	size := x.Shape[d]
	first, count := SliceRange(size, start, end, step)
	checkDType("Slice", "out", out, x.DType)
	if !shapeReplaced(out.Shape, x.Shape, d, count) {
		kernelPanic("Slice", "out shape %v, want %v with dim %d of size %d", out.Shape, x.Shape, d, count)
	}
	outer, inner := NumElements(x.Shape[:d]), NumElements(x.Shape[d+1:])
	if step == 1 {
		switch x.DType {
		case Float32:
			copyBlocks(out.F32, x.F32, outer, count*inner, size*inner, first*inner)
		case Int64:
			copyBlocks(out.I64, x.I64, outer, count*inner, size*inner, first*inner)
		case Bool:
			copyBlocks(out.B, x.B, outer, count*inner, size*inner, first*inner)
		}
		return
	}
	for j := 0; j < count; j++ {
		src := (first + j*step) * inner
		switch x.DType {
		case Float32:
			gatherBlock(out.F32, x.F32, outer, inner, count, j, size, src)
		case Int64:
			gatherBlock(out.I64, x.I64, outer, inner, count, j, size, src)
		case Bool:
			gatherBlock(out.B, x.B, outer, inner, count, j, size, src)
		}
	}
}

// gatherBlock copies entry src/inner of the gathered dim (of size size)
// into entry j of the result's dim (of size count), for every outer index.
func gatherBlock[T any](dst, src []T, outer, inner, count, j, size, srcOff int) {
	for o := 0; o < outer; o++ {
		d := (o*count + j) * inner
		s := o*size*inner + srcOff
		copy(dst[d:d+inner], src[s:s+inner])
	}
}

// IndexSelect sets out to the entries of x along dim picked by the 1-d
// int64 index, in its order (repeats allowed). An index outside the dim
// panics.
//
//	out[.., j, ..] = x[.., index[j], ..]
func IndexSelect(out, x, index *Array, dim int) {
	checkDType("IndexSelect", "index", index, Int64)
	if len(index.Shape) != 1 {
		kernelPanic("IndexSelect", "index %v, want 1-d", index.Shape)
	}
	d, ok := NormalizeDim(dim, len(x.Shape))
	if !ok {
		kernelPanic("IndexSelect", "dim %d out of range for %v", dim, x.Shape)
	}
	checkDType("IndexSelect", "out", out, x.DType)
	count, size := index.Shape[0], x.Shape[d]
	if !shapeReplaced(out.Shape, x.Shape, d, count) {
		kernelPanic("IndexSelect", "out shape %v, want %v with dim %d of size %d", out.Shape, x.Shape, d, count)
	}
	for j, ix := range index.I64 {
		if ix < 0 || ix >= int64(size) {
			kernelPanic("IndexSelect", "index %d at position %d is out of range [0, %d) of dim %d of %v", ix, j, size, d, x.Shape)
		}
	}
	outer, inner := NumElements(x.Shape[:d]), NumElements(x.Shape[d+1:])
	if inner == 1 && x.DType == Float32 {
		// The common gather of single elements (DLRM's tril): no copy calls.
		o, s, idx := out.F32, x.F32, index.I64
		for b := 0; b < outer; b++ {
			row, src := o[b*count:(b+1)*count], s[b*size:(b+1)*size]
			for j, ix := range idx[:len(row)] {
				row[j] = src[ix]
			}
		}
		return
	}
	for j, ix := range index.I64 {
		src := int(ix) * inner
		switch x.DType {
		case Float32:
			gatherBlock(out.F32, x.F32, outer, inner, count, j, size, src)
		case Int64:
			gatherBlock(out.I64, x.I64, outer, inner, count, j, size, src)
		case Bool:
			gatherBlock(out.B, x.B, outer, inner, count, j, size, src)
		}
	}
}

// Stack sets out to the arrays of xs, which share one shape S, stacked
// along a new dim: out has shape S[:dim] + [len(xs)] + S[dim:].
//
//	out[a.., k, b..] = xs[k][a.., b..]
func Stack(out *Array, xs []*Array, dim int) {
	if len(xs) == 0 {
		kernelPanic("Stack", "no arrays to stack")
	}
	s := xs[0].Shape
	d, ok := NormalizeDim(dim, len(s)+1)
	if !ok {
		kernelPanic("Stack", "dim %d out of range for stacking arrays of shape %v", dim, s)
	}
	for k, x := range xs {
		checkDType("Stack", "input", x, xs[0].DType)
		if !equalInts(x.Shape, s) {
			kernelPanic("Stack", "input %d has shape %v, input 0 has %v", k, x.Shape, s)
		}
	}
	checkDType("Stack", "out", out, xs[0].DType)
	if !shapeInserted(out.Shape, s, d, len(xs)) {
		kernelPanic("Stack", "out shape %v, want %v with a dim of %d inserted at %d", out.Shape, s, len(xs), d)
	}
	joinBlocks(out, xs, NumElements(s[:d]), func(*Array) int { return NumElements(s[d:]) })
}

// Cat sets out to the arrays of xs joined along dim; they agree on every
// other dim.
//
//	out[.., offset_k + j, ..] = xs[k][.., j, ..]
func Cat(out *Array, xs []*Array, dim int) {
	if len(xs) == 0 {
		kernelPanic("Cat", "no arrays to concatenate")
	}
	s := xs[0].Shape
	d, ok := NormalizeDim(dim, len(s))
	if !ok {
		kernelPanic("Cat", "dim %d out of range for %v", dim, s)
	}
	total := 0
	for k, x := range xs {
		checkDType("Cat", "input", x, xs[0].DType)
		if len(x.Shape) != len(s) || !equalInts(x.Shape[:d], s[:d]) || !equalInts(x.Shape[d+1:], s[d+1:]) {
			kernelPanic("Cat", "input %d has shape %v, input 0 has %v: they may differ only in dim %d", k, x.Shape, s, d)
		}
		total += x.Shape[d]
	}
	checkDType("Cat", "out", out, xs[0].DType)
	if !shapeReplaced(out.Shape, s, d, total) {
		kernelPanic("Cat", "out shape %v, want %v with dim %d of size %d", out.Shape, s, d, total)
	}
	inner := NumElements(s[d+1:])
	joinBlocks(out, xs, NumElements(s[:d]), func(x *Array) int { return x.Shape[d] * inner })
}

// joinBlocks writes, for each of outer blocks, the next block(x) elements
// of each x in turn into out. block is called once per input.
func joinBlocks(out *Array, xs []*Array, outer int, block func(*Array) int) {
	var buf [16]int
	sizes := smallInts(buf[:], len(xs))
	row := 0
	for k, x := range xs {
		sizes[k] = block(x)
		row += sizes[k]
	}
	off := 0
	for k, x := range xs {
		n := sizes[k]
		switch x.DType {
		case Float32:
			scatterBlocks(out.F32, x.F32, outer, n, row, off)
		case Int64:
			scatterBlocks(out.I64, x.I64, outer, n, row, off)
		case Bool:
			scatterBlocks(out.B, x.B, outer, n, row, off)
		}
		off += n
	}
}

// scatterBlocks copies outer blocks of n elements: dst[o·stride + off :
// ... + n] = src[o·n : (o+1)·n].
func scatterBlocks[T any](dst, src []T, outer, n, stride, off int) {
	for o := 0; o < outer; o++ {
		copy(dst[o*stride+off:o*stride+off+n], src[o*n:(o+1)*n])
	}
}
