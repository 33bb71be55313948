// This file holds the GEMM's sparse rows: where a block of A read in place
// is mostly zeros (the output of a ReLU feeding the next Linear), each of
// its rows is multiplied by B over its nonzero elements only.

package runtime

import "math"

// sparseKernel is a micro-kernel's path for blocks of A with many zeros:
// one row of A at a time against a group of packed panels of B, over the
// indices of the row's nonzero elements. Each element of C is the chain
// of FMAs the tiles compute but for the terms whose A element is zero,
// which add exactly nothing to it when B is finite (a sum that starts at
// +0 never becomes -0 by adding ±0), and the tiles' epilogue follows: the
// bits are the tiles'.
type sparseKernel struct {
	cols int // columns of B a row call computes: a whole number of panels
	// depth is the depth of the sub-blocks of a block that the rows go
	// through one after the other: the group's panels over that depth
	// (24 KB for AVX2's six panels of 16 columns, 64 deep) stay in L1
	// while each row reads them.
	depth int
	// minZeros is the share of zeros in a block of A from which its rows
	// take this path. A row's term reads cols floats of B for 2·cols
	// flops, where a tile reuses each load of B for mr rows: at about 50
	// bytes a cycle from L1 (Xeon SPR, either tier) the rows take about
	// 1.3 times the AVX2 tiles' time without zeros, and 1.9 times the
	// AVX-512 tiles', scan included (see sparseAVX2 and sparseAVX512).
	minZeros float64
	// scan stores, for each of rows rows of A (the first at a, lda
	// floats apart), the indices p < n of its elements not equal to 0
	// (NaN included) in increasing order from idx (idxStride a row; room
	// for n + 16) and their count at counts (countStride a row). The
	// vector tiers' scans then store a 0, the index their rows kernels
	// fetch ahead after the last one.
	scan func(a []float32, lda, rows, n int, idx []int32, idxStride int, counts []int32, countStride int)
	// rows sets, for each of rows rows of A (the first at a, lda floats
	// apart) and of acc (cols floats apart), acc[j], j < cols, to
	// Σ a[p]·B(p, j) over the row's indices p from scan (all < n), from
	// acc (flags&sparseAccIn) or from 0, B's panels at b, pstride floats
	// apart; then stores the sums to acc (flags&sparseAccOut) or applies
	// the tiles' epilogue to them into the row of C (ldc floats apart;
	// beta, bias and flags as gemmKernel.tile's).
	rows func(a []float32, lda, rows, n int, b []float32, pstride int, acc []float32, idx []int32, idxStride int, counts []int32, countStride int, c []float32, ldc int, beta float32, bias []float32, flags int)
	// scanPairs and rowsPairs, when set, are scan and rows for pairs of
	// rows (pairs of them, the first pair's rows at a and a+lda, acc and
	// C likewise): one list of indices a pair, where either row's
	// element is not 0, so that each load of B serves both rows.
	scanPairs func(a []float32, lda, pairs, n int, idx []int32, idxStride int, counts []int32, countStride int)
	rowsPairs func(a []float32, lda, pairs, n int, b []float32, pstride int, acc []float32, idx []int32, idxStride int, counts []int32, countStride int, c []float32, ldc int, beta float32, bias []float32, flags int)
	// countZeros returns the number of elements of x equal to ±0.
	countZeros func(x []float32) int
	// finiteA, when set, keeps the tiles for a block of A holding ±Inf or
	// NaN: Go's compiler picks the operand order of an add, and when both
	// are NaN (a NaN or Inf·0 term on a NaN sum) the order picks the
	// NaN's bits, so a loop in Go gives the tiles' bits only where no
	// term is NaN, which finite A and B ensure (an overflow gives ±Inf,
	// and Inf - Inf the one default NaN whatever the order).
	finiteA bool
}

// Flags of sparseKernel.rows beside the tiles' (flagBeta, flagBias,
// flagReLU).
const (
	sparseAccIn  = 1 << 8 // the sums continue from acc
	sparseAccOut = 1 << 9 // the sums are stored to acc, without epilogue
)

// sparseSample is the stride of the rows whose zeros decide whether a
// block takes the sparse path.
const sparseSample = 8

// sparseReady reports whether g may take the sparse path at all (which
// reads A in place): A not scaled or transposed, against B packed beforehand whose
// elements are all finite (0·±Inf and 0·NaN are NaN, which skipping the
// zero would lose), with no per-row bias.
func (g *gemmCall) sparseReady() bool {
	return g.kern.sparse != nil && !g.transA && g.alpha == 1 && g.pb != nil &&
		g.pb.finite && g.pb.kblock == 0 && g.patches == nil && g.rowBias == nil
}

// mostlyZeros reports whether rows [i0, i1) of A over depths [p0, p0+kb)
// hold at least the sparse kernel's minZeros of zeros, counted in every
// sparseSample-th row: the result is the same either way, and a dense A
// (a layer norm's or a GELU's output) pays an eighth of a full count (a
// count of every row was 0.7 % of the transformer's time at batch 8, AVX2
// tier).
func (g *gemmCall) mostlyZeros(i0, i1, p0, kb int) bool {
	sk := g.kern.sparse
	zeros, counted := 0, 0
	for i := i0; i < i1; i += sparseSample {
		zeros += sk.countZeros(g.a[i*g.lda+p0 : i*g.lda+p0+kb])
		counted += kb
	}
	return float64(zeros) >= math.Ceil(sk.minZeros*float64(counted))
}

// sparseRows computes, when rows [ic, ic+mb) of A over depths
// [pc, pc+kb) hold at least the kernel's minZeros of zeros (counted in
// every sparseSample-th row), the whole groups of
// panels of the block's columns [jc, jc+nb) of C (bblk the block's
// panels, pstride floats apart) with the sparse row kernel, and returns
// how many columns it computed (0 when it left the block to the tiles).
func (g *gemmCall) sparseRows(buf *gemmBuf, bblk []float32, pstride, ic, mb, jc, nb, pc, kb int, beta float32, flags int) int {
	sk := g.kern.sparse
	groups := nb / sk.cols
	if groups == 0 {
		return 0
	}
	if !g.mostlyZeros(ic, ic+mb, pc, kb) {
		return 0
	}
	if sk.finiteA {
		for i := ic; i < ic+mb; i++ {
			if !allFinite(g.a[i*g.lda+pc : i*g.lda+pc+kb]) {
				return 0
			}
		}
	}
	// The indices of each row's nonzero elements, scanned once for all
	// the groups: sub-block s of row i in its slot of depth + 16.
	subs := (kb + sk.depth - 1) / sk.depth
	slot := sk.depth + 16
	buf.acc = gemmGrow(buf.acc, mb*sk.cols)
	if n := mb * subs * slot; cap(buf.idx) < n {
		buf.idx = make([]int32, n)
	}
	if n := mb * subs; cap(buf.counts) < n {
		buf.counts = make([]int32, n)
	}
	idx, counts := buf.idx[:mb*subs*slot], buf.counts[:mb*subs]
	// The pairs' lists first (one a pair), then the single rows'.
	pairs := 0
	if sk.rowsPairs != nil {
		pairs = mb / 2
	}
	one := ic + 2*pairs // the first single row
	oneIdx, oneCounts := idx[pairs*subs*slot:], counts[pairs*subs:]
	for s := range subs {
		p0 := s * sk.depth
		n := min(sk.depth, kb-p0)
		if pairs > 0 {
			sk.scanPairs(g.a[ic*g.lda+pc+p0:], g.lda, pairs, n, idx[s*slot:], subs*slot, counts[s:], subs)
		}
		if one < ic+mb {
			sk.scan(g.a[one*g.lda+pc+p0:], g.lda, ic+mb-one, n, oneIdx[s*slot:], subs*slot, oneCounts[s:], subs)
		}
	}
	nr := g.kern.nr
	for q := range groups {
		jr := q * sk.cols
		bp := bblk[jr/nr*pstride:]
		var bias []float32
		if flags&flagBias != 0 {
			bias = g.bias[jc+jr:]
		}
		for s := range subs {
			p0 := s * sk.depth
			n := min(sk.depth, kb-p0)
			f := flags
			if p0+n < kb {
				f = sparseAccOut
			}
			if p0 > 0 {
				f |= sparseAccIn
			}
			if pairs > 0 {
				sk.rowsPairs(g.a[ic*g.lda+pc+p0:], g.lda, pairs, n, bp[p0*nr:], pstride, buf.acc, idx[s*slot:], subs*slot, counts[s:], subs,
					g.c[ic*g.ldc+jc+jr:], g.ldc, beta, bias, f)
			}
			if one < ic+mb {
				sk.rows(g.a[one*g.lda+pc+p0:], g.lda, ic+mb-one, n, bp[p0*nr:], pstride, buf.acc[2*pairs*sk.cols:], oneIdx[s*slot:], subs*slot, oneCounts[s:], subs,
					g.c[one*g.ldc+jc+jr:], g.ldc, beta, bias, f)
			}
		}
	}
	return groups * sk.cols
}

// allFinite reports whether no element of x is ±Inf or NaN (an exponent
// field of all ones).
func allFinite(x []float32) bool {
	for _, v := range x {
		if math.Float32bits(v)&0x7f800000 == 0x7f800000 {
			return false
		}
	}
	return true
}
