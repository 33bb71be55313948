//go:build !amd64 || noasm

package runtime

// prefetchL2 does nothing in the portable build.
func prefetchL2(p *float32, lines int) {}
