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
