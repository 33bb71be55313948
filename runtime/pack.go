// Packing of GEMM operands into micro-kernel panels.

package runtime

// packA packs rows [i0, i0+mb) and columns [p0, p0+kb) of op(A), scaled by
// alpha, into dst as ⌈mb/mr⌉ panels of kb×mr floats. Element (i, p) of the
// block lands in panel i/mr at offset p*mr + i%mr; rows past mb are zero.
// op(A)[i][p] is a[i*lda+p], or a[p*lda+i] when transA.
func packA(dst []float32, transA bool, a []float32, lda, i0, mb, p0, kb int, alpha float32, mr int) {
	for r := 0; r*mr < mb; r++ {
		rows := min(mr, mb-r*mr)
		panel := dst[r*kb*mr : (r+1)*kb*mr]
		row0 := i0 + r*mr
		if transA {
			for p := 0; p < kb; p++ {
				src := a[(p0+p)*lda+row0:][:rows]
				d := panel[p*mr : p*mr+mr]
				if alpha == 1 {
					copy(d, src)
				} else {
					for i, v := range src {
						d[i] = alpha * v
					}
				}
				clear(d[rows:])
			}
			continue
		}
		packTranspose(panel, mr, a[row0*lda+p0:], lda, rows, kb, alpha)
		if rows < mr {
			for p := 0; p < kb; p++ {
				clear(panel[p*mr+rows : p*mr+mr])
			}
		}
	}
}

// packB packs rows [p0, p0+kb) and columns [j0, j0+nb) of op(B) into dst as
// ⌈nb/nr⌉ panels of kb×nr floats. Element (p, j) of the block lands in panel
// j/nr at offset p*nr + j%nr; columns past nb are zero. op(B)[p][j] is
// b[p*ldb+j], or b[j*ldb+p] when transB.
func packB(dst []float32, transB bool, b []float32, ldb, p0, kb, j0, nb, nr int) {
	for r := 0; r*nr < nb; r++ {
		cols := min(nr, nb-r*nr)
		panel := dst[r*kb*nr : (r+1)*kb*nr]
		col0 := j0 + r*nr
		if !transB {
			for p := 0; p < kb; p++ {
				d := panel[p*nr : p*nr+nr]
				copy(d, b[(p0+p)*ldb+col0:][:cols])
				clear(d[cols:])
			}
			continue
		}
		packTranspose(panel, nr, b[col0*ldb+p0:], ldb, cols, kb, 1)
		if cols < nr {
			for p := 0; p < kb; p++ {
				clear(panel[p*nr+cols : p*nr+nr])
			}
		}
	}
}

// packTransposeGo sets dst[q*dstStride+i] = alpha·src[i*ld+q] for i < rows
// and q < cols; packTranspose is the same with assembly where available.
func packTransposeGo(dst []float32, dstStride int, src []float32, ld, rows, cols int, alpha float32) {
	for i := 0; i < rows; i++ {
		s := src[i*ld:][:cols]
		d := dst[i:]
		if alpha == 1 {
			for q, v := range s {
				d[q*dstStride] = v
			}
		} else {
			for q, v := range s {
				d[q*dstStride] = alpha * v
			}
		}
	}
}
