// Portable build: max pooling's row maximum is plain Go.

//go:build !amd64 || noasm

package runtime

// maxRows sets dst[i] = max(a[i], b[i]) for i < len(dst).
func maxRows(dst, a, b []float32) { maxRowsGo(dst, a, b) }
