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
var sparseAVX2 = &sparseKernel{cols: 96, depth: 64, minZeros: 0.35,
	scan: sparseScanAVX2, rows: sparseRowsAVX2, countZeros: countZerosAVX2}

// sparseAVX512 is the AVX-512 kernel's sparse rows: eight panels (256
// columns) a row call, 32 deep (32 KB of B). 256×512×512 as for
// sparseAVX2: the tiles 0.77 ms, the sparse rows 1.45 ms without zeros,
// 0.84 with half, 0.31 with 90 % and 0.19 with all: even from about
// 55 %.
var sparseAVX512 = &sparseKernel{cols: 256, depth: 32, minZeros: 0.6,
	scan: sparseScanAVX512, rows: sparseRowsAVX512, countZeros: countZerosAVX2}

// checkSparseScan checks the operands of a scan of rows rows of n
// elements whose vectors hold lanes floats.
func checkSparseScan(a []float32, lda, rows, n int, idx []int32, idxStride int, counts []int32, countStride, lanes int) {
	_, _, _ = a[(rows-1)*lda+n-1], idx[(rows-1)*idxStride+n+lanes-1], counts[(rows-1)*countStride]
}

// checkSparseRows checks the operands of a rows call over cols columns of
// panels nr wide, n deep (the counts, at most n, are the scan's).
func checkSparseRows(a []float32, lda, rows, n int, b []float32, pstride int, acc []float32, idx []int32, idxStride int, counts []int32, countStride int, c []float32, ldc int, bias []float32, flags, cols, nr int) {
	_, _, _, _, _ = a[(rows-1)*lda+n-1], b[(cols/nr-1)*pstride+n*nr-1], acc[rows*cols-1], idx[(rows-1)*idxStride+n-1], counts[(rows-1)*countStride]
	if flags&sparseAccOut == 0 {
		_ = c[(rows-1)*ldc+cols-1]
		if flags&flagBias != 0 {
			_ = bias[cols-1]
		}
	}
}

// sparseScanAVX2 runs sparseScan256; see sparseKernel.scan.
func sparseScanAVX2(a []float32, lda, rows, n int, idx []int32, idxStride int, counts []int32, countStride int) {
	if rows <= 0 || n <= 0 {
		return
	}
	checkSparseScan(a, lda, rows, n, idx, idxStride, counts, countStride, 8)
	sparseScan256(&a[0], lda, rows, n, &idx[0], idxStride, &counts[0], countStride)
}

// sparseScanAVX512 runs sparseScan512; see sparseKernel.scan.
func sparseScanAVX512(a []float32, lda, rows, n int, idx []int32, idxStride int, counts []int32, countStride int) {
	if rows <= 0 || n <= 0 {
		return
	}
	checkSparseScan(a, lda, rows, n, idx, idxStride, counts, countStride, 16)
	sparseScan512(&a[0], lda, rows, n, &idx[0], idxStride, &counts[0], countStride)
}

// sparseRowsAVX2 runs sparseRows256; see sparseKernel.rows.
func sparseRowsAVX2(a []float32, lda, rows, n int, b []float32, pstride int, acc []float32, idx []int32, idxStride int, counts []int32, countStride int, c []float32, ldc int, beta float32, bias []float32, flags int) {
	if rows <= 0 || n <= 0 {
		return
	}
	checkSparseRows(a, lda, rows, n, b, pstride, acc, idx, idxStride, counts, countStride, c, ldc, bias, flags, 96, 16)
	cp, bp := sparseEpilogue(c, bias, flags)
	sparseRows256(&a[0], lda, rows, &b[0], pstride, &acc[0], &idx[0], idxStride, &counts[0], countStride, cp, ldc, beta, bp, flags)
}

// sparseRowsAVX512 runs sparseRows512; see sparseKernel.rows.
func sparseRowsAVX512(a []float32, lda, rows, n int, b []float32, pstride int, acc []float32, idx []int32, idxStride int, counts []int32, countStride int, c []float32, ldc int, beta float32, bias []float32, flags int) {
	if rows <= 0 || n <= 0 {
		return
	}
	checkSparseRows(a, lda, rows, n, b, pstride, acc, idx, idxStride, counts, countStride, c, ldc, bias, flags, 256, 32)
	cp, bp := sparseEpilogue(c, bias, flags)
	sparseRows512(&a[0], lda, rows, &b[0], pstride, &acc[0], &idx[0], idxStride, &counts[0], countStride, cp, ldc, beta, bp, flags)
}

// sparseEpilogue returns the pointers to C and the bias a rows kernel
// reads, nil where its flags do not read them.
func sparseEpilogue(c, bias []float32, flags int) (cp, bp *float32) {
	if flags&sparseAccOut == 0 {
		cp = &c[0]
		if flags&flagBias != 0 {
			bp = &bias[0]
		}
	}
	return cp, bp
}

// countZerosAVX2 runs countZeros256; see sparseKernel.countZeros.
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

// countZeros256 returns the number of elements of x[:n] equal to ±0.
//
//go:noescape
func countZeros256(x *float32, n int) int

// gemvSparseAVX2 and gemvSparseAVX512 run gemvSparse256 and
// gemvSparse512; see gemvKernel.sparse.
func gemvSparseAVX2(x []float32, l *gemvLists, b, c []float32, alpha, beta float32, bias []float32, flags int) {
	checkGemvSparse(x, l, b, c, bias, flags, 16)
	gemvSparse256(&x[0], &l.idx[0], l.stride, l.n[0], l.n[1], l.n[2], l.n[3], &b[0], &c[0], alpha, beta, biasPtr(bias, flags), flags)
}

func gemvSparseAVX512(x []float32, l *gemvLists, b, c []float32, alpha, beta float32, bias []float32, flags int) {
	checkGemvSparse(x, l, b, c, bias, flags, 32)
	gemvSparse512(&x[0], &l.idx[0], l.stride, l.n[0], l.n[1], l.n[2], l.n[3], &b[0], &c[0], alpha, beta, biasPtr(bias, flags), flags)
}

// checkGemvSparse checks the operands of a sparse m = 1 panel of nr
// columns: the lists' indices are below len(x) (see gemvLists).
func checkGemvSparse(x []float32, l *gemvLists, b, c, bias []float32, flags, nr int) {
	k := len(x)
	_, _, _ = b[k*nr-1], c[nr-1], l.idx[3*l.stride]
	for r, n := range l.n {
		if n < 0 || n > l.stride || r*l.stride+n > len(l.idx) {
			panic("runtime: gemvSparse: a chain's list out of range")
		}
	}
	if flags&flagBias != 0 {
		_ = bias[nr-1]
	}
}

// biasPtr returns the bias a kernel reads, nil when flags do not add one.
func biasPtr(bias []float32, flags int) *float32 {
	if flags&flagBias == 0 {
		return nil
	}
	return &bias[0]
}

// gemvSparse256 and gemvSparse512 are the sparse m = 1 panels' kernels.
//
//go:noescape
func gemvSparse256(x *float32, idx *int32, stride, n0, n1, n2, n3 int, b, c *float32, alpha, beta float32, bias *float32, flags int)

//go:noescape
func gemvSparse512(x *float32, idx *int32, stride, n0, n1, n2, n3 int, b, c *float32, alpha, beta float32, bias *float32, flags int)
