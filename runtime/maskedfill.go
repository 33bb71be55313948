// This file holds the masked_fill kernel.

package runtime

// MaskedFill sets out = x with value wherever the bool mask is true; mask
// broadcasts to x's shape and out has x's shape.
//
//	out[i] = mask[i] ? value : x[i]
func MaskedFill(out, x, mask *Array, value float64) {
	checkDType("MaskedFill", "mask", mask, Bool)
	checkDType("MaskedFill", "out", out, x.DType)
	if !equalInts(out.Shape, x.Shape) {
		kernelPanic("MaskedFill", "out shape %v, want %v", out.Shape, x.Shape)
	}
	if !maskFits(mask.Shape, x.Shape) {
		kernelPanic("MaskedFill", "mask %v does not broadcast to x %v", mask.Shape, x.Shape)
	}
	Copy(out, x)
	n, m := out.Len(), mask.Len()
	if n == 0 {
		return
	}
	// A mask whose shape is a suffix of x's (after leading 1s) repeats
	// every m elements; anything else goes through broadcast strides.
	if suffixOf(mask.Shape, x.Shape) {
		for base := 0; base < n; base += m {
			fillWhere(out, base, mask.B, value)
		}
		return
	}
	st := broadcastStrides(mask.Shape, x.Shape)
	expanded := make([]bool, n)
	forEachIndex(x.Shape, st, n, func(i, off int) { expanded[i] = mask.B[off] })
	fillWhere(out, 0, expanded, value)
}

// maskFits reports whether shape broadcasts to target without
// changing it.
func maskFits(shape, target []int) bool {
	if len(shape) > len(target) {
		return false
	}
	off := len(target) - len(shape)
	for i, d := range shape {
		if d != 1 && d != target[off+i] {
			return false
		}
	}
	return true
}

// suffixOf reports whether short, without leading 1s, is a suffix of long.
func suffixOf(short, long []int) bool {
	for len(short) > 0 && short[0] == 1 {
		short = short[1:]
	}
	return len(short) <= len(long) && equalInts(short, long[len(long)-len(short):])
}

// fillWhere sets out[base+i] = value where m[i].
func fillWhere(out *Array, base int, m []bool, value float64) {
	switch out.DType {
	case Float32:
		o, v := out.F32[base:base+len(m)], float32(value)
		for i, b := range m {
			if b {
				o[i] = v
			}
		}
	case Int64:
		o, v := out.I64[base:base+len(m)], int64(value)
		for i, b := range m {
			if b {
				o[i] = v
			}
		}
	case Bool:
		o, v := out.B[base:base+len(m)], value != 0
		for i, b := range m {
			if b {
				o[i] = v
			}
		}
	}
}
