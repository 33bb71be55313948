// This file holds the Gather and Where kernels.

package runtime

// Gather sets out to the entries of x picked along dim by the int64 array
// index, as torch.gather(x, dim, index): out has index's shape, index has
// x's rank and no dim but dim larger than x's; an index outside
// [0, x.Shape[dim]) panics.
//
//	out[i, j, k] = x[index[i, j, k], j, k]  // dim = 0
func Gather(out, x, index *Array, dim int) {
	const name = "Gather"
	checkDType(name, "index", index, Int64)
	if out.DType != x.DType || x.DType == Invalid {
		kernelPanic(name, "out is %v, x %v: want the same dtype", out.DType, x.DType)
	}
	r := len(x.Shape)
	d, ok := NormalizeDim(dim, r)
	if !ok && !(r == 0 && (dim == 0 || dim == -1)) {
		kernelPanic(name, "dim %d out of range for x %v", dim, x.Shape)
	}
	if len(index.Shape) != r || !equalInts(out.Shape, index.Shape) {
		kernelPanic(name, "index %v and out %v: want x's rank %d and the same shape", index.Shape, out.Shape, r)
	}
	if r == 0 {
		if index.I64[0] != 0 {
			kernelPanic(name, "index %d out of range for a 0-d x", index.I64[0])
		}
		copyElements(out, 0, x, 0)
		return
	}
	for i := 0; i < r; i++ {
		if i != d && index.Shape[i] > x.Shape[i] {
			kernelPanic(name, "index %v is larger than x %v in dim %d", index.Shape, x.Shape, i)
		}
	}
	// Strides of x; index and out walk together in index's shape.
	xst := make([]int, r)
	s := 1
	for i := r - 1; i >= 0; i-- {
		xst[i] = s
		s *= x.Shape[i]
	}
	size := int64(x.Shape[d])
	ist := make([]int, r)
	copy(ist, xst)
	ist[d] = 0
	forEachIndex(index.Shape, ist, index.Len(), func(i, off int) {
		ix := index.I64[i]
		if ix < 0 || ix >= size {
			kernelPanic(name, "index %d at position %d is out of range [0, %d) of dim %d", ix, i, size, dim)
		}
		copyElements(out, i, x, off+int(ix)*xst[d])
	})
}

// Where sets out to x where cond is true and y elsewhere, broadcasting the
// three, as torch.where(cond, x, y): cond is bool; x or y of another
// dtype than out (an int64 0 beside float32 values) is converted.
//
//	out[i..] = cond[i..] ? x[i..] : y[i..]
func Where(out, cond, x, y *Array) {
	const name = "Where"
	checkDType(name, "cond", cond, Bool)
	if out.DType == Invalid || x.DType == Invalid || y.DType == Invalid || out.DType == Int64 && (x.DType == Float32 || y.DType == Float32) {
		kernelPanic(name, "x %v and y %v do not fit out %v", x.DType, y.DType, out.DType)
	}
	if !broadcastsInto(cond.Shape, out.Shape) || !broadcastsInto(x.Shape, out.Shape) || !broadcastsInto(y.Shape, out.Shape) ||
		len(out.Shape) != max(len(cond.Shape), len(x.Shape), len(y.Shape)) || !outIsBroadcast(out.Shape, cond.Shape, x.Shape, y.Shape) {
		kernelPanic(name, "cond %v, x %v and y %v do not broadcast to out %v", cond.Shape, x.Shape, y.Shape, out.Shape)
	}
	var buf walkBuf
	w := newBroadcastWalk(&buf, out.Shape, cond.Shape, x.Shape, y.Shape)
	for o := 0; o < out.Len(); o++ {
		if cond.B[w.off[0]] {
			copyElements(out, o, x, w.off[1])
		} else {
			copyElements(out, o, y, w.off[2])
		}
		w.step()
	}
}

// copyElements sets dst[i] to src[j], converting a bool or int64 source.
func copyElements(dst *Array, i int, src *Array, j int) {
	if src.DType != dst.DType {
		v := src.At(j)
		switch dst.DType {
		case Float32:
			dst.F32[i] = float32(v)
		case Int64:
			dst.I64[i] = int64(v)
		case Bool:
			dst.B[i] = v != 0
		}
		return
	}
	switch dst.DType {
	case Float32:
		dst.F32[i] = src.F32[j]
	case Int64:
		dst.I64[i] = src.I64[j]
	case Bool:
		dst.B[i] = src.B[j]
	}
}

// broadcastsInto reports whether shape broadcasts to out: no more dims,
// each trailing dim equal to out's or 1.
func broadcastsInto(shape, out []int) bool {
	if len(shape) > len(out) {
		return false
	}
	for i, d := range shape {
		if o := out[len(out)-len(shape)+i]; d != o && d != 1 {
			return false
		}
	}
	return true
}

// outIsBroadcast reports whether each dim of out is the size of one of
// the shapes there (1 only when all are 1 or absent), so that out is the
// broadcast of the shapes and not larger.
func outIsBroadcast(out []int, shapes ...[]int) bool {
	for i, o := range out {
		found := o == 1
		for _, s := range shapes {
			if j := len(s) - len(out) + i; j >= 0 && s[j] == o {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}
