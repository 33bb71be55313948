// The m == 1 product: a row of A times B without packing either, on the
// kernels' GEMV paths.

package runtime

// gemvFast computes an m == 1 product with the kernel's gemvKernel, reading
// B in place (or its packed panels) instead of packing it. It reports false
// when the kernel has no such path. Wide products split their columns over
// the workers in blocks of 32 (a multiple of every nr), so each column is
// computed the same way whatever the number of workers.
func gemvFast(g *gemmCall) bool {
	if g.m != 1 || g.kern.gemv == nil {
		return false
	}
	x := g.a[:g.k]
	if g.transA {
		buf := getGemmBuf()
		defer putGemmBuf(buf)
		buf.a = gemmGrow(buf.a, g.k)
		x = buf.a[:g.k]
		for p := range x {
			x[p] = g.a[p*g.lda]
		}
	}
	// A packed B whose elements are all finite is read only at the rows
	// of x's nonzero elements when they are few enough.
	var lists *gemvLists
	if gv := g.kern.gemv; g.pb != nil && g.pb.finite && gv.sparse != nil &&
		float64(gv.countZeros(x)) >= gv.sparseMinZeros*float64(g.k) {
		buf := getGemmBuf()
		defer putGemmBuf(buf)
		lists = &buf.lists
		buf.idx = lists.split(x, buf.idx)
	}
	// The work is the rows of B read: all k, or the nonzero elements'
	// (the sparse panels of a 90 %-zero row of 512 are 2.3 µs on one
	// worker and 4.3 split over two [SPR avx2]).
	rows := g.k
	if lists != nil {
		rows = lists.n[0] + lists.n[1] + lists.n[2] + lists.n[3]
	}
	blocks := (g.n + 31) / 32
	if w := Workers(); w > 1 && !g.serial && blocks >= 2*w && rows*g.n >= gemvParallelMin {
		runPooled(gemvTasks, blocks, gemvJob{g: *g, x: x, lists: lists})
	} else {
		gemvCols(g, x, lists, 0, g.n, gemvSweepBack(g))
	}
	if postAct(g.act) {
		actBlock(g.c[:g.n], g.act)
	}
	return true
}

// gemvParallelMin is the size of B (k·n floats) from which an m == 1
// product splits its columns over the workers: each worker then streams
// its share of B from its own cache (paired runs on 2 workers over 1, B
// packed: 784×512 2.4×, 512×512 1.7×, 512×256 1.6×, 4096×1024 2.0×).
const gemvParallelMin = 1 << 17

// gemvJob is one m == 1 product split by blocks of 32 columns.
type gemvJob struct {
	g     gemmCall
	x     []float32
	lists *gemvLists
}

var gemvTasks = taskPool(func(j *gemvJob, lo, hi int) { gemvCols(&j.g, j.x, j.lists, lo*32, min(hi*32, j.g.n), false) })

// gemvCols computes columns [j0, j1) of the m == 1 product of x and B
// (j0 a multiple of 32) with the kernel's gemvKernel, with the epilogue's
// beta, bias and ReLU; back walks B's panels (packed or not) from the
// last to the first. With lists (B packed and finite), whole panels are
// read only at the rows of x's nonzero elements.
func gemvCols(g *gemmCall, x []float32, lists *gemvLists, j0, j1 int, back bool) {
	k := g.k
	flags := g.oneBlockFlags()
	var bias []float32
	gv := g.kern.gemv
	switch {
	case g.pb != nil || !g.transB:
		// Row-major B (or its packed panels), nr columns a call.
		width := g.kern.nr
		src, ld, step := g.b, g.ldb, width
		if g.pb != nil {
			src, ld, step = g.pb.data, width, width*k
		}
		panels := (j1 - j0 + width - 1) / width
		for t := range panels {
			j := j0 + t*width
			if back {
				j = j0 + (panels-1-t)*width
			}
			if g.bias != nil {
				bias = g.bias[j:]
			}
			off := j
			if g.pb != nil {
				off = j / width * step
			}
			cols := min(width, j1-j)
			if lists != nil && cols == width {
				gv.sparse(x, lists, src[off:], g.c[j:j+cols], g.alpha, g.beta, bias, flags)
				continue
			}
			gv.row(k, x, src[off:], ld, g.c[j:j+cols], g.alpha, g.beta, bias, flags, cols)
		}
	default:
		g.dotSums(x, g.b, g.ldb, j0, j1, 1, 1)
	}
}

// dotSums sets, for each r in [r0, r1), the element of C at r·cstride to
// the epilogue (epilogueOne, with bias element r·biasStep) of the sum
// Σ_{p<k} x[p]·b[r*ldb+p]: the columns of an m = 1 product whose B is
// stored transposed (cstride and biasStep 1), or the rows of a product of
// one column (x that column, b A; cstride ldc, biasStep 0). Eight sums a
// call where the kernel has dot8 (the bits of dot4's), stored straight to
// C where its elements are contiguous and beta is 0 (a scratch array
// passed through the func value would be allocated), then four, then
// one.
func (g *gemmCall) dotSums(x, b []float32, ldb, r0, r1, cstride, biasStep int) {
	gv, k := g.kern.gemv, g.k
	r := r0
	if gv.dot8 != nil && g.beta == 0 && cstride == 1 {
		plain := g.alpha == 1 && g.bias == nil && g.act != ActReLU
		for ; r+8 <= r1; r += 8 {
			c := g.c[r : r+8]
			gv.dot8(k, x, b[r*ldb:], ldb, c)
			if !plain {
				g.dotEpilogue(c, r, cstride, biasStep)
			}
		}
	}
	for r < r1 {
		n, ld := 4, ldb
		if r1-r < 4 {
			n, ld = 1, 0
		}
		d := gv.dot4(k, x, b[r*ldb:], ld)
		g.dotEpilogue(d[:n], r, cstride, biasStep)
		r += n
	}
}

// dotEpilogue stores the sums d of elements r, r+1, … of dotSums (d may
// be those elements of C when beta is 0).
func (g *gemmCall) dotEpilogue(d []float32, r, cstride, biasStep int) {
	for i, s := range d {
		c := &g.c[(r+i)*cstride]
		*c = g.epilogueOne(s, c, (r+i)*biasStep)
	}
}

// epilogueOne returns the element of C at *c for the sum s of a product
// computed outside the tiles: alpha·s (+beta·*c, +bias[j] of column j,
// then ReLU), as the reference loop computes it.
func (g *gemmCall) epilogueOne(s float32, c *float32, j int) float32 {
	v := g.alpha * s
	if g.beta != 0 {
		v += g.beta * *c
	}
	if g.bias != nil {
		v += g.bias[j]
	}
	if g.act == ActReLU && v < 0 {
		v = 0
	}
	return v
}
