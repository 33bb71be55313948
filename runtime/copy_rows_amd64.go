//go:build amd64 && !noasm

package runtime

// copyRowsAVX2 copies rows of n floats from src to dst, the rows srcStride
// and dstStride bytes apart; see copy_rows_avx2_amd64.s.
//
//go:noescape
func copyRowsAVX2(dst *float32, dstStride int, src *float32, srcStride, rows, n int)

// copyRowsAsm runs copyRowsAVX2 on the vector tiers (the caller has
// checked the bounds) and reports whether it did.
func copyRowsAsm(dst []float32, dstStride int, src []float32, srcStride, rows, n int) bool {
	if !hasAVX2FMA {
		return false
	}
	copyRowsAVX2(&dst[0], dstStride*4, &src[0], srcStride*4, rows, n)
	return true
}
