// Portable build: the narrow linear path has no vector kernel.

//go:build !amd64 || noasm

package runtime

// narrowRowsVec reports false: the portable loop does the work.
func narrowRowsVec(l *narrowLinear, lo, hi int) bool { return false }
