// This file holds the kernels of symbolic sizes: reading a size, integer
// floor division of sizes, expand (a broadcast copy) and full.

package runtime

// SizeOf sets out, a 0-d int64 array, to the size of dimension dim of x
// (negative counts from the end).
//
//	out[] = x.Shape[dim]
func SizeOf(out, x *Array, dim int) {
	checkDType("SizeOf", "out", out, Int64)
	d, ok := NormalizeDim(dim, len(x.Shape))
	if !ok || len(out.I64) != 1 {
		kernelPanic("SizeOf", "dim %d of shape %v into %v", dim, x.Shape, out.Shape)
	}
	out.I64[0] = int64(x.Shape[d])
}

// FloorDiv sets out to a // b (rounded toward negative infinity) with
// broadcasting; all three are int64. A zero divisor panics.
//
//	out[i] = floor(a[i] / b[i])
func FloorDiv(out, a, b *Array) {
	checkDType("FloorDiv", "out", out, Int64)
	checkDType("FloorDiv", "a", a, Int64)
	checkDType("FloorDiv", "b", b, Int64)
	if !broadcastsTo(a.Shape, b.Shape, out.Shape) {
		kernelPanic("FloorDiv", "shapes %v and %v do not broadcast to %v", a.Shape, b.Shape, out.Shape)
	}
	var buf walkBuf
	w := newBroadcastWalk(&buf, out.Shape, a.Shape, b.Shape)
	for i := range out.I64 {
		x, y := a.I64[w.off[0]], b.I64[w.off[1]]
		if y == 0 {
			kernelPanic("FloorDiv", "division by zero")
		}
		q := x / y
		if (x%y != 0) && ((x < 0) != (y < 0)) {
			q--
		}
		out.I64[i] = q
		w.step()
	}
}

// next advances the row-major index idx within shape.
func next(idx, shape []int) {
	for d := len(idx) - 1; d >= 0; d-- {
		idx[d]++
		if idx[d] < shape[d] {
			return
		}
		idx[d] = 0
	}
}

// Expand sets out to x broadcast to out's shape: each dim of x is out's
// or 1, and x may have fewer dims (PyTorch's expand, as a copy). size
// holds the requested sizes (0-d int64 arrays, -1 keeps x's dim); out
// already has the resulting shape, so they are only checked.
//
//	out[i0, ..., ik] = x[j0, ..., jm] with jd = 0 where x's dim is 1
func Expand(out, x *Array, size []*Array) {
	if len(size) != len(out.Shape) {
		kernelPanic("Expand", "%d sizes for a result of shape %v", len(size), out.Shape)
	}
	for i, s := range size {
		if s.DType == Int64 && len(s.I64) == 1 && s.I64[0] != -1 && int(s.I64[0]) != out.Shape[i] {
			kernelPanic("Expand", "size %d is %d, the result's dim is %d", i, s.I64[0], out.Shape[i])
		}
	}
	broadcastCopy("Expand", out, x)
}

// ExpandAs sets out, of other's shape, to x broadcast to it (other's
// values are not read).
//
//	out = Expand(x, other.Shape)
func ExpandAs(out, x, other *Array) {
	if !equalInts(out.Shape, other.Shape) {
		kernelPanic("ExpandAs", "result %v, want the shape of other %v", out.Shape, other.Shape)
	}
	broadcastCopy("ExpandAs", out, x)
}

func broadcastCopy(kernel string, out, x *Array) {
	if out.DType != x.DType || len(x.Shape) > len(out.Shape) || !broadcastsTo(x.Shape, out.Shape, out.Shape) {
		kernelPanic(kernel, "cannot broadcast %v%v to %v%v", x.DType, x.Shape, out.DType, out.Shape)
	}
	n := out.Len()
	if n == 0 {
		return
	}
	if x.Len() == n {
		Copy(out, x)
		return
	}
	// Copy x's innermost run of dims that are not broadcast as a block.
	shape := out.Shape
	var buf [2][8]int // no allocation up to rank 8
	st := broadcastStridesInto(buf[0][:0], x.Shape, shape)
	inner, k := 1, len(shape)
	for k > 0 {
		j := k - 1 - (len(shape) - len(x.Shape))
		if j < 0 || x.Shape[j] != shape[k-1] {
			break
		}
		inner *= shape[k-1]
		k--
	}
	outer := shape[:k]
	idx := buf[1][:0]
	for range k {
		idx = append(idx, 0)
	}
	for o := 0; o < n; o += inner {
		src := 0
		for d, v := range idx {
			src += v * st[d]
		}
		switch out.DType {
		case Float32:
			copy(out.F32[o:o+inner], x.F32[src:src+inner])
		case Int64:
			copy(out.I64[o:o+inner], x.I64[src:src+inner])
		case Bool:
			copy(out.B[o:o+inner], x.B[src:src+inner])
		}
		next(idx, outer)
	}
}

// Full sets every element of out to value; size holds out's sizes as 0-d
// int64 arrays and is only checked.
//
//	out[i] = value
func Full(out *Array, size []*Array, value float64) {
	if len(size) != len(out.Shape) {
		kernelPanic("Full", "%d sizes for a result of shape %v", len(size), out.Shape)
	}
	for i, s := range size {
		if s.DType == Int64 && len(s.I64) == 1 && int(s.I64[0]) != out.Shape[i] {
			kernelPanic("Full", "size %d is %d, the result's dim is %d", i, s.I64[0], out.Shape[i])
		}
	}
	Fill(out, value)
}
