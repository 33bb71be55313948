// The portable tier's sparse rows: plain Go for every architecture
// without assembly (and the generic tier on amd64).

package runtime

// sparseGo is the portable kernel's sparse rows: two panels (8 columns) a
// row call, eight sums that stay in registers on amd64 as on arm64, for
// blocks of finite A (see sparseKernel.finiteA). 256×512×512 with B
// packed, 1 worker, Xeon SPR, generic tier: the 4×4 tiles 30 ms whatever
// A holds, the sparse rows 30 ms without zeros, 16 with half, 4.5 with
// 90 %.
var sparseGo = &sparseKernel{cols: 8, depth: 256, minZeros: 0.35, finiteA: true,
	scan: sparseScanGo, rows: sparseRowsGo, countZeros: countZerosGo}

// sparseScanGo is the portable sparseKernel.scan.
func sparseScanGo(a []float32, lda, rows, n int, idx []int32, idxStride int, counts []int32, countStride int) {
	for i := range rows {
		list := idx[i*idxStride : i*idxStride+n]
		m := 0
		for p, v := range a[i*lda : i*lda+n] {
			list[m] = int32(p)
			if v != 0 {
				m++
			}
		}
		counts[i*countStride] = int32(m)
	}
}

// sparseRowsGo is the portable sparseKernel.rows: each sum the chain
// tileGeneric computes but for the zeros' terms, then its epilogue
// (storeTile).
func sparseRowsGo(a []float32, lda, rows, n int, b []float32, pstride int, acc []float32, idx []int32, idxStride int, counts []int32, countStride int, c []float32, ldc int, beta float32, bias []float32, flags int) {
	for i := range rows {
		var s [8]float32
		sums := acc[i*8 : i*8+8 : i*8+8]
		if flags&sparseAccIn != 0 {
			s = [8]float32(sums)
		}
		s0, s1, s2, s3, s4, s5, s6, s7 := s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
		ar := a[i*lda : i*lda+n]
		for _, p := range idx[i*idxStride : i*idxStride+int(counts[i*countStride])] {
			av := ar[p]
			r0 := b[4*p : 4*p+4 : 4*p+4]
			r1 := b[pstride+4*int(p) : pstride+4*int(p)+4 : pstride+4*int(p)+4]
			s0 += av * r0[0]
			s1 += av * r0[1]
			s2 += av * r0[2]
			s3 += av * r0[3]
			s4 += av * r1[0]
			s5 += av * r1[1]
			s6 += av * r1[2]
			s7 += av * r1[3]
		}
		s = [8]float32{s0, s1, s2, s3, s4, s5, s6, s7}
		if flags&sparseAccOut != 0 {
			copy(sums, s[:])
			continue
		}
		storeTile(s[:], 8, 1, 8, c[i*ldc:], ldc, beta, bias, flags)
	}
}

// countZerosGo returns the number of elements of x equal to ±0.
func countZerosGo(x []float32) int {
	n := 0
	for _, v := range x {
		if v == 0 {
			n++
		}
	}
	return n
}
