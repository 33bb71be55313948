// The GELUs' vector kernels: a fast polynomial for most inputs, the
// general kernel for the rest.

//go:build amd64 && !noasm

package runtime

import "unsafe"

// geluVecAVX2 sets out[i] = x[i]·Φ(x[i]) for i < n (out may be x): each
// element at least -4 from the fast path's polynomial (geluFastAVX2),
// about 13 cycles for eight lanes on a Xeon SPR where the general kernel
// (geluAVX2) takes 29; the others (below -4, ±∞ and NaN) gathered and
// computed by the general kernel eight at a time, then put in place. So
// each element's result depends on its value only, not on its neighbours
// in a vector, and a vector with one element below -4 costs little more
// than one without.
func geluVecAVX2(out, x *float32, n int) { geluVec(out, x, n, false, false) }

// geluVecAVX512 is geluVecAVX2 sixteen lanes at a time (geluFastAVX512,
// geluAVX512), with the same results.
func geluVecAVX512(out, x *float32, n int) { geluVec(out, x, n, true, false) }

// geluTanhVecAVX2 is geluVecAVX2 for the tanh GELU: the fast path
// (geluTanhFastAVX2) for x ≥ -2.5, the general kernel (geluTanhAVX2,
// which computes its argument in float64) for the rest.
func geluTanhVecAVX2(out, x *float32, n int) { geluVec(out, x, n, false, true) }

// geluTanhVecAVX512 is geluTanhVecAVX2 sixteen lanes at a time, with the
// same results.
func geluTanhVecAVX512(out, x *float32, n int) { geluVec(out, x, n, true, true) }

// geluVec runs the fast kernel of the tier (wide: AVX-512) and GELU
// (tanh: the tanh GELU) over x with room for 16 elements it leaves to the
// general kernel, which is all most rows need, and the rest of x, if it
// has more, with room for geluSlowRoom at a time: a buffer that costs to
// clear, so not for every call (a GEMM epilogue calls this for each row
// of a block).
func geluVec(out, x *float32, n int, wide, tanh bool) {
	var idx [16]int32
	var slowX [16]float32
	done, slow := geluFast(out, x, n, idx[:], slowX[:], wide, tanh)
	o := unsafe.Slice(out, n)
	geluSlow(o, idx[:slow], slowX[:slow], wide, tanh)
	if done < n {
		geluVecRest(o[done:], unsafe.Slice(x, n)[done:], wide, tanh)
	}
}

// geluSlowRoom is how many elements geluVecRest gathers for the general
// kernel before it runs it.
const geluSlowRoom = 256

// geluVecRest is geluVec's loop for rows with many elements the fast
// kernel leaves.
//
//go:noinline
func geluVecRest(out, x []float32, wide, tanh bool) {
	var idx [geluSlowRoom]int32
	var slowX [geluSlowRoom]float32
	for i := 0; i < len(out); {
		done, slow := geluFast(&out[i], &x[i], len(out)-i, idx[:], slowX[:], wide, tanh)
		geluSlow(out[i:], idx[:slow], slowX[:slow], wide, tanh)
		i += done
	}
}

// geluFast runs the fast kernel with room for len(idx) elements it leaves.
// It and geluSlow pick the kernel by a switch, not through func values in
// the tier's vecKernels: a buffer passed to a func value escapes, and
// geluVec's would then be allocated on every call.
func geluFast(out, x *float32, n int, idx []int32, slowX []float32, wide, tanh bool) (done, slow int) {
	switch {
	case wide && tanh:
		return geluTanhFastAVX512(out, x, n, &idx[0], &slowX[0], len(idx))
	case wide:
		return geluFastAVX512(out, x, n, &idx[0], &slowX[0], len(idx))
	case tanh:
		return geluTanhFastAVX2(out, x, n, &idx[0], &slowX[0], len(idx))
	}
	return geluFastAVX2(out, x, n, &idx[0], &slowX[0], len(idx))
}

// geluSlow computes the gathered elements slowX with the general kernel
// and puts each at out[idx[j]].
func geluSlow(out []float32, idx []int32, slowX []float32, wide, tanh bool) {
	if len(idx) == 0 {
		return
	}
	s, n := &slowX[0], len(slowX)
	switch {
	case wide && tanh:
		geluTanhAVX512(s, s, n)
	case wide:
		geluAVX512(s, s, n)
	case tanh:
		geluTanhAVX2(s, s, n)
	default:
		geluAVX2(s, s, n)
	}
	for j, i := range idx {
		out[i] = slowX[j]
	}
}
