// Vector activation kernels for amd64: sigmoid, SiLU, tanh, both GELUs and
// softmax's exponential in float32, sixteen lanes at a time in AVX-512
// (activation_f32_avx512_amd64.s) and eight in AVX2+FMA
// (activation_f32_avx2_amd64.s), with the row maximum and ReLU in
// activation_amd64.s and activation_avx2_amd64.s; called through the
// selected tier's vecKernels.

//go:build amd64 && !noasm

package runtime

// vectorKernels reports that this build has the assembly vector kernels.
const vectorKernels = true

// tailMask holds eight all-ones int32 lanes then eight zero lanes: 32 bytes
// read from byte 32-4k are the VMASKMOVPS mask of the low k lanes.
var tailMask = [16]int32{-1, -1, -1, -1, -1, -1, -1, -1}

// activationVec applies the activation kind to x with the vector kernel
// of the selected tier and reports whether it did (false on the generic
// tier, and for kinds without one).
func activationVec(kind int, out, x []float32) bool {
	if vec == nil || kind >= len(vec.activation) || vec.activation[kind] == nil {
		return false
	}
	if n := len(out); n > 0 {
		_ = x[n-1]
		vec.activation[kind](&out[0], &x[0], n)
	}
	return true
}

// expShiftVec sets out[i] = e^(x[i]-shift) and returns their sum with the
// vector kernel of the selected tier; ok is false on the generic tier and
// for a shift that is not a float32 value (softmax shifts by a row's
// maximum, Exp by 0). below says that no x[i] is above shift, which some
// tiers make use of.
func expShiftVec(out, x []float32, shift float64, below bool) (sum float64, ok bool) {
	if vec == nil || float64(float32(shift)) != shift {
		return 0, false
	}
	n := len(out)
	if n == 0 {
		return 0, true
	}
	_ = x[n-1]
	if below {
		return vec.expShiftBelow(&out[0], &x[0], n, shift), true
	}
	return vec.expShift(&out[0], &x[0], n, shift), true
}

// maxAVX512 returns the largest of x[:n] (n ≥ 1) and whether any is NaN
// (AVX-512 only).
//
//go:noescape
func maxAVX512(x *float32, n int) (m float32, nan bool)

// maxAVX2 is maxAVX512 eight lanes at a time (AVX2).
//
//go:noescape
func maxAVX2(x *float32, n int) (m float32, nan bool)

// maxVec returns the largest element of x (len(x) ≥ 1) and whether x holds
// a NaN; ok is false on the generic tier.
func maxVec(x []float32) (m float32, nan, ok bool) {
	if vec == nil {
		return 0, false, false
	}
	m, nan = vec.max(&x[0], len(x))
	return m, nan, true
}

// softmaxKeptAVX512 computes rows of softmaxKeptRows, all in one call,
// until a row it leaves to its caller (a NaN or a ±∞ maximum among the
// kept elements); see activation_f32_avx512_amd64.s.
//
//go:noescape
func softmaxKeptAVX512(out, x *float32, size, rows int, kept *int) (done int)

// softmaxKeptAVX2 is softmaxKeptAVX512 eight lanes at a time, with the
// bits of the AVX2 steps (activation_f32_avx2_amd64.s).
//
//go:noescape
func softmaxKeptAVX2(out, x *float32, size, rows int, kept *int) (done int)

// softmaxKeptVec computes the rows of softmaxKeptRows from the first on
// with the tier's fused kernel, up to a row whose kept elements hold a NaN
// or whose maximum is ±∞, and returns the rows done: 0 where the tier has
// no such kernel or kept holds a count outside [1, size].
func softmaxKeptVec(out, x []float32, size, rows int, kept []int) (done int) {
	if vec == nil || vec.softmaxKept == nil || rows == 0 || size < 1 {
		return 0
	}
	_, _ = out[rows*size-1], x[rows*size-1]
	var kp *int
	if kept != nil {
		for _, n := range kept[:rows] {
			if n < 1 || n > size {
				return 0
			}
		}
		kp = &kept[0]
	}
	return vec.softmaxKept(&out[0], &x[0], size, rows, kp)
}

// reluAVX512 sets out[i] = max(x[i], 0) for i < n, keeping NaN and -0
// (AVX-512 only).
//
//go:noescape
func reluAVX512(out, x *float32, n int)

// reluAVX2 is reluAVX512 eight lanes at a time (AVX2).
//
//go:noescape
func reluAVX2(out, x *float32, n int)

// reluVec sets out[i] = max(x[i], 0) and reports whether it did (false
// on the generic tier).
func reluVec(out, x []float32) bool {
	if vec == nil {
		return false
	}
	if n := len(out); n > 0 {
		_ = x[n-1]
		vec.relu(&out[0], &x[0], n)
	}
	return true
}

// sigmoidAVX2 sets out[i] = sigmoid(x[i]) for i < n, computed in float32
// eight lanes at a time (AVX2 and FMA; activation_f32_avx2_amd64.s).
//
//go:noescape
func sigmoidAVX2(out, x *float32, n int)

// siluAVX2 sets out[i] = x[i]·sigmoid(x[i]) for i < n, in float32 as
// sigmoidAVX2.
//
//go:noescape
func siluAVX2(out, x *float32, n int)

// tanhAVX2 sets out[i] = tanh(x[i]) for i < n, in float32 as
// sigmoidAVX2.
//
//go:noescape
func tanhAVX2(out, x *float32, n int)

// geluAVX2 sets out[i] = x[i]·Φ(x[i]) for i < n, in float32 as
// sigmoidAVX2.
//
//go:noescape
func geluAVX2(out, x *float32, n int)

// geluFastAVX2 sets out[i] = x[i]·Φ(x[i]) where x[i] ≥ -4, in float32 with
// the fast path's polynomial (GELUFASTF8), and appends each other i (x[i]
// below -4 or NaN, whose out[i] it leaves unspecified) to slowIdx and x[i]
// to slowX, each with room for room ≥ 16 elements, for i from 0 until n or
// until they may not have room for another vector's: it returns where it
// stopped and how many it appended.
//
//go:noescape
func geluFastAVX2(out, x *float32, n int, slowIdx *int32, slowX *float32, room int) (done, slow int)

// geluTanhFastAVX2 is geluFastAVX2 for the tanh GELU: out[i] =
// geluTanhF64(x[i]) in float32 where x[i] ≥ -2.5 (GELUTANHFASTF8), the
// other i appended.
//
//go:noescape
func geluTanhFastAVX2(out, x *float32, n int, slowIdx *int32, slowX *float32, room int) (done, slow int)

// geluTanhAVX2 sets out[i] = geluTanhF64(x[i]) for i < n, in float32 as
// sigmoidAVX2 (its argument in float64).
//
//go:noescape
func geluTanhAVX2(out, x *float32, n int)

// expShiftAVX2 sets out[i] = e^(x[i]-shift) for i < n, in float32 as
// sigmoidAVX2, and returns the float64 sum of the float32 results; shift
// must be a float32 value.
//
//go:noescape
func expShiftAVX2(out, x *float32, n int, shift float64) (sum float64)

// expShiftBelowAVX2 is expShiftAVX2 for x[i] ≤ shift (softmax shifts by
// its row's maximum), with the same results: e^(x[i]-shift) ≤ 1 needs
// neither the upper clamp nor the check for +∞.
//
//go:noescape
func expShiftBelowAVX2(out, x *float32, n int, shift float64) (sum float64)

// sigmoidAVX512 is sigmoidAVX2 sixteen lanes at a time, with the same
// results (AVX-512; activation_f32_avx512_amd64.s).
//
//go:noescape
func sigmoidAVX512(out, x *float32, n int)

// siluAVX512 is siluAVX2 sixteen lanes at a time, as sigmoidAVX512.
//
//go:noescape
func siluAVX512(out, x *float32, n int)

// tanhAVX512 is tanhAVX2 sixteen lanes at a time, as sigmoidAVX512.
//
//go:noescape
func tanhAVX512(out, x *float32, n int)

// geluAVX512 is geluAVX2 sixteen lanes at a time, as sigmoidAVX512.
//
//go:noescape
func geluAVX512(out, x *float32, n int)

// geluFastAVX512 is geluFastAVX2 sixteen lanes at a time, with the same
// results.
//
//go:noescape
func geluFastAVX512(out, x *float32, n int, slowIdx *int32, slowX *float32, room int) (done, slow int)

// geluTanhFastAVX512 is geluTanhFastAVX2 sixteen lanes at a time, with
// the same results.
//
//go:noescape
func geluTanhFastAVX512(out, x *float32, n int, slowIdx *int32, slowX *float32, room int) (done, slow int)

// geluTanhAVX512 is geluTanhAVX2 sixteen lanes at a time, as
// sigmoidAVX512.
//
//go:noescape
func geluTanhAVX512(out, x *float32, n int)

// expShiftAVX512 is expShiftAVX2 sixteen lanes at a time: the same
// float32 results, their float64 sum added in another order.
//
//go:noescape
func expShiftAVX512(out, x *float32, n int, shift float64) (sum float64)

// expShiftBelowAVX512 is expShiftBelowAVX2 sixteen lanes at a time, with
// expShiftAVX512's results.
//
//go:noescape
func expShiftBelowAVX512(out, x *float32, n int, shift float64) (sum float64)
