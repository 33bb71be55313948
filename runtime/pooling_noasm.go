// Portable build: max pooling's row maximum is plain Go.

//go:build !amd64 || noasm

package runtime

// maxRows sets dst[i] = max(a[i], b[i]) for i < len(dst).
func maxRows(dst, a, b []float32) { maxRowsGo(dst, a, b) }

// deinterleavePairs splits nothing: the caller's loop does it all.
func deinterleavePairs(a, b, src []float32) int { return 0 }

// deinterleaveRowPairs splits nothing: the caller's loop does it all.
func deinterleaveRowPairs(a, b []float32, dstStride int, src []float32, srcStride, rows, w int) int {
	return 0
}
