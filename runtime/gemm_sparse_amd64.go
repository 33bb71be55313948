// The AVX2 and AVX-512 kernels of the GEMM's sparse rows.

//go:build amd64 && !noasm

//go:generate go run gemm_sparse_asmgen.go

package runtime

// sparseAVX2 is the AVX2 kernel's sparse rows: six panels (96 columns) a
// row call, 64 deep (24 KB of B). 256×512×512 with B packed, 1 worker,
// Xeon SPR: the tiles 1.20 ms whatever A holds, the sparse rows 1.53 ms
// without zeros, 0.90 with half, 0.36 with 90 % and 0.17 with all (most
// of it the last 32 columns, which the tiles compute): even from about
// 25 % of zeros.
var sparseAVX2 = &sparseKernel{cols: sparseTier{}.cols(), depth: 64, minZeros: 0.35,
	scan: sparseTier{}.scan, rows: sparseTier{}.rows, countZeros: countZerosAVX2}

// sparseAVX512 is the AVX-512 kernel's sparse rows: four panels (128
// columns, 8 accumulators a row) a call, 64 deep (32 KB of B), rows in
// pairs over the indices where either row is nonzero (16 accumulators;
// each load of B feeds two FMAs, where one row alone was bound by the
// loads), the last row of an odd block alone. 256×512×512 with B
// packed, 1 worker, AMD EPYC Zen 5: the tiles 0.64–0.65 ms whatever A
// holds; the pairs 0.65 with 30 % zeros, 0.62 with 40 %, 0.56 with half,
// 0.49 with 60 % and 0.40 with 70 %, where rows alone took 0.81, 0.72,
// 0.61, 0.50 and 0.41; depths 32, 48, 96 and 128 slower than 64 (96
// deep, the 64 KB apart panels' lines outgrow the ways of L1's sets).
// Hence from 40 % (was 60 %), 1 worker, interleaved rounds: the MLP at
// batch 256, whose second layer's input is just under half zeros, −4.7 %;
// ResNet-18, whose convolutions' inputs are 43–51 % zeros, −5 % at batch
// 1 (13 of 14 rounds faster) and −10 % at batch 8 (14 of 14); ResNet-20
// −2 % at batch 1; DLRM n.s.
var sparseAVX512 = &sparseKernel{cols: sparseTier{wide: true}.cols(), depth: 64, minZeros: 0.4,
	scan: sparseTier{wide: true}.scan, rows: sparseTier{wide: true}.rows, countZeros: countZerosAVX2,
	scanPairs: scanPairs512, rowsPairs: rowsPairs512}

// sparseTier runs the sparse kernels of the AVX2 tier or (wide) of the
// AVX-512 one after checking their operands: the methods are the
// sparseKernel and gemvKernel functions of both.
type sparseTier struct{ wide bool }

// lanes returns the floats of a vector, nr the columns of a panel and
// cols those of a rows call.
func (t sparseTier) lanes() int {
	if t.wide {
		return 16
	}
	return 8
}

func (t sparseTier) nr() int { return 2 * t.lanes() }

func (t sparseTier) cols() int {
	if t.wide {
		return 4 * t.nr()
	}
	return 6 * t.nr()
}

// scan is sparseKernel.scan.
func (t sparseTier) scan(a []float32, lda, rows, n int, idx []int32, idxStride int, counts []int32, countStride int) {
	if rows <= 0 || n <= 0 {
		return
	}
	_, _, _ = a[(rows-1)*lda+n-1], idx[(rows-1)*idxStride+n+t.lanes()-1], counts[(rows-1)*countStride]
	if t.wide {
		sparseScan512(&a[0], lda, rows, n, &idx[0], idxStride, &counts[0], countStride)
	} else {
		sparseScan256(&a[0], lda, rows, n, &idx[0], idxStride, &counts[0], countStride)
	}
}

// rows is sparseKernel.rows; the counts, at most n, are scan's.
func (t sparseTier) rows(a []float32, lda, rows, n int, b []float32, pstride int, acc []float32, idx []int32, idxStride int, counts []int32, countStride int, c []float32, ldc int, beta float32, bias []float32, flags int) {
	if rows <= 0 || n <= 0 {
		return
	}
	nr, cols := t.nr(), t.cols()
	_, _, _, _, _ = a[(rows-1)*lda+n-1], b[(cols/nr-1)*pstride+n*nr-1], acc[rows*cols-1], idx[(rows-1)*idxStride+n-1], counts[(rows-1)*countStride]
	var cp *float32
	if flags&sparseAccOut == 0 {
		_ = c[(rows-1)*ldc+cols-1]
		cp = &c[0]
	}
	bp := tileBias(bias, rows, cols, flags)
	if t.wide {
		sparseRows512(&a[0], lda, rows, &b[0], pstride, &acc[0], &idx[0], idxStride, &counts[0], countStride, cp, ldc, beta, bp, flags)
	} else {
		sparseRows256(&a[0], lda, rows, &b[0], pstride, &acc[0], &idx[0], idxStride, &counts[0], countStride, cp, ldc, beta, bp, flags)
	}
}

// scanPairs512 is sparseKernel.scanPairs of the AVX-512 tier.
func scanPairs512(a []float32, lda, pairs, n int, idx []int32, idxStride int, counts []int32, countStride int) {
	if pairs <= 0 || n <= 0 {
		return
	}
	_, _, _ = a[(2*pairs-1)*lda+n-1], idx[(pairs-1)*idxStride+n+15], counts[(pairs-1)*countStride]
	sparseScanPairs512(&a[0], lda, pairs, n, &idx[0], idxStride, &counts[0], countStride)
}

// rowsPairs512 is sparseKernel.rowsPairs of the AVX-512 tier; the
// counts, at most n, are scanPairs512's.
func rowsPairs512(a []float32, lda, pairs, n int, b []float32, pstride int, acc []float32, idx []int32, idxStride int, counts []int32, countStride int, c []float32, ldc int, beta float32, bias []float32, flags int) {
	if pairs <= 0 || n <= 0 {
		return
	}
	t := sparseTier{wide: true}
	nr, cols := t.nr(), t.cols()
	_, _, _, _, _ = a[(2*pairs-1)*lda+n-1], b[(cols/nr-1)*pstride+n*nr-1], acc[2*pairs*cols-1], idx[(pairs-1)*idxStride+n-1], counts[(pairs-1)*countStride]
	var cp *float32
	if flags&sparseAccOut == 0 {
		_ = c[(2*pairs-1)*ldc+cols-1]
		cp = &c[0]
	}
	bp := tileBias(bias, 2*pairs, cols, flags)
	sparsePairs512(&a[0], lda, pairs, &b[0], pstride, &acc[0], &idx[0], idxStride, &counts[0], countStride, cp, ldc, beta, bp, flags)
}

// gemv is gemvKernel.sparse for one whole panel; the lists' indices are
// below len(x) and each list within its stride by construction (split).
func (t sparseTier) gemv(x []float32, l *gemvLists, b, c []float32, alpha, beta float32, bias []float32, flags int) {
	nr := t.nr()
	_, _ = b[len(x)*nr-1], c[nr-1]
	bp := tileBias(bias, 1, nr, flags)
	if t.wide {
		gemvSparse512(&x[0], &l.idx[0], l.stride, l.n[0], l.n[1], l.n[2], l.n[3], &b[0], &c[0], alpha, beta, bp, flags)
	} else {
		gemvSparse256(&x[0], &l.idx[0], l.stride, l.n[0], l.n[1], l.n[2], l.n[3], &b[0], &c[0], alpha, beta, bp, flags)
	}
}

// countZerosAVX2 runs countZeros256 (on either tier); see
// sparseKernel.countZeros.
func countZerosAVX2(x []float32) int {
	if len(x) == 0 {
		return 0
	}
	return countZeros256(&x[0], len(x))
}

// sparseScan256 and sparseScan512 are the scans' kernels
// (gemm_sparse_avx2_amd64.s, gemm_sparse_avx512_amd64.s).
//
//go:noescape
func sparseScan256(a *float32, lda, rows, n int, idx *int32, idxStride int, counts *int32, countStride int)

//go:noescape
func sparseScan512(a *float32, lda, rows, n int, idx *int32, idxStride int, counts *int32, countStride int)

// sparseRows256 and sparseRows512 are the rows kernels.
//
//go:noescape
func sparseRows256(a *float32, lda, rows int, b *float32, pstride int, acc *float32, idx *int32, idxStride int, counts *int32, countStride int, c *float32, ldc int, beta float32, bias *float32, flags int)

//go:noescape
func sparseRows512(a *float32, lda, rows int, b *float32, pstride int, acc *float32, idx *int32, idxStride int, counts *int32, countStride int, c *float32, ldc int, beta float32, bias *float32, flags int)

// sparseScanPairs512 and sparsePairs512 are the AVX-512 kernels for
// pairs of rows.
//
//go:noescape
func sparseScanPairs512(a *float32, lda, pairs, n int, idx *int32, idxStride int, counts *int32, countStride int)

//go:noescape
func sparsePairs512(a *float32, lda, pairs int, b *float32, pstride int, acc *float32, idx *int32, idxStride int, counts *int32, countStride int, c *float32, ldc int, beta float32, bias *float32, flags int)

// countZeros256 returns the number of elements of x[:n] equal to ±0.
//
//go:noescape
func countZeros256(x *float32, n int) int

// gemvSparse256 and gemvSparse512 are the sparse m = 1 panels' kernels.
//
//go:noescape
func gemvSparse256(x *float32, idx *int32, stride, n0, n1, n2, n3 int, b, c *float32, alpha, beta float32, bias *float32, flags int)

//go:noescape
func gemvSparse512(x *float32, idx *int32, stride, n0, n1, n2, n3 int, b, c *float32, alpha, beta float32, bias *float32, flags int)
