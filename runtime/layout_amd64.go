//go:build amd64 && !noasm

package runtime

// channelsLastAsm moves the channels of channelsLast in blocks of eight
// with the AVX2 transpose, on the vector tiers and for at least eight
// pixels, and returns the first channel it left to the caller.
func channelsLastAsm(dst, src []float32, c, hw int) int {
	if !hasAVX2FMA || hw < 8 {
		return 0
	}
	for i := 0; i+8 <= c; i += 8 {
		transposeBlocks8(dst[i:], c, c, src[i*hw:], hw, 1, hw)
	}
	return c &^ 7
}

// channelsFirstAsm is channelsLastAsm for channelsFirst.
func channelsFirstAsm(dst, src []float32, c, hw int) int {
	if !hasAVX2FMA || hw < 8 {
		return 0
	}
	for i := 0; i+8 <= c; i += 8 {
		transposeBlocks8(dst[i*hw:], hw, 1, src[i:], c, c, hw)
	}
	return c &^ 7
}
