// The AVX2 and AVX-512 kernels of the GEMM's sparse rows.

//go:build amd64 && !noasm

package runtime

// sparseAVX2 is the AVX2 kernel's sparse rows: six panels (96 columns) a
// row call, 64 deep (24 KB of B). 256×512×512 with B packed, 1 worker,
// Xeon SPR: the tiles 1.19 ms whatever A holds, the sparse rows 1.59 ms
// without zeros, 0.98 with half, 0.42 with 90 % and 0.23 with all (most
// of it the last 32 columns, which the tiles compute): even from about
// 30 % of zeros.
var sparseAVX2 = &sparseKernel{cols: 96, depth: 64, minZeros: 0.35, rows: sparseRowsAVX2, countZeros: countZerosAVX2}

// sparseAVX512 is the AVX-512 kernel's sparse rows: eight panels (256
// columns) a row call, 32 deep (32 KB of B). 256×512×512 as for
// sparseAVX2: the tiles 0.81 ms, the sparse rows 1.55 ms without zeros,
// 0.84 with half, 0.30 with 90 % and 0.17 with all: even from about
// 55 %.
var sparseAVX512 = &sparseKernel{cols: 256, depth: 32, minZeros: 0.6, rows: sparseRowsAVX512, countZeros: countZerosAVX2}

// sparseRowsAVX512 runs sparseRows512 after checking its operands'
// lengths; see sparseKernel.rows.
func sparseRowsAVX512(a []float32, lda, rows, n int, b []float32, pstride int, acc []float32, idx []int32, c []float32, ldc int, beta float32, bias []float32, flags int) {
	const cols, nr = 256, 32
	if rows <= 0 {
		return
	}
	_, _, _, _ = a[(rows-1)*lda+n-1], b[(cols/nr-1)*pstride+n*nr-1], acc[rows*cols-1], idx[n+15]
	var cp, bp *float32
	if flags&sparseAccOut == 0 {
		_ = c[(rows-1)*ldc+cols-1]
		cp = &c[0]
		if flags&flagBias != 0 {
			_ = bias[cols-1]
			bp = &bias[0]
		}
	}
	sparseRows512(&a[0], lda, rows, n, &b[0], pstride, &acc[0], &idx[0], cp, ldc, beta, bp, flags)
}

// sparseRowsAVX2 runs sparseRows256 after checking its operands' lengths;
// see sparseKernel.rows.
func sparseRowsAVX2(a []float32, lda, rows, n int, b []float32, pstride int, acc []float32, idx []int32, c []float32, ldc int, beta float32, bias []float32, flags int) {
	const cols, nr = 96, 16
	if rows <= 0 {
		return
	}
	_, _, _, _ = a[(rows-1)*lda+n-1], b[(cols/nr-1)*pstride+n*nr-1], acc[rows*cols-1], idx[n+7]
	var cp, bp *float32
	if flags&sparseAccOut == 0 {
		_ = c[(rows-1)*ldc+cols-1]
		cp = &c[0]
		if flags&flagBias != 0 {
			_ = bias[cols-1]
			bp = &bias[0]
		}
	}
	sparseRows256(&a[0], lda, rows, n, &b[0], pstride, &acc[0], &idx[0], cp, ldc, beta, bp, flags)
}

// countZerosAVX2 runs countZeros256; see sparseKernel.countZeros.
func countZerosAVX2(x []float32) int {
	if len(x) == 0 {
		return 0
	}
	return countZeros256(&x[0], len(x))
}

// sparseRows256 is sparseRowsAVX2's kernel (gemm_sparse_avx2_amd64.s).
//
//go:noescape
func sparseRows256(a *float32, lda, rows, n int, b *float32, pstride int, acc *float32, idx *int32, c *float32, ldc int, beta float32, bias *float32, flags int)

// countZeros256 returns the number of elements of x[:n] equal to ±0.
//
//go:noescape
func countZeros256(x *float32, n int) int

// sparseRows512 is sparseRowsAVX512's kernel
// (gemm_sparse_avx512_amd64.s).
//
//go:noescape
func sparseRows512(a *float32, lda, rows, n int, b *float32, pstride int, acc *float32, idx *int32, c *float32, ldc int, beta float32, bias *float32, flags int)
