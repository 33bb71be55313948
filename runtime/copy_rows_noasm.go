//go:build !amd64 || noasm

package runtime

// copyRowsAsm reports that this build has no assembly copyRows.
func copyRowsAsm(dst []float32, dstStride int, src []float32, srcStride, rows, n int) bool {
	return false
}
