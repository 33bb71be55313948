// Moves between planes of channels and pixels of eight channels (NCHW8c)
// on amd64, eight pixels at a time with the AVX2 transpose.

//go:build amd64 && !noasm

package runtime

// interleave8 sets pix[8p+i] = x[i·stride+p] for the cnt ≤ 8 channels
// at x, stride floats apart, and every pixel p < n (lanes i ≥ cnt are
// left as they are), as interleaveGo does. Eight channels of at least
// eight pixels move in blocks of eight pixels, the last block shifted
// back to end at pixel n: it rewrites some pixels of the block before
// with the same values, so a row of 14 pixels takes two transposes and
// no scalar tail.
func interleave8(pix, x []float32, stride, n, cnt int) {
	if cnt < 8 || n < 8 {
		interleaveGo(pix, x, stride, 0, n, cnt)
		return
	}
	_ = x[7*stride+n-1]
	_ = pix[8*n-1]
	transposeBlocks8(pix, 8, 8, x, stride, 1, n)
}

// deinterleave8 sets out[i·stride+p] = pix[8p+i] for the cnt ≤ 8
// channels at out, stride floats apart, and every pixel p < n, as
// deinterleaveGo does, in blocks of eight pixels as interleave8 moves
// them.
func deinterleave8(out, pix []float32, stride, n, cnt int) {
	if cnt < 8 || n < 8 {
		deinterleaveGo(out, pix, stride, 0, n, cnt)
		return
	}
	_ = out[7*stride+n-1]
	_ = pix[8*n-1]
	transposeBlocks8(out, stride, 1, pix, 8, 8, n)
}

// transposeBlocks8 transposes n ≥ 8 pixels of eight channels in 8×8
// blocks (transpose8AVX2: rows srcRow floats apart in src become columns
// of rows dstRow apart in dst), the block of pixels [p, p+8) starting at
// src[p·srcCol] and dst[p·dstCol], the last block shifted back to end at
// pixel n. interleave8 and deinterleave8 are its two directions; they
// check that every block lies in src and dst.
func transposeBlocks8(dst []float32, dstRow, dstCol int, src []float32, srcRow, srcCol, n int) {
	for p0 := 0; p0 < n; p0 += 8 {
		p := min(p0, n-8)
		transpose8AVX2(&src[p*srcCol], srcRow, &dst[p*dstCol], dstRow, 8, 1)
	}
}
