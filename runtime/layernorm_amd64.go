// Declarations of the vector layer normalization kernels: AVX-512
// (layernorm_amd64.s) and AVX2 (layernorm_avx2_amd64.s).

//go:build amd64 && !noasm

package runtime

// layerNormRowAVX512 normalizes one row of n ≥ 1 floats as layerNormRows
// does; mode bit 0 scales by w, bit 1 adds b (AVX-512 only).
//
//go:noescape
func layerNormRowAVX512(out, x, w, b *float32, n int, eps float64, mode int)

// layerNormRowAVX2 is layerNormRowAVX512 four lanes at a time (AVX2 and
// FMA).
//
//go:noescape
func layerNormRowAVX2(out, x, w, b *float32, n int, eps float64, mode int)

// layerNormRowVec normalizes one row (len(x) ≥ 1) with the vector kernel
// of the selected tier; w and b may be nil. It reports false on the
// generic tier.
func layerNormRowVec(out, x, w, b []float32, eps float64) bool {
	if vec == nil {
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
	vec.layerNormRow(&out[0], &x[0], wp, bp, n, eps, mode)
	return true
}
