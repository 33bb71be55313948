// The AVX-512 and AVX2 dot kernels of the narrow products.

//go:build amd64 && !noasm

//go:generate go run gemm_dots_asmgen.go

package runtime

// dotsAVX512 computes two rows of A at a time against up to 14 columns
// (28 accumulators; each vector of B feeds both rows).
var dotsAVX512 = &dotKernel{lanes: 16, maxCols: 14, rows: dotRowsAVX512}

// dotsAVX2 computes one row at a time against up to 12 columns.
var dotsAVX2 = &dotKernel{lanes: 8, maxCols: 12, rows: dotRowsAVX2}

// dotKernelFunc is the signature of the generated kernels.
type dotKernelFunc func(k int, a *float32, lda, rows int, w *float32, c *float32, ldc int, beta float32, bias *float32, flags int, mask0, mask1 *int32, kmask uint32)

// dotRowsAVX512 is dotKernel.rows of the AVX-512 tier.
func dotRowsAVX512(n, k int, a []float32, lda, rows int, w, c []float32, ldc int, beta float32, bias []float32, flags int) {
	if rows <= 0 {
		return
	}
	checkDots(n, k, a, lda, rows, w, c, ldc, 16)
	dotRows512[dotCols(n)/2-1](k, &a[0], lda, rows, &w[0], &c[0], ldc, beta, tileBias(bias, rows, n, flags), flags, nil, nil, uint32(1)<<n-1)
}

// dotRowsAVX2 is dotKernel.rows of the AVX2 tier: the columns' masks
// are tailMask's lanes.
func dotRowsAVX2(n, k int, a []float32, lda, rows int, w, c []float32, ldc int, beta float32, bias []float32, flags int) {
	if rows <= 0 {
		return
	}
	checkDots(n, k, a, lda, rows, w, c, ldc, 8)
	m0, m1 := &tailMask[8-min(n, 8)], &tailMask[8-max(n-8, 0)]
	dotRows256[dotCols(n)/2-1](k, &a[0], lda, rows, &w[0], &c[0], ldc, beta, tileBias(bias, rows, n, flags), flags, m0, m1, 0)
}

// checkDots checks the operands of a dot kernel, which reads rows rows
// of A of k floats, the dot panels of n columns for vectors of lanes
// floats, and writes rows rows of C of n floats.
func checkDots(n, k int, a []float32, lda, rows int, w, c []float32, ldc, lanes int) {
	_ = a[(rows-1)*lda+k-1]
	_ = w[(k+lanes-1)/lanes*dotCols(n)*lanes-1]
	_ = c[(rows-1)*ldc+n-1]
}
