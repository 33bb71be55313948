// Declaration of the AVX2 narrow linear kernel (linear_narrow_avx2_amd64.s).

//go:build amd64 && !noasm

package runtime

// narrowRowsAVX2 computes rows of a narrow linear layer; see
// linear_narrow_avx2_amd64.s. w and bias hold 16 columns.
//
//go:noescape
func narrowRowsAVX2(rows, k int, x, w, bias, out *float32, n, flags int)

// The flags of narrowRowsAVX2 past the GEMM epilogue's flagBias and
// flagReLU.
const (
	narrowFullStores = 8  // store whole registers
	narrowOneReg     = 16 // n ≤ 8
)

// narrowRowsVec computes rows [lo, hi) of l with the AVX2 kernel, which
// also serves the AVX-512 tier (a row of at most 16 outputs fits two AVX2
// registers), and reports whether it did (false on the generic tier). It
// calls the kernel directly rather than through the tier's table so that
// l, on the caller's stack, does not escape.
func narrowRowsVec(l *narrowLinear, lo, hi int) bool {
	if !hasAVX2FMA {
		return false
	}
	if hi <= lo {
		return true
	}
	flags, width := 0, 16
	if l.bias != nil {
		flags |= flagBias
	}
	if l.act == ActReLU {
		flags |= flagReLU
	}
	k, n := l.k, l.n
	if n <= 8 {
		flags, width = flags|narrowOneReg, 8
	}
	_ = l.x[hi*k-1]
	_ = l.out[hi*n-1]
	// Rows whose whole-register store ends inside rows [lo, hi) can store
	// unmasked: what spills into the next rows is overwritten when those
	// are computed, later on this goroutine. The rest store masked.
	full := 0
	if hi*n >= width {
		full = min(hi-lo, max(0, (hi*n-width)/n-lo+1))
	}
	if full > 0 {
		narrowRowsAVX2(full, k, &l.x[lo*k], &l.w16[0], &l.bias16[0], &l.out[lo*n], n, flags|narrowFullStores)
	}
	if lo+full < hi {
		r := lo + full
		narrowRowsAVX2(hi-r, k, &l.x[r*k], &l.w16[0], &l.bias16[0], &l.out[r*n], n, flags)
	}
	return true
}
