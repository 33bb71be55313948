// This file holds the softmax and log-softmax kernels.

package runtime

import "math"

// Softmax sets out to the softmax of the float32 array x along dim
// (negative counts from the end); out has x's shape.
//
//	m = max_j x[.., j, ..]
//	out[.., j, ..] = exp(x[.., j, ..] - m) / Σ_k exp(x[.., k, ..] - m)
//
// Subtracting the row maximum keeps large inputs finite. -Inf entries get
// 0; a row that is all -Inf is NaN, as in PyTorch.
func Softmax(out, x *Array, dim int) {
	softmaxAlong("Softmax", out, x, dim, false)
}

// LogSoftmax sets out to the log of the softmax of the float32 array x
// along dim (negative counts from the end); out has x's shape.
//
//	m = max_j x[.., j, ..]
//	out[.., j, ..] = x[.., j, ..] - (m + log Σ_k exp(x[.., k, ..] - m))
//
// The sum is taken in float64 and the last subtraction in float32, as
// PyTorch does. A row that is all -Inf, or holds a NaN or +Inf, is NaN.
func LogSoftmax(out, x *Array, dim int) {
	softmaxAlong("LogSoftmax", out, x, dim, true)
}

// softmaxAlong is Softmax, or LogSoftmax when logOut.
func softmaxAlong(name string, out, x *Array, dim int, logOut bool) {
	checkDType(name, "x", x, Float32)
	checkDType(name, "out", out, Float32)
	if !equalInts(out.Shape, x.Shape) {
		kernelPanic(name, "out shape %v, want %v", out.Shape, x.Shape)
	}
	if len(x.Shape) == 0 {
		if len(out.F32) == 1 {
			v := softmaxOne(float64(x.F32[0]))
			if logOut {
				v = math.Log(v)
			}
			out.F32[0] = float32(v)
		}
		return
	}
	d, ok := NormalizeDim(dim, len(x.Shape))
	if !ok {
		kernelPanic(name, "dim %d out of range for %v", dim, x.Shape)
	}
	size := x.Shape[d]
	inner := NumElements(x.Shape[d+1:])
	outer := NumElements(x.Shape[:d])
	if size == 0 || inner == 0 || outer == 0 {
		return
	}
	if inner == 1 {
		rows := outer
		grain := max(1, elementwiseGrain/size)
		if rows < 2*grain {
			softmaxRows(out.F32, x.F32, size, 0, rows, logOut)
			return
		}
		kind := taskSoftmax
		if logOut {
			kind = taskLogSoftmax
		}
		seqJob{kind: kind, out: out.F32, x: x.F32, size: size, grain: grain}.run(rows)
		return
	}
	softmaxStrided(out.F32, x.F32, outer, size, inner, logOut)
}

// softmaxOne is the softmax of one element: 1, or NaN for -Inf and NaN.
func softmaxOne(v float64) float64 {
	if math.IsInf(v, -1) || v != v {
		return math.NaN()
	}
	return 1
}

// softmaxRows handles contiguous rows r0..r1 of length size; logOut
// gives the log-softmax.
func softmaxRows(out, x []float32, size, r0, r1 int, logOut bool) {
	if logOut || currentISA == ISAGeneric {
		softmaxRowsOne(out, x, size, r0, r1, logOut)
		return
	}
	softmaxKeptRows(out[r0*size:r1*size], x[r0*size:r1*size], size, r1-r0, nil)
}

// softmaxKeptRows sets the rows rows of out (size floats each) to the
// softmax of those of x over the first kept[r] elements of row r (every
// element when kept is nil) and the other elements to 0: the bits of a
// softmax of the row whose other elements are -Inf, as Attention's causal
// mask makes them. A row whose kept elements hold a NaN or +Inf or are all
// -Inf is given that softmax (NaNs). out may be x.
func softmaxKeptRows(out, x []float32, size, rows int, kept []int) {
	keep := func(r int) int {
		if kept == nil {
			return size
		}
		return kept[r]
	}
	// The tier's fused kernel, where it has one, takes all the rows in one
	// call but those it leaves to softmaxKeptRow (the portable tier: all of
	// them). The rows overlap there, a row's maximum loaded while the row
	// above is scaled: alone, a short row's steps wait on each other (its
	// maximum, then its sum, then its reciprocal).
	for r := 0; r < rows; {
		var ks []int
		if kept != nil {
			ks = kept[r:rows]
		}
		done := softmaxKeptVec(out[r*size:rows*size], x[r*size:rows*size], size, rows-r, ks)
		// The cut elements' zeros after the kernel's reads: stores
		// next to the following row's loads stall them when out is x.
		for i := r; kept != nil && i < r+done; i++ {
			clear(out[i*size+kept[i] : (i+1)*size])
		}
		if r += done; r < rows {
			softmaxKeptRow(out[r*size:(r+1)*size], x[r*size:(r+1)*size], keep(r))
			r++
		}
	}
}

// softmaxKeptRow is softmaxKeptRows for one row out of x, n elements kept.
func softmaxKeptRow(out, x []float32, n int) {
	m, nan := rowMax(x[:n])
	if nan || math.IsInf(float64(m), 0) {
		// The row as the mask makes it, and its softmax: NaNs, for +Inf
		// the cut elements' too (0 times the reciprocal of a NaN sum).
		copy(out, x)
		for i := n; i < len(out); i++ {
			out[i] = float32(math.Inf(-1))
		}
		softmaxRowsOne(out, out, len(out), 0, 1, false)
		return
	}
	sum := expShift(out[:n], x[:n], float64(m))
	binaryScalarF32(opMul, out[:n], out[:n], float32(1/sum))
	clear(out[n:])
}

// softmaxRowsOne is softmaxRows a row at a time.
func softmaxRowsOne(out, x []float32, size, r0, r1 int, logOut bool) {
	for r := r0; r < r1; r++ {
		xs := x[r*size : (r+1)*size]
		os := out[r*size : (r+1)*size]
		m, nan := rowMax(xs)
		if math.IsInf(float64(m), -1) || nan { // all -Inf, or a NaN
			for i := range os {
				os[i] = float32(math.NaN())
			}
			continue
		}
		sum := expShift(os, xs, float64(m))
		if logOut {
			binaryScalarF32(opSub, os, xs, float32(float64(m)+math.Log(sum)))
			continue
		}
		inv := float32(1 / sum)
		binaryScalarF32(opMul, os, os, inv)
	}
}

// rowMax returns the largest element of x (len(x) ≥ 1) and whether x holds
// a NaN.
func rowMax(x []float32) (m float32, nan bool) {
	if m, nan, ok := maxVec(x); ok {
		return m, nan
	}
	m = x[0]
	for _, v := range x[1:] {
		if v > m || v != v {
			m = v
		}
	}
	return m, m != m
}

// expShift sets out[i] = e^(x[i]-shift) and returns the float64 sum of the
// exponentials, with the vector kernel where the CPU has one; shift is
// x's maximum.
func expShift(out, x []float32, shift float64) float64 {
	if sum, ok := expShiftVec(out, x, shift, true); ok {
		return sum
	}
	return expShiftPortable(out, x, shift)
}

// expShiftPortable is expShift's portable loop.
func expShiftPortable(out, x []float32, shift float64) float64 {
	var sum float64
	var buf [convBlock]float64
	for j := 0; j < len(out); j += convBlock {
		b := toF64(buf[:], x[j:min(j+convBlock, len(out))])
		for i, v := range b {
			e := expF64(v - shift)
			b[i] = e
			sum += e
		}
		fromF64(out[j:], b)
	}
	return sum
}

// softmaxStrided handles a reduced dim with inner > 1: each of the
// outer·inner lines has stride inner. It accumulates along whole inner
// rows so the loops stay contiguous. logOut gives the log-softmax.
func softmaxStrided(out, x []float32, outer, size, inner int, logOut bool) {
	m := make([]float32, inner)
	sum := make([]float64, inner)
	for o := 0; o < outer; o++ {
		base := o * size * inner
		copy(m, x[base:base+inner])
		for j := 1; j < size; j++ {
			row := x[base+j*inner : base+(j+1)*inner]
			for i, v := range row {
				if v > m[i] || v != v {
					m[i] = v
				}
			}
		}
		clear(sum)
		for j := 0; j < size; j++ {
			row := x[base+j*inner : base+(j+1)*inner]
			orow := out[base+j*inner : base+(j+1)*inner]
			for i, v := range row {
				e := expF64(float64(v) - float64(m[i]))
				orow[i] = float32(e)
				sum[i] += e
			}
		}
		for j := 0; j < size; j++ {
			row := x[base+j*inner : base+(j+1)*inner]
			orow := out[base+j*inner : base+(j+1)*inner]
			for i := range orow {
				mi := float64(m[i])
				switch {
				case math.IsInf(mi, -1) || mi != mi:
					orow[i] = float32(math.NaN())
				case logOut:
					orow[i] = row[i] - float32(mi+math.Log(sum[i]))
				default:
					orow[i] = float32(float64(orow[i]) / sum[i])
				}
			}
		}
	}
}
