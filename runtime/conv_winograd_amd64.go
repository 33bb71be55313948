// The Winograd transforms of the AVX2 tier, in assembly; see
// conv_winograd.go.

//go:build amd64 && !noasm

package runtime

// winoInputAVX2 is winoInputGo with byte strides; see
// conv_winograd_avx2_amd64.s.
//
//go:noescape
func winoInputAVX2(xb *float32, rowStride int, v *float32, tileStride, planeStride, tiles, blocks, blockStride int)

// winoOutputAVX2 is winoOutputGo with byte strides and relu as 0 or 1;
// nonFinite is not 0 when some value it stored is an infinity or NaN. See
// conv_winograd_avx2_amd64.s.
//
//go:noescape
func winoOutputAVX2(m *float32, planeStride, tileStride int, ob *float32, rowStride, tiles int, bias *float32, relu, blocks, blockStride int) (nonFinite int)

// winoAVX2 are the AVX2 tier's transforms.
var winoAVX2 = &winoKernels{
	input: func(xb []float32, rowStride int, v []float32, tileStride, planeStride, tiles, blocks, blockStride int) {
		if tiles <= 0 || blocks <= 0 {
			return
		}
		// What the assembly reads and writes, checked once.
		_, _ = xb[(blocks-1)*blockStride+3*rowStride+(tiles-1)*16+31], v[(blocks-1)*8+(tiles-1)*tileStride+15*planeStride+7]
		winoInputAVX2(&xb[0], rowStride*4, &v[0], tileStride*4, planeStride*4, tiles, blocks, blockStride*4)
	},
	output: func(m []float32, planeStride, tileStride int, ob []float32, rowStride, tiles int, bias []float32, relu bool, blocks, blockStride int) bool {
		if tiles <= 0 || blocks <= 0 {
			return false
		}
		_, _, _ = m[(blocks-1)*8+(tiles-1)*tileStride+15*planeStride+7], ob[(blocks-1)*blockStride+rowStride+(tiles-1)*16+15], bias[blocks*8-1]
		r := 0
		if relu {
			r = 1
		}
		return winoOutputAVX2(&m[0], planeStride*4, tileStride*4, &ob[0], rowStride*4, tiles, &bias[0], r, blocks, blockStride*4) != 0
	},
	toBlocks:   func(dst, src []float32, plane, n int) { interleave8(dst, src, plane, n, 8) },
	fromBlocks: func(dst, src []float32, plane, n int) { deinterleave8(dst, src, plane, n, 8) },
}

// winoKernelsFor returns the Winograd transforms of the selected tier: the
// assembly ones on AVX2 and AVX-512 (whose GEMM then runs the products:
// 230–310 GFLOP/s of direct-convolution work on ResNet-18's stride-1
// layers, Xeon SPR, 1 worker), the portable ones on the generic tier.
func winoKernelsFor() *winoKernels {
	if hasAVX2FMA {
		return winoAVX2
	}
	return winoGo
}
