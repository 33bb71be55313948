// AVX-512 activation kernels for amd64.

//go:build amd64 && !noasm

package runtime

// geluAVX512 sets out[i] = geluF64(x[i]) for i < n, eight lanes at a time
// (AVX-512 only).
//
//go:noescape
func geluAVX512(out, x *float32, n int)

// sigmoidAVX512 sets out[i] = 1/(1+e^-x[i]) for i < n (AVX-512 only).
//
//go:noescape
func sigmoidAVX512(out, x *float32, n int)

// tanhAVX512 sets out[i] = tanhF64(x[i]) for i < n (AVX-512 only).
//
//go:noescape
func tanhAVX512(out, x *float32, n int)

// activationVec applies the activation kind to x with the AVX-512 kernels
// and reports whether it did (false when the CPU lacks AVX-512).
func activationVec(kind int, out, x []float32) bool {
	if !hasAVX512 {
		return false
	}
	n := len(out)
	if n == 0 {
		return true
	}
	_ = x[n-1]
	switch kind {
	case taskGelu:
		geluAVX512(&out[0], &x[0], n)
	case taskSigmoid:
		sigmoidAVX512(&out[0], &x[0], n)
	case taskTanh:
		tanhAVX512(&out[0], &x[0], n)
	default:
		return false
	}
	return true
}

// expShiftAVX512 sets out[i] = e^(x[i]-shift) for i < n, computed as
// expF64 would (NaN stays NaN, 0 below e^-745), and returns the float64
// sum of the exponentials before rounding to float32 (AVX-512 only).
//
//go:noescape
func expShiftAVX512(out, x *float32, n int, shift float64) (sum float64)

// expShiftVec sets out[i] = e^(x[i]-shift) and returns their sum with the
// AVX-512 kernel; ok is false when the CPU lacks AVX-512.
func expShiftVec(out, x []float32, shift float64) (sum float64, ok bool) {
	if !hasAVX512 {
		return 0, false
	}
	n := len(out)
	if n == 0 {
		return 0, true
	}
	_ = x[n-1]
	return expShiftAVX512(&out[0], &x[0], n, shift), true
}

// maxAVX512 returns the largest of x[:n] (n ≥ 1) and whether any is NaN
// (AVX-512 only).
//
//go:noescape
func maxAVX512(x *float32, n int) (m float32, nan bool)

// maxVec returns the largest element of x (len(x) ≥ 1) and whether x holds
// a NaN; ok is false when the CPU lacks AVX-512.
func maxVec(x []float32) (m float32, nan, ok bool) {
	if !hasAVX512 {
		return 0, false, false
	}
	m, nan = maxAVX512(&x[0], len(x))
	return m, nan, true
}

// reluAVX512 sets out[i] = max(x[i], 0) for i < n, keeping NaN and -0
// (AVX-512 only).
//
//go:noescape
func reluAVX512(out, x *float32, n int)

// reluVec sets out[i] = max(x[i], 0) and reports whether it did (false
// when the CPU lacks AVX-512).
func reluVec(out, x []float32) bool {
	if !hasAVX512 {
		return false
	}
	if n := len(out); n > 0 {
		_ = x[n-1]
		reluAVX512(&out[0], &x[0], n)
	}
	return true
}
