// This file holds the broadcasting binary kernels: add, sub, mul, div, gt.

package runtime

import (
	"fmt"
	"math"
)

// BroadcastShapes returns the NumPy/PyTorch broadcast of two shapes, or an
// error naming both when they are incompatible.
func BroadcastShapes(a, b []int) ([]int, error) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := range out {
		d, ok := broadcastDim(a, b, n, i)
		if !ok {
			return nil, fmt.Errorf("shapes %v and %v do not broadcast", a, b)
		}
		out[i] = d
	}
	return out, nil
}

// broadcastDim returns dim i of the broadcast of shapes a and b aligned to
// the right in n dims (a missing dim counts as 1), and false when the two
// sizes differ and neither is 1.
func broadcastDim(a, b []int, n, i int) (int, bool) {
	da, db := 1, 1
	if j := len(a) - n + i; j >= 0 {
		da = a[j]
	}
	if j := len(b) - n + i; j >= 0 {
		db = b[j]
	}
	switch {
	case da == db, db == 1:
		return da, true
	case da == 1:
		return db, true
	}
	return 0, false
}

// binaryOp names one elementwise binary operation.
type binaryOp uint8

const (
	opAdd binaryOp = iota
	opSub
	opMul
	opDiv
	opGt
)

var binaryNames = [...]string{"Add", "Sub", "Mul", "Div", "Gt"}

// Add sets out = a + b with broadcasting. Operands of another dtype than out
// are converted elementwise (bool → 0/1).
//
//	out[i] = a[i] + b[i]
func Add(out, a, b *Array) { binary(opAdd, out, a, b) }

// Sub sets out = a - b with broadcasting.
//
//	out[i] = a[i] - b[i]
func Sub(out, a, b *Array) { binary(opSub, out, a, b) }

// Mul sets out = a * b with broadcasting.
//
//	out[i] = a[i] * b[i]
func Mul(out, a, b *Array) { binary(opMul, out, a, b) }

// Div sets out = a / b with broadcasting (true division: out is float32).
//
//	out[i] = a[i] / b[i]
func Div(out, a, b *Array) { binary(opDiv, out, a, b) }

// Gt sets the bool array out = a > b with broadcasting.
//
//	out[i] = a[i] > b[i]
func Gt(out, a, b *Array) { binary(opGt, out, a, b) }

func binary(op binaryOp, out, a, b *Array) {
	name := binaryNames[op]
	if !broadcastsTo(a.Shape, b.Shape, out.Shape) {
		shape, err := BroadcastShapes(a.Shape, b.Shape)
		if err != nil {
			kernelPanic(name, "%v", err)
		}
		kernelPanic(name, "out shape %v, want %v", out.Shape, shape)
	}
	if op == opGt {
		checkDType(name, "out", out, Bool)
	}
	if out.DType == Float32 && a.DType == Float32 && b.DType == Float32 {
		switch {
		case equalInts(a.Shape, b.Shape):
			binarySameF32(op, out.F32, a.F32, b.F32)
			return
		case b.Len() == 1:
			binaryScalarF32(op, out.F32, a.F32, b.F32[0])
			return
		case equalInts(a.Shape, out.Shape) && isSuffix(b.Shape, out.Shape):
			// b repeats along the leading dims, as a bias or a position
			// embedding does: apply it row by row.
			inner := len(b.F32)
			for r := 0; r+inner <= len(out.F32); r += inner {
				binarySameF32(op, out.F32[r:r+inner], a.F32[r:r+inner], b.F32)
			}
			return
		}
		if equalInts(a.Shape, out.Shape) {
			if mid, inner, ok := channelBroadcast(b.Shape, out.Shape); ok {
				// b holds one value per channel (a per-channel scale of
				// NCHW activations or of a filter bank): each run of
				// inner elements of a meets one element of b.
				for r := 0; r < len(out.F32); r += inner {
					c := r / inner % mid
					binaryScalarF32(op, out.F32[r:r+inner], a.F32[r:r+inner], b.F32[c])
				}
				return
			}
		}
	}
	binaryGeneral(op, out, a, b)
}

// channelBroadcastMin is the run of elements below which channelBroadcast
// leaves a broadcast to the general walk.
const channelBroadcastMin = 8

// channelBroadcast reports whether b (aligned to out's trailing dims)
// differs from 1 only in one run of dims [k, m), equal to out's there,
// with at least channelBroadcastMin elements per channel after it: out
// then is [outer, mid, inner] with b [mid] broadcast along outer and
// inner. It returns mid and inner.
func channelBroadcast(b, out []int) (mid, inner int, ok bool) {
	off := len(out) - len(b)
	k, m := -1, -1
	for i, d := range b {
		if d == 1 {
			continue
		}
		if d != out[off+i] || (m >= 0 && m != off+i) {
			return 0, 0, false
		}
		if k < 0 {
			k = off + i
		}
		m = off + i + 1
	}
	if k < 0 {
		return 0, 0, false
	}
	mid, inner = 1, 1
	for _, d := range out[k:m] {
		mid *= d
	}
	for _, d := range out[m:] {
		inner *= d
	}
	return mid, inner, inner >= channelBroadcastMin
}

// broadcastsTo reports whether a and b broadcast to exactly out, without
// allocating.
func broadcastsTo(a, b, out []int) bool {
	if len(out) != max(len(a), len(b)) {
		return false
	}
	for i := range out {
		da, db := 1, 1
		if j := len(a) - len(out) + i; j >= 0 {
			da = a[j]
		}
		if j := len(b) - len(out) + i; j >= 0 {
			db = b[j]
		}
		switch {
		case da == db && da == out[i]:
		case da == 1 && db == out[i], db == 1 && da == out[i]:
		default:
			return false
		}
	}
	return true
}

// isSuffix reports whether s equals the trailing dims of shape, ignoring
// leading 1s of s.
func isSuffix(s, shape []int) bool {
	for len(s) > 0 && s[0] == 1 {
		s = s[1:]
	}
	return len(s) <= len(shape) && equalInts(s, shape[len(shape)-len(s):])
}

func binarySameF32(op binaryOp, o, a, b []float32) {
	a, b = a[:len(o)], b[:len(o)]
	if binarySameVec(op, o, a, b) {
		return
	}
	switch op {
	case opAdd:
		for i := range o {
			o[i] = a[i] + b[i]
		}
	case opSub:
		for i := range o {
			o[i] = a[i] - b[i]
		}
	case opMul:
		for i := range o {
			o[i] = a[i] * b[i]
		}
	case opDiv:
		for i := range o {
			o[i] = a[i] / b[i]
		}
	}
}

func binaryScalarF32(op binaryOp, o, a []float32, s float32) {
	a = a[:len(o)]
	if op == opDiv {
		if r, ok := exactReciprocal(s); ok {
			// a/s and a·(1/s) are the same real number, each rounded once.
			op, s = opMul, r
		}
	}
	if binaryScalarVec(op, o, a, s) {
		return
	}
	switch op {
	case opAdd:
		for i := range o {
			o[i] = a[i] + s
		}
	case opSub:
		for i := range o {
			o[i] = a[i] - s
		}
	case opMul:
		for i := range o {
			o[i] = a[i] * s
		}
	case opDiv:
		for i := range o {
			o[i] = a[i] / s
		}
	}
}

// exactReciprocal returns 1/s when s is a normal power of two (of either
// sign), whose reciprocal is a float32 too (2^-127 a subnormal one), so
// that dividing by s is multiplying by it: a division by the square root
// of an attention head's width of 64, say, on a fraction of the cycles.
func exactReciprocal(s float32) (float32, bool) {
	b := math.Float32bits(s)
	if e := b >> 23 & 0xff; b&0x7fffff != 0 || e == 0 || e == 0xff {
		return 0, false
	}
	return 1 / s, true
}

// broadcastStrides returns the strides of shape seen as outShape, with 0 for
// broadcast dimensions.
func broadcastStrides(shape, outShape []int) []int {
	return broadcastStridesInto(nil, shape, outShape)
}

// broadcastStridesInto is broadcastStrides appending to buf.
func broadcastStridesInto(buf []int, shape, outShape []int) []int {
	st := buf
	for range outShape {
		st = append(st, 0)
	}
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		j := len(outShape) - len(shape) + i
		if shape[i] != 1 {
			st[j] = s
		}
		s *= shape[i]
	}
	return st
}

// binaryGeneral handles broadcasting and mixed dtypes, computing in float64
// for float results and in int64 for integer results.
func binaryGeneral(op binaryOp, out, a, b *Array) {
	n := out.Len()
	var buf walkBuf
	w := newBroadcastWalk(&buf, out.Shape, a.Shape, b.Shape)
	intMath := out.DType == Int64 || (out.DType == Bool && a.DType != Float32 && b.DType != Float32)
	for i := 0; i < n; i++ {
		if intMath {
			x, y := intAt(a, w.off[0]), intAt(b, w.off[1])
			var r int64
			switch op {
			case opAdd:
				r = x + y
			case opSub:
				r = x - y
			case opMul:
				r = x * y
			case opDiv:
				r = x / y
			case opGt:
				out.B[i] = x > y
				goto next
			}
			if out.DType == Int64 {
				out.I64[i] = r
			} else {
				out.B[i] = r != 0
			}
		} else {
			x, y := a.At(w.off[0]), b.At(w.off[1])
			var r float64
			switch op {
			case opAdd:
				r = x + y
			case opSub:
				r = x - y
			case opMul:
				r = x * y
			case opDiv:
				r = x / y
			case opGt:
				out.B[i] = x > y
				goto next
			}
			out.F32[i] = float32(r)
		}
	next:
		w.step()
	}
}

func intAt(a *Array, i int) int64 {
	switch a.DType {
	case Int64:
		return a.I64[i]
	case Bool:
		if a.B[i] {
			return 1
		}
		return 0
	}
	return int64(a.F32[i])
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// broadcastWalk visits the elements of an output shape in row-major order
// and keeps the offsets (off) of the matching elements of up to three
// operands broadcast to it.
type broadcastWalk struct {
	shape   []int
	idx     []int
	strides [3][]int // of each operand, 0 along its broadcast dimensions
	off     [3]int
	n       int // operands
}

// walkBuf holds a broadcastWalk's index and strides: up to rank 8 without
// allocating, when it is a local variable of the caller (a buffer inside
// the walk itself would make the walk escape).
type walkBuf [4][8]int

// newBroadcastWalk starts a walk at element 0 of out for the operands of
// the given shapes, each broadcastable to out, keeping its index and
// strides in buf.
func newBroadcastWalk(buf *walkBuf, out []int, operands ...[]int) broadcastWalk {
	w := broadcastWalk{shape: out, n: len(operands)}
	for k, shape := range operands {
		w.strides[k] = broadcastStridesInto(buf[k][:0], shape, out)
	}
	w.idx = buf[3][:0]
	for range out {
		w.idx = append(w.idx, 0)
	}
	return w
}

// step advances w to the next element.
func (w *broadcastWalk) step() {
	for d := len(w.idx) - 1; d >= 0; d-- {
		w.idx[d]++
		for k := range w.n {
			w.off[k] += w.strides[k][d]
		}
		if w.idx[d] < w.shape[d] {
			return
		}
		for k := range w.n {
			w.off[k] -= w.strides[k][d] * w.idx[d]
		}
		w.idx[d] = 0
	}
}
