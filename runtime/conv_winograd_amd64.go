// The Winograd transforms of the AVX2 tier, in assembly; see
// conv_winograd.go.

//go:build amd64 && !noasm

package runtime

// winoInputAVX2 is winoInputGo with byte strides; see
// conv_winograd_avx2_amd64.s.
//
//go:noescape
func winoInputAVX2(xb *float32, rowStride int, v *float32, tileStride, planeStride, tiles int)

// winoOutputAVX2 is winoOutputGo with byte strides and relu as 0 or 1;
// nonFinite is not 0 when some value it stored is an infinity or NaN. See
// conv_winograd_avx2_amd64.s.
//
//go:noescape
func winoOutputAVX2(m *float32, planeStride, tileStride int, ob *float32, rowStride, tiles int, bias *float32, relu int) (nonFinite int)

// winoAVX2 are the AVX2 tier's transforms.
var winoAVX2 = &winoKernels{
	input: func(xb []float32, rowStride int, v []float32, tileStride, planeStride, tiles int) {
		winoInputAVX2(&xb[0], rowStride*4, &v[0], tileStride*4, planeStride*4, tiles)
	},
	output: func(m []float32, planeStride, tileStride int, ob []float32, rowStride, tiles int, bias []float32, relu bool) bool {
		r := 0
		if relu {
			r = 1
		}
		return winoOutputAVX2(&m[0], planeStride*4, tileStride*4, &ob[0], rowStride*4, tiles, &bias[0], r) != 0
	},
	toBlocks: func(dst, src []float32, plane, n int) {
		x := 0
		for ; x+8 <= n; x += 8 {
			transpose8AVX2(&src[x], plane, &dst[x*8], 8, 8, 1)
		}
		toBlocksGo(dst[x*8:], src[x:], plane, n-x)
	},
	fromBlocks: func(dst, src []float32, plane, n int) {
		x := 0
		for ; x+8 <= n; x += 8 {
			transpose8AVX2(&src[x*8], 8, &dst[x], plane, 8, 1)
		}
		fromBlocksGo(dst[x:], src[x*8:], plane, n-x)
	},
}

// winoKernelsFor returns the Winograd transforms of the selected tier: the
// assembly ones on AVX2, the portable ones on the generic tier, none on
// AVX-512 (whose 14×32 GEMM tile and im2col were not measured against
// them).
func winoKernelsFor() *winoKernels {
	switch {
	case hasAVX512:
		return nil
	case hasAVX2FMA:
		return winoAVX2
	}
	return winoGo
}
