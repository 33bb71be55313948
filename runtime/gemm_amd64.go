// GEMM kernel selection and assembly kernel wrappers for amd64.

//go:build amd64 && !noasm

//go:generate go run gemm_asmgen.go

package runtime

// avx512Kernel is the 14×32 AVX-512 FMA micro-kernel (28 zmm accumulators).
// Blocks 2048 columns wide pack each block of A once for twice as many
// columns as 1024 would (paired runs, 1 worker: 1536³ +2.5%, 2048³ +1.4%),
// for a packing buffer of up to 4 MB per goroutine.
var avx512Kernel = &gemmKernel{
	name: "avx512-14x32", mr: 14, nr: 32,
	kc: 256, kcLargeC: 512, mc: 14 * 12, nc: 2048,
	tile: tileAVX512, direct: tileDirectAVX512, directRun: tileDirectRunAVX512, directPack: tileDirectPackAVX512,
	directPackB: tileDirectPackBAVX512, directNarrow: tileDirectNarrowAVX512,
	rowBias: true, spreadAhead: true,
	gemv: &gemvKernel{row: gemvRowAVX512, dot4: dot4AVX512, dot8: dot8AVX512,
		sparse: sparseTier{wide: true}.gemv, sparseMinZeros: 0.2, countZeros: countZerosAVX2},
	sparse: sparseAVX512, dots: dotsAVX512,
}

// avx2Kernel is the 6×16 AVX2 FMA micro-kernel (12 ymm accumulators).
// Blocks of k up to 384 deep, balanced, halve the passes over C of
// 256-deep ones and keep a 24 KB micro-panel of B in a 32 KB L1 (Zen 3, 1
// worker, paired runs of 21 rounds: 3136x576x64 +10%, 1024³ +2%,
// 64x784x512 with B packed +2%, 512³ +1%).
var avx2Kernel = &gemmKernel{
	name: "avx2-6x16", mr: 6, nr: 16,
	kc: 384, balanceK: true, mc: 6 * 24, nc: 2048,
	tile: tileAVX2, direct: tileDirectAVX2, directRun: tileDirectRunAVX2, directPack: tileDirectPackAVX2,
	directPackB: tileDirectPackBAVX2, directNarrow: tileDirectNarrowAVX2,
	rowBias: true,
	gemv: &gemvKernel{row: gemvRowAVX2, dot4: dot4AVX2,
		sparse: sparseTier{}.gemv, sparseMinZeros: 0.25, countZeros: countZerosAVX2},
	sparse: sparseAVX2, dots: dotsAVX2,
}

// gemvRowAVX512 runs gemvRow512 with the column count as a lane mask; see
// gemvKernel.row.
func gemvRowAVX512(k int, a, b []float32, ldb int, c []float32, alpha, beta float32, bias []float32, flags, cols int) {
	_, _, _ = a[k-1], b[(k-1)*ldb+cols-1], c[cols-1]
	gemvRow512(k, &a[0], &b[0], ldb, &c[0], alpha, beta, tileBias(bias, 1, cols, flags), flags, uint32(uint64(1)<<uint(cols)-1))
}

// gemvRowAVX2 runs gemvRow256; see gemvKernel.row.
func gemvRowAVX2(k int, a, b []float32, ldb int, c []float32, alpha, beta float32, bias []float32, flags, cols int) {
	_, _, _ = a[k-1], b[(k-1)*ldb+cols-1], c[cols-1]
	gemvRow256(k, &a[0], &b[0], ldb, &c[0], alpha, beta, tileBias(bias, 1, cols, flags), flags, cols)
}

// dot4AVX512 and dot4AVX2 run dot4x512 and dot4x256; see gemvKernel.dot4.
func dot4AVX512(k int, a, b []float32, ldb int) (d [4]float32) {
	_, _ = a[k-1], b[3*ldb+k-1]
	dot4x512(k, &a[0], &b[0], ldb, &d[0])
	return d
}

// dot8AVX512 runs dot8x512; see gemvKernel.dot8.
func dot8AVX512(k int, a, b []float32, ldb int, dst []float32) {
	_, _, _ = a[k-1], b[7*ldb+k-1], dst[7]
	dot8x512(k, &a[0], &b[0], ldb, &dst[0])
}

func dot4AVX2(k int, a, b []float32, ldb int) (d [4]float32) {
	_, _ = a[k-1], b[3*ldb+k-1]
	dot4x256(k, &a[0], &b[0], ldb, &d[0])
	return d
}

// bestKernel returns the micro-kernel of the selected tier (SetISA).
func bestKernel() *gemmKernel {
	switch {
	case hasAVX512:
		return avx512Kernel
	case hasAVX2FMA:
		return avx2Kernel
	}
	return genericKernel
}

// availableKernels lists every micro-kernel this build and CPU can run.
func availableKernels() []*gemmKernel {
	ks := []*gemmKernel{genericKernel}
	if cpuHasAVX2FMA {
		ks = append(ks, avx2Kernel)
	}
	if cpuHasAVX512 {
		ks = append(ks, avx512Kernel)
	}
	return ks
}

// tileAVX512 runs the AVX-512 micro-kernel; see gemmKernel.tile.
func tileAVX512(rows, cols, k int, a, b, c []float32, ldc int, beta float32, bias []float32, flags, next int, ahead []float32) {
	bp := tileBias(bias, rows, cols, flags)
	mask := uint32(uint64(1)<<uint(cols) - 1)
	pf, lines := aheadLines(ahead)
	tiles512[rows](k, &a[0], &b[0], &c[0], ldc, beta, bp, flags, mask, next, pf, lines)
}

// aheadLines returns where a tile's lines ahead start and how many there
// are, for the AVX-512 kernels (which read nothing when there are none).
func aheadLines(ahead []float32) (*float32, int) {
	if len(ahead) < 16 {
		return nil, 0
	}
	return &ahead[0], len(ahead) / 16
}

// tileDirectAVX512 runs the AVX-512 micro-kernel that reads A in place; see
// gemmKernel.direct.
func tileDirectAVX512(rows, cols, k int, a []float32, lda int, b, c []float32, ldc int, alpha, beta float32, bias []float32, flags int, ahead []float32) {
	bp := tileBias(bias, rows, cols, flags)
	mask := uint32(uint64(1)<<uint(cols) - 1)
	pf, lines := aheadLines(ahead)
	tilesDirect512[rows](k, &a[0], lda, &b[0], &c[0], ldc, alpha, beta, bp, flags, mask, pf, lines)
}

// tileDirectRunAVX512 runs the AVX-512 micro-kernel that reads A in place
// for a run of whole tiles; see gemmKernel.directRun.
func tileDirectRunAVX512(tiles, k int, a []float32, lda int, b, c []float32, ldc int, alpha, beta float32, bias []float32, flags int, ahead []float32, aheadPer int) {
	rows := tiles * 14
	_ = a[(rows-1)*lda+k-1]
	_ = b[k*32-1]
	_ = c[(rows-1)*ldc+31]
	pf, total := aheadLines(ahead)
	tileDirectRun512x14(k, &a[0], lda, &b[0], &c[0], ldc, alpha, beta, tileBias(bias, rows, 32, flags), flags, 1<<32-1, pf, 0, tiles, aheadPer, total)
}

// tileDirectPackAVX512 runs the AVX-512 micro-kernel that reads A in place
// and packs it; see gemmKernel.directPack.
func tileDirectPackAVX512(rows, cols, k int, a []float32, lda int, pa, b, c []float32, ldc int, beta float32, bias []float32, flags int, ahead []float32) {
	bp := tileBias(bias, rows, cols, flags)
	_ = pa[(k-1)*14+rows-1]
	mask := uint32(uint64(1)<<uint(cols) - 1)
	pf, lines := aheadLines(ahead)
	tilesDirectPack512[rows](k, &a[0], lda, &b[0], &c[0], ldc, 1, beta, bp, flags, mask, &pa[0], pf, lines)
}

// tileAVX2 runs the AVX2 micro-kernel; see gemmKernel.tile. Tiles narrower
// than 16 columns go through a scratch tile.
func tileAVX2(rows, cols, k int, a, b, c []float32, ldc int, beta float32, bias []float32, flags, next int, ahead []float32) {
	prefetchAhead(ahead)
	if cols == 16 {
		tile256(rows, k, &a[0], &b[0], &c[0], ldc, beta, tileBias(bias, rows, 16, flags), flags, next)
		return
	}
	var acc [6 * 16]float32
	tile256(rows, k, &a[0], &b[0], &acc[0], 16, 0, nil, 0, 0)
	storeTile(acc[:], 16, rows, cols, c, ldc, beta, bias, flags)
}

// tileDirectAVX2 runs the AVX2 micro-kernel that reads A in place; see
// gemmKernel.direct. Tiles narrower than 16 columns go through a scratch
// tile.
func tileDirectAVX2(rows, cols, k int, a []float32, lda int, b, c []float32, ldc int, alpha, beta float32, bias []float32, flags int, ahead []float32) {
	prefetchAhead(ahead)
	_ = a[(rows-1)*lda+k-1]
	_ = b[k*16-1]
	if cols == 16 {
		_ = c[(rows-1)*ldc+15]
		tileDirect256(rows, k, &a[0], lda, &b[0], &c[0], ldc, alpha, beta, tileBias(bias, rows, 16, flags), flags)
		return
	}
	var acc [6 * 16]float32
	tileDirect256(rows, k, &a[0], lda, &b[0], &acc[0], 16, alpha, 0, nil, 0)
	storeTile(acc[:], 16, rows, cols, c, ldc, beta, bias, flags)
}

// tileDirectRunAVX2 runs the AVX2 micro-kernel that reads A in place for a
// run of whole tiles; see gemmKernel.directRun.
func tileDirectRunAVX2(tiles, k int, a []float32, lda int, b, c []float32, ldc int, alpha, beta float32, bias []float32, flags int, ahead []float32, aheadPer int) {
	rows := tiles * 6
	_ = a[(rows-1)*lda+k-1]
	_ = b[k*16-1]
	_ = c[(rows-1)*ldc+15]
	pf, total := aheadLines(ahead)
	tileDirectRun256x6(k, &a[0], lda, &b[0], &c[0], ldc, alpha, beta, tileBias(bias, rows, 16, flags), flags, tiles, pf, aheadPer, total)
}

// tileDirectPackAVX2 runs the AVX2 micro-kernel that reads A in place and
// packs it; see gemmKernel.directPack.
func tileDirectPackAVX2(rows, cols, k int, a []float32, lda int, pa, b, c []float32, ldc int, beta float32, bias []float32, flags int, ahead []float32) {
	prefetchAhead(ahead)
	_ = a[(rows-1)*lda+k-1]
	_ = b[k*16-1]
	_ = pa[(k-1)*6+rows-1]
	if cols == 16 {
		_ = c[(rows-1)*ldc+15]
		tileDirectPack256(rows, k, &a[0], lda, &b[0], &c[0], ldc, 1, beta, tileBias(bias, rows, 16, flags), flags, &pa[0])
		return
	}
	var acc [6 * 16]float32
	tileDirectPack256(rows, k, &a[0], lda, &b[0], &acc[0], 16, 1, 0, nil, 0, &pa[0])
	storeTile(acc[:], 16, rows, cols, c, ldc, beta, bias, flags)
}

// tileDirectNarrowAVX512 runs the AVX-512 kernel for up to 28 rows and
// 16 columns that reads A in place; see gemmKernel.directNarrow. A 14×32
// tile of at most 16 columns spends half its FMAs on columns it drops:
// 256×512×10 with B packed, 1 worker, AMD EPYC Zen 5, 40.7 → 30.1 µs.
func tileDirectNarrowAVX512(rows, cols, k int, a []float32, lda int, b, c []float32, ldc int, alpha, beta float32, bias []float32, flags int) {
	_ = a[(rows-1)*lda+k-1]
	_ = b[k*32-1]
	_ = c[(rows-1)*ldc+cols-1]
	tileDirectNarrow512(rows, k, &a[0], lda, &b[0], &c[0], ldc, alpha, beta, tileBias(bias, rows, cols, flags), flags, uint32(1)<<cols-1)
}

// tileDirectNarrowAVX2 runs the AVX2 micro-kernel for up to 12 rows and 8
// columns that reads A in place, through a scratch tile like
// tileDirectAVX2's partial tiles; see gemmKernel.directNarrow.
func tileDirectNarrowAVX2(rows, cols, k int, a []float32, lda int, b, c []float32, ldc int, alpha, beta float32, bias []float32, flags int) {
	_ = a[(rows-1)*lda+k-1]
	_ = b[k*16-1]
	var acc [12 * 8]float32
	tileDirectNarrow256(rows, k, &a[0], lda, &b[0], &acc[0], 8, alpha)
	storeTile(acc[:], 8, rows, cols, c, ldc, beta, bias, flags)
}

// tileDirectPackBAVX2 runs the AVX2 micro-kernel that reads A and B in
// place and packs B; see gemmKernel.directPackB.
func tileDirectPackBAVX2(rows, k int, a []float32, lda int, b []float32, ldb int, pb, c []float32, ldc int, alpha, beta float32, bias []float32, flags int) {
	_ = a[(rows-1)*lda+k-1]
	_ = b[(k-1)*ldb+15]
	_ = pb[k*16-1]
	_ = c[(rows-1)*ldc+15]
	tileDirectPackB256(rows, k, &a[0], lda, &b[0], ldb, &pb[0], &c[0], ldc, alpha, beta, tileBias(bias, rows, 16, flags), flags)
}

// tileDirectPackBAVX512 runs the AVX-512 micro-kernel that reads A and B
// in place and packs B; see gemmKernel.directPackB.
func tileDirectPackBAVX512(rows, k int, a []float32, lda int, b []float32, ldb int, pb, c []float32, ldc int, alpha, beta float32, bias []float32, flags int) {
	_ = a[(rows-1)*lda+k-1]
	_ = b[(k-1)*ldb+31]
	_ = pb[k*32-1]
	_ = c[(rows-1)*ldc+31]
	tileDirectPackB512(rows, k, &a[0], lda, &b[0], ldb, &pb[0], &c[0], ldc, alpha, beta, tileBias(bias, rows, 32, flags), flags, 1<<32-1)
}

// tileBias returns the bias a tile of rows×cols reads: its columns'
// (flagBias) or its rows' (flagRowBias), checked to be there, or nil.
func tileBias(bias []float32, rows, cols, flags int) *float32 {
	switch {
	case flags&flagBias != 0:
		_ = bias[cols-1]
		return &bias[0]
	case flags&flagRowBias != 0:
		_ = bias[rows-1]
		return &bias[0]
	}
	return nil
}

// packTranspose sets dst[q*dstStride+i] = alpha·src[i*ld+q] for i < rows
// and q < cols: in 16×16 AVX-512 blocks, or 8×8 AVX2 blocks with the edges
// in Go, on the vector tiers.
func packTranspose(dst []float32, dstStride int, src []float32, ld, rows, cols int, alpha float32) {
	if rows == 0 || cols == 0 {
		return
	}
	_ = src[(rows-1)*ld+cols-1]
	_ = dst[(cols-1)*dstStride+rows-1]
	switch {
	case hasAVX512:
		for i0 := 0; i0 < rows; i0 += 16 {
			r := min(16, rows-i0)
			for q0 := 0; q0 < cols; q0 += 16 {
				transpose16x16(&src[i0*ld+q0], ld, &dst[q0*dstStride+i0], dstStride, r, min(16, cols-q0), alpha)
			}
		}
	case hasAVX2FMA:
		// Blocks of 8 rows, then one of 6 (a panel of the AVX2 tile),
		// by 8 columns.
		r8, c8 := rows&^7, cols&^7
		if rows-r8 >= 6 {
			r8 += 6
		}
		for i0 := 0; i0 < r8; {
			blockRows := min(8, r8-i0) // 8, or 6 for the last block
			for q0 := 0; q0 < c8; q0 += 8 {
				transpose8AVX2(&src[i0*ld+q0], ld, &dst[q0*dstStride+i0], dstStride, blockRows, alpha)
			}
			i0 += blockRows
		}
		if c8 < cols { // the last cols%8 columns of every row
			packTransposeGo(dst[c8*dstStride:], dstStride, src[c8:], ld, rows, cols-c8, alpha)
		}
		if r8 < rows { // the last rows%8 rows, their first c8 columns
			packTransposeGo(dst[r8:], dstStride, src[r8*ld:], ld, rows-r8, c8, alpha)
		}
	default:
		packTransposeGo(dst, dstStride, src, ld, rows, cols, alpha)
	}
}

// packPanel16T packs a full 16-column panel of a transposed operand,
// dst[q*16+i] = src[i*ld+q] for i < 16 and q < k, in one assembly loop on
// the AVX2 tier (the last k%8 columns in Go). It reports false, packing
// nothing, on other tiers.
func packPanel16T(dst, src []float32, ld, k int) bool {
	if !hasAVX2FMA || k == 0 {
		return false
	}
	_ = src[15*ld+k-1]
	_ = dst[k*16-1]
	k8 := k &^ 7
	if k8 > 0 {
		transposePanel16AVX2(&src[0], ld, &dst[0], k8)
	}
	if k8 < k {
		packTransposeGo(dst[k8*16:], 16, src[k8:], ld, 16, k-k8, 1)
	}
	return true
}

// transposePanel16AVX2 sets dst[q*16+i] = src[i*ld+q] for i < 16 and
// q < k8, a positive multiple of 8 (AVX2).
//
//go:noescape
func transposePanel16AVX2(src *float32, ld int, dst *float32, k8 int)

// transpose8AVX2 sets dst[q*dstStride+i] = alpha·src[i*ld+q] for i < rows
// and q < 8, where rows is 6 or 8 (AVX2).
//
//go:noescape
func transpose8AVX2(src *float32, ld int, dst *float32, dstStride, rows int, alpha float32)

// gemvRow256 sets c[j] = alpha·Σp a[p]·b[p*ldb+j] (+beta·c[j], +bias[j],
// ReLU per flags) for j < cols ≤ 16 (AVX2).
//
//go:noescape
func gemvRow256(k int, a, b *float32, ldb int, c *float32, alpha, beta float32, bias *float32, flags int, cols int)

// dot4x256 sets dst[r] = Σp a[p]·b[r*ldb+p] for r = 0..3 (AVX2).
//
//go:noescape
func dot4x256(k int, a, b *float32, ldb int, dst *float32)
