//go:build amd64 && !noasm

package runtime

// prefetchL2 asks for lines 64-byte lines from p to be brought into L2;
// see prefetch_amd64.s.
//
//go:noescape
func prefetchL2(p *float32, lines int)
