// Declarations of the AVX-512 layer normalization kernel.

//go:build amd64 && !noasm

package runtime

// layerNormRowAVX512 normalizes one row of n ≥ 1 floats as layerNormRows
// does; mode bit 0 scales by w, bit 1 adds b (AVX-512 only).
//
//go:noescape
func layerNormRowAVX512(out, x, w, b *float32, n int, eps float64, mode int)

// layerNormRowVec normalizes one row (len(x) ≥ 1) with the AVX-512 kernel;
// w and b may be nil. It reports false when the CPU lacks AVX-512.
func layerNormRowVec(out, x, w, b []float32, eps float64) bool {
	if !hasAVX512 {
		return false
	}
	n := len(x)
	_ = out[n-1]
	mode := 0
	wp, bp := &x[0], &x[0] // not read unless mode says so
	if w != nil {
		_ = w[n-1]
		wp, mode = &w[0], mode|1
	}
	if b != nil {
		_ = b[n-1]
		bp, mode = &b[0], mode|2
	}
	layerNormRowAVX512(&out[0], &x[0], wp, bp, n, eps, mode)
	return true
}
