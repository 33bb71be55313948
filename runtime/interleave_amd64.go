// Moves between planes of channels and pixels of eight channels (NCHW8c)
// on amd64, eight pixels at a time with the AVX2 transpose.

//go:build amd64 && !noasm

package runtime

// interleave8 sets pix[8p+i] = x[i·stride+p] for the cnt ≤ 8 channels
// at x, stride floats apart, and every pixel p < n (lanes i ≥ cnt are
// left as they are), as interleaveGo does.
func interleave8(pix, x []float32, stride, n, cnt int) {
	full := 0
	if cnt == 8 && n >= 8 {
		full = n / 8
		_ = x[7*stride+8*full-1]
		_ = pix[8*8*full-1]
		for b := range full {
			transpose8AVX2(&x[8*b], stride, &pix[64*b], 8, 8, 1)
		}
	}
	interleaveGo(pix, x, stride, 8*full, n, cnt)
}

// deinterleave8 sets out[i·stride+p] = pix[8p+i] for the cnt ≤ 8
// channels at out, stride floats apart, and every pixel p < n, as
// deinterleaveGo does.
func deinterleave8(out, pix []float32, stride, n, cnt int) {
	full := 0
	if cnt == 8 && n >= 8 {
		full = n / 8
		_ = out[7*stride+8*full-1]
		_ = pix[8*8*full-1]
		for b := range full {
			transpose8AVX2(&pix[64*b], 8, &out[8*b], stride, 8, 1)
		}
	}
	deinterleaveGo(out, pix, stride, 8*full, n, cnt)
}
