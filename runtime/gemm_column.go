// This file holds the products of one column: C = A·B with B k×1 (a
// linear layer with one output, a recommendation model's score), which
// the tiles would compute with all but one of their 32 (AVX-512) or 16
// (AVX2) columns' FMAs wasted.

package runtime

// columnMinRows is the fewest rows of A from which a product of one
// column takes the dot products (columnFast): fewer go through the tiles
// (m = 1 through the GEMV kernels).
const columnMinRows = 4

// columnJob is one product of one column split by blocks of
// columnBlockRows rows.
type columnJob struct {
	g gemmCall
	w []float32 // B's column, contiguous
}

// columnBlockRows is the rows of A a worker's task takes at least, a
// multiple of 8 so that every row goes through the same dot kernel
// whatever the split (dot8 gives dot4's bits anyway).
const columnBlockRows = 64

var columnTasks = taskPool(func(j *columnJob, lo, hi int) {
	j.g.columnRows(j.w, lo*columnBlockRows, min(hi*columnBlockRows, j.g.m))
})

// columnFast computes, when B has one column, A is read in place and has
// at least columnMinRows rows, each element of C as the dot product of
// its row of A with that column: the m = 1 product's dot kernels (gemvKernel.dot8
// and dot4) with the roles of A and B swapped, eight or four rows a call,
// then the epilogue (alpha, beta, bias and ReLU; other activations and
// per-row biases go through the tiles). Each row is summed as dot4 sums a
// column, so its bits do not depend on the split over workers. It reports
// whether it computed C. DLRM's last layer (2048×256 by one column,
// BenchmarkColumnProduct), 1 worker, AMD EPYC Zen 5: 101 → 31.6 µs on the
// AVX-512 tier, 99.6 → 29.9 µs on the AVX2 tier (the 2 MB of A from L3).
func columnFast(g *gemmCall) bool {
	gv := g.kern.gemv
	if g.n != 1 || g.m < columnMinRows || gv == nil || gv.dot4 == nil || g.transA ||
		g.patches != nil || g.rowBias != nil || postAct(g.act) {
		return false
	}
	buf := getGemmBuf()
	defer putGemmBuf(buf)
	w := g.column(buf)
	blocks := (g.m + columnBlockRows - 1) / columnBlockRows
	if workers := Workers(); workers > 1 && !g.serial && blocks >= 2 && 2*float64(g.m)*float64(g.k) >= float64(parallelMinFlops) {
		runPooled(columnTasks, blocks, columnJob{g: *g, w: w})
	} else {
		g.columnRows(w, 0, g.m)
	}
	return true
}

// column returns B's one column as k contiguous floats: in place when B
// is stored transposed (a weight row), else copied to buf.
func (g *gemmCall) column(buf *gemmBuf) []float32 {
	k := g.k
	if g.pb == nil && g.transB {
		return g.b[:k]
	}
	buf.a = gemmGrow(buf.a, k)
	w := buf.a[:k]
	for p := range w {
		if g.pb != nil {
			// One panel: element (p, 0) at p·nr, in blocks of k or not.
			w[p] = g.pb.data[p*g.kern.nr]
		} else {
			w[p] = g.b[p*g.ldb]
		}
	}
	return w
}

// columnRows computes rows [i0, i1) of a product of one column w.
func (g *gemmCall) columnRows(w []float32, i0, i1 int) {
	g.dotSums(w, g.a, g.lda, i0, i1, g.ldc, 0)
}
