// This file holds copyRows, the copy of a block of rows between arrays of
// different row strides (an image into its zero-padded copy).

package runtime

// copyRows copies rows of n floats: src[r*srcStride:][:n] to
// dst[r*dstStride:][:n] for r < rows, on the vector tiers with one
// assembly call rather than a copy call per row (Xeon SPR, 1 worker: see
// convJob.fillPadded).
func copyRows(dst []float32, dstStride int, src []float32, srcStride, rows, n int) {
	if rows <= 0 || n <= 0 {
		return
	}
	// What the kernels read and write, checked once.
	_, _ = dst[(rows-1)*dstStride+n-1], src[(rows-1)*srcStride+n-1]
	if copyRowsAsm(dst, dstStride, src, srcStride, rows, n) {
		return
	}
	copyRowsGo(dst, dstStride, src, srcStride, rows, n)
}

// copyRowsGo is copyRows, a copy call per row.
func copyRowsGo(dst []float32, dstStride int, src []float32, srcStride, rows, n int) {
	for r := range rows {
		copy(dst[r*dstStride:r*dstStride+n], src[r*srcStride:r*srcStride+n])
	}
}
