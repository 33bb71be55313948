// Portable build: the activation kernels have no vector path.

//go:build !amd64 || noasm

package runtime

// activationVec reports false: the portable loops of activation.go do the
// work.
func activationVec(kind int, out, x []float32) bool { return false }
