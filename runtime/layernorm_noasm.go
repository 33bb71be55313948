// Portable build: layer normalization has no vector path.

//go:build !amd64 || noasm

package runtime

// layerNormRowVec reports false: the portable loop does the work.
func layerNormRowVec(out, x, w, b []float32, eps float64) bool { return false }
