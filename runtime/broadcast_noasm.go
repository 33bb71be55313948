// Portable build: the binary ops have no vector loops.

//go:build !amd64 || noasm

package runtime

// binarySameVec reports false: the portable loop does the work.
func binarySameVec(op binaryOp, o, a, b []float32) bool { return false }

// binaryScalarVec reports false: the portable loop does the work.
func binaryScalarVec(op binaryOp, o, a []float32, s float32) bool { return false }
