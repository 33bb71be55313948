// Packing of GEMM operands into micro-kernel panels.

package runtime

// packA packs rows [i0, i0+mb) and columns [p0, p0+kb) of op(A), scaled by
// alpha, into dst as ⌈mb/mr⌉ panels of kb×mr floats. Element (i, p) of the
// block lands in panel i/mr at offset p*mr + i%mr; rows past mb are zero.
// op(A)[i][p] is a[i*lda+p], or a[p*lda+i] when transA.
func packA(dst []float32, transA bool, a []float32, lda, i0, mb, p0, kb int, alpha float32, mr int) {
	np := (mb + mr - 1) / mr
	if transA {
		// Rows of the stored A are columns of op(A): read each row once,
		// left to right, and deal it out to the panels.
		for p := 0; p < kb; p++ {
			src := a[(p0+p)*lda+i0:][:mb]
			for r := 0; r < np; r++ {
				rows := min(mr, mb-r*mr)
				d := dst[r*kb*mr+p*mr:][:mr]
				s := src[r*mr : r*mr+rows]
				if alpha == 1 {
					copy(d, s)
				} else {
					for i, v := range s {
						d[i] = alpha * v
					}
				}
				clear(d[rows:])
			}
		}
		return
	}
	for r := 0; r < np; r++ {
		rows := min(mr, mb-r*mr)
		panel := dst[r*kb*mr : (r+1)*kb*mr]
		packTranspose(panel, mr, a[(i0+r*mr)*lda+p0:], lda, rows, kb, alpha)
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
	np := (nb + nr - 1) / nr
	if !transB && nr == 32 && hasPackRows32 {
		_ = b[(p0+kb-1)*ldb+j0+nb-1]
		_ = dst[np*kb*nr-1]
		packRows32(&dst[0], &b[p0*ldb+j0], ldb, kb, nb/nr, nb%nr)
		return
	}
	if !transB && nr == 16 && hasPackRows16 {
		// Xeon SPR, avx2, 1 worker: a 1×1 convolution of 144→24
		// channels at 56², batch 8, spent 41 % of its time packing the
		// image here a 64-byte copy at a time.
		_ = b[(p0+kb-1)*ldb+j0+nb-1]
		_ = dst[np*kb*nr-1]
		packRows16(&dst[0], &b[p0*ldb+j0], ldb, kb, nb/nr, nb%nr)
		return
	}
	if !transB {
		// Read each row of B once, left to right (strided walks down the
		// columns defeat the prefetchers and the TLB), and deal it out.
		for p := 0; p < kb; p++ {
			src := b[(p0+p)*ldb+j0:][:nb]
			full := nb / nr
			switch nr {
			case 32:
				for r := 0; r < full; r++ {
					*(*[32]float32)(dst[r*kb*nr+p*nr:]) = *(*[32]float32)(src[r*nr:])
				}
			case 16:
				for r := 0; r < full; r++ {
					*(*[16]float32)(dst[r*kb*nr+p*nr:]) = *(*[16]float32)(src[r*nr:])
				}
			default:
				for r := 0; r < full; r++ {
					copy(dst[r*kb*nr+p*nr:][:nr], src[r*nr:])
				}
			}
			if full < np {
				d := dst[full*kb*nr+p*nr:][:nr]
				n := copy(d, src[full*nr:])
				clear(d[n:])
			}
		}
		return
	}
	for r := 0; r < np; r++ {
		cols := min(nr, nb-r*nr)
		panel := dst[r*kb*nr : (r+1)*kb*nr]
		if cols == 16 && nr == 16 && packPanel16T(panel, b[(j0+r*nr)*ldb+p0:], ldb, kb) {
			continue
		}
		packTranspose(panel, nr, b[(j0+r*nr)*ldb+p0:], ldb, cols, kb, 1)
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
