// The vector row maximum of max pooling on the AVX2 tier.

//go:build amd64 && !noasm

package runtime

// maxRowsAVX2 sets dst[i] = max(a[i], b[i]) for i < n, n a multiple of 8,
// as maxRowsGo does; see pooling_avx2_amd64.s.
//
//go:noescape
func maxRowsAVX2(dst, a, b *float32, n int)

// maxRows sets dst[i] = max(a[i], b[i]) for i < len(dst), eight lanes at a
// time on the AVX2 and AVX-512 tiers.
func maxRows(dst, a, b []float32) {
	n := 0
	if hasAVX2FMA {
		n = len(dst) &^ 7
		if n > 0 {
			_, _ = a[n-1], b[n-1]
			maxRowsAVX2(&dst[0], &a[0], &b[0], n)
		}
	}
	maxRowsGo(dst[n:], a[n:], b[n:])
}

// deinterleavePairs sets a[i] = src[2i] and b[i] = src[2i+1] for the
// pairs the AVX2 kernel takes (a multiple of 8 of them, none below the
// AVX2 tier) and returns the number of floats of src it split.
func deinterleavePairs(a, b, src []float32) int {
	return deinterleaveRowPairs(a, b, 0, src, 0, 1, len(src))
}

// deinterleaveRowPairs is deinterleavePairs for rows rows of w floats of
// src (srcStride apart) into a and b (dstStride apart), in one call; it
// returns the floats of each row it split.
func deinterleaveRowPairs(a, b []float32, dstStride int, src []float32, srcStride, rows, w int) int {
	pairs := w / 2 &^ 7
	if !hasAVX2FMA || pairs == 0 || rows <= 0 {
		return 0
	}
	_, _, _ = a[(rows-1)*dstStride+pairs-1], b[(rows-1)*dstStride+pairs-1], src[(rows-1)*srcStride+2*pairs-1]
	deinterleave2AVX2(&a[0], &b[0], &src[0], pairs, rows, dstStride*4, srcStride*4)
	return 2 * pairs
}
