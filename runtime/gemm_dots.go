// This file holds the narrow products: C = A·B with B packed beforehand
// and only a few columns (a classifier's ten outputs), where the tiles
// spend most of their FMAs on columns they drop. Each element is instead
// the dot product of its row of A with its column of B, which PackB also
// stores as dot panels.

package runtime

// dotKernel is a tier's path for narrow products (see dotsFast).
type dotKernel struct {
	lanes   int // floats of a vector: the dot panels' width
	maxCols int // the most columns of B it takes (at least 2)
	// rows sets, for each of rows rows of A (the first at a, lda floats
	// apart) and of C (ldc floats apart), the row's n elements of C to
	// the tiles' epilogue (beta, bias and flags as gemmKernel.tile's, with
	// alpha 1) of the dot products of the row with B's columns, stored in
	// w as packDots stores them. Each sum's bits depend on its row and
	// column only.
	rows func(n, k int, a []float32, lda, rows int, w, c []float32, ldc int, beta float32, bias []float32, flags int)
}

// dotsMinK is the least depth from which PackB stores dot panels: the
// dot products pay a reduction of their lanes per row, which a product
// this shallow does not repay.
const dotsMinK = 64

// dotCols returns the columns of the dot panels of n columns: n rounded
// up to even.
func dotCols(n int) int { return (n + 1) &^ 1 }

// packDots returns the k×n matrix op(B) (see PackB) as dot panels for
// vectors of lanes floats: for each block of lanes rows of op(B), the
// block's column j at j·lanes, dotCols(n) columns, zeros past k and n.
func packDots(transB bool, b []float32, ldb, k, n, lanes int) []float32 {
	cols := dotCols(n)
	blocks := (k + lanes - 1) / lanes
	w := alignedFloats(blocks * cols * lanes)
	for p := range k {
		blk := w[p/lanes*cols*lanes+p%lanes:]
		for j := range n {
			if transB {
				blk[j*lanes] = b[j*ldb+p]
			} else {
				blk[j*lanes] = b[p*ldb+j]
			}
		}
	}
	return w
}

// dotsJob is one narrow product split by blocks of dotsBlockRows rows.
type dotsJob struct{ g gemmCall }

// dotsBlockRows is the rows a worker's task takes at least, even so that
// the AVX-512 kernel's pairs of rows stay whole.
const dotsBlockRows = 64

var dotsTasks = taskPool(func(j *dotsJob, lo, hi int) {
	j.g.dotRows(lo*dotsBlockRows, min(hi*dotsBlockRows, j.g.m))
})

// dotsFast computes, when B was packed with dot panels (a few columns,
// see PackB) and A is read in place with at least two rows, each element
// of C as the dot product of its row of A with its column of B, then the
// tiles' epilogue (beta, bias and ReLU; alpha 1; other activations and
// per-row biases go through the tiles). It reports whether it computed C.
// The classifier of the zoo's MLP at batch 256 (256×512 by 512×10), 1
// worker, AMD EPYC Zen 5: see gemm_dots_amd64.go.
func dotsFast(g *gemmCall) bool {
	if g.pb == nil || g.pb.dots == nil || g.m < 2 || g.transA || g.alpha != 1 ||
		g.patches != nil || g.rowBias != nil || postAct(g.act) {
		return false
	}
	blocks := (g.m + dotsBlockRows - 1) / dotsBlockRows
	if workers := Workers(); workers > 1 && !g.serial && blocks >= 2 && 2*float64(g.m)*float64(g.n)*float64(g.k) >= float64(parallelMinFlops) {
		runPooled(dotsTasks, blocks, dotsJob{g: *g})
	} else {
		g.dotRows(0, g.m)
	}
	return true
}

// dotRows computes rows [i0, i1) of a narrow product.
func (g *gemmCall) dotRows(i0, i1 int) {
	g.pb.kern.dots.rows(g.n, g.k, g.a[i0*g.lda:], g.lda, i1-i0, g.pb.dots, g.c[i0*g.ldc:], g.ldc, g.beta, g.bias, g.oneBlockFlags())
}
