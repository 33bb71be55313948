// This file holds the GEMM entry points and the blocked GEMM driver.

package runtime

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Activation selects the function a fused GEMM epilogue applies to each
// element of C after the bias.
type Activation int

// The activations. They are untyped constants so that they are also the
// act argument of the fused kernels (LinearAct, LinearActPacked,
// Conv2dAct), which generated code calls as runtime.Conv2dAct(…,
// runtime.ActReLU).
const (
	// ActNone applies nothing.
	ActNone = iota
	// ActReLU applies max(0, x) (NaN stays NaN).
	ActReLU
	// ActGELU applies the exact GELU x·Φ(x) = 0.5·x·(1 + erf(x/√2)).
	ActGELU
	// ActReLU6 applies min(max(x, 0), 6) (NaN stays NaN), as Relu6.
	ActReLU6
	// ActSiLU applies x·sigmoid(x), as Silu.
	ActSiLU
)

// Sgemm computes C = alpha·op(A)·op(B) + beta·C for row-major float32
// matrices, where op(A) is m×k (A itself, or Aᵀ when transA) and op(B) is k×n
// (B itself, or Bᵀ when transB). lda, ldb and ldc are row strides.
//
// Reference loop:
//
//	for i := 0; i < m; i++ {
//		for j := 0; j < n; j++ {
//			var s float32
//			for p := 0; p < k; p++ {
//				s += opA(i, p) * opB(p, j)
//			}
//			c[i*ldc+j] = alpha*s + beta*c[i*ldc+j]
//		}
//	}
//
// When beta is 0, C is not read (NaNs in C do not propagate); when alpha is 0
// or k is 0, A and B are not read. Large products are split over the worker
// pool (see SetWorkers); the result does not depend on the number of workers.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	const name = "Sgemm"
	checkDims(name, m, n, k)
	checkOperand(name, "A", a, m, k, lda, transA)
	checkOperand(name, "B", b, k, n, ldb, transB)
	checkOperand(name, "C", c, m, n, ldc, false)
	g := gemmCall{
		transA: transA, transB: transB, m: m, n: n, k: k,
		alpha: alpha, a: a, lda: lda, b: b, ldb: ldb,
		beta: beta, c: c, ldc: ldc, kern: selectedKernel,
	}
	g.run()
}

// sgemmAct is Sgemm with neither operand transposed and alpha 1, followed by
// the epilogue's act on each tile of C (ActNone or ActReLU); serial keeps
// it on the calling goroutine. Operands are the caller's to check.
func sgemmAct(m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int, act Activation, serial bool) {
	g := gemmCall{
		m: m, n: n, k: k, alpha: 1, a: a, lda: lda, b: b, ldb: ldb,
		beta: beta, c: c, ldc: ldc, act: act, kern: selectedKernel, serial: serial,
	}
	g.run()
}

// sgemmRowBias is sgemmAct with beta 0 and rowBias[i] added to row i of C
// in the epilogue, for a convolution's per-channel bias; C is not read. The
// caller checks rowBiasOK(m) first; where it is false, it fills C with the
// bias and calls sgemmAct with beta 1 instead.
func sgemmRowBias(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, act Activation, rowBias []float32, serial bool) {
	if !rowBiasOK(m) {
		panic("runtime: sgemmRowBias without a row-bias epilogue")
	}
	g := gemmCall{
		m: m, n: n, k: k, alpha: 1, a: a, lda: lda, b: b, ldb: ldb,
		c: c, ldc: ldc, act: act, rowBias: rowBias[:m], kern: selectedKernel, serial: serial,
	}
	g.run()
}

// rowBiasOK reports whether sgemmRowBias can run an m-row product: the
// selected kernel's tiles add a row bias (all tiers' do), and m > 1 (one
// row takes the GEMV path, which has none).
func rowBiasOK(m int) bool { return selectedKernel.rowBias && m > 1 }

// PackedB is the right-hand operand of a GEMM, a k×n matrix packed once into
// the panel layout of the micro-kernel, so that a layer can keep its weights
// packed and skip packing on every call. Its panels are immutable, and it
// is safe for concurrent use: the one thing calls change is an atomic
// count of its serial m = 1 products, which picks the direction of the
// next one's walk over the panels and not its result.
type PackedB struct {
	k, n int
	kern *gemmKernel
	// data holds ⌈n/nr⌉ panels of k×nr floats: element (p, j) is at
	// (j/nr)*k*nr + p*nr + j%nr; columns past n are zero. When kblock is
	// not 0, the panels are stored a block of kblock rows of k at a time
	// instead (see packBBlocks).
	data   []float32
	kblock int
	// finite reports that no element of data is ±Inf or NaN, which the
	// sparse rows need (see sparseReady).
	finite bool
	// dots, when not nil, holds op(B) also as dot panels for the narrow
	// products (see packDots and dotsFast).
	dots []float32
	// sweeps counts the m == 1 products that read this operand serially;
	// every other one walks its panels from the last to the first (see
	// gemvSweepBack).
	sweeps atomic.Uint32
}

// gemvSweepMin is the size of a packed B (k·n floats, 256 KB) from which
// serial m == 1 products alternate the direction they walk its panels in.
const gemvSweepMin = 1 << 16

// gemvSweepBack reports whether this m == 1 product walks B's panels from
// the last to the first: every other product of a packed B of at least
// gemvSweepMin floats does. A model whose weights slightly exceed the
// cache (an MLP's 2.6 MB at batch 1 against a 2 MB L2) evicts, walking
// them in one direction, each line just before it is read again; walking
// back, it starts on the lines it read last, which are still cached.
// Each panel's columns are computed as in either order, so the result does
// not change (Xeon SPR, AVX-512, 1 worker, 784→512→512→10 at batch 1:
// 67.6 → 53.4 µs).
func gemvSweepBack(g *gemmCall) bool {
	return g.pb != nil && g.k*g.n >= gemvSweepMin && g.pb.sweeps.Add(1)%2 == 0
}

// packBBlocks packs the k×n matrix op(B) for a kernel of panel width nr
// in blocks of kc of its rows, each block all its panels (rows [p0,
// p0+kb) of panel j at p0·⌈n/nr⌉·nr + j·kb·nr), so that a GEMM whose depth
// is kc reads B in the order it is stored: a product with few rows of A
// goes through B once, and as one stream instead of a new one for every
// panel of each block (Xeon SPR, 1 worker, ResNet-18's last four 3×3
// convolutions at batch 1 from 36 MB of filters: see patchFilters).
func packBBlocks(transB bool, k, n int, b []float32, ldb, nr, kc int) []float32 {
	pn := (n + nr - 1) / nr
	data := alignedFloats(pn * nr * k)
	for p0 := 0; p0 < k; p0 += kc {
		packB(data[p0*pn*nr:], transB, b, ldb, p0, min(kc, k-p0), 0, n, nr)
	}
	return data
}

// PackB packs the k×n matrix op(B) (B itself, or Bᵀ when transB; ldb is the
// row stride of B as stored) for SgemmPacked. For a linear layer with weights
// W stored [out, in], PackB(true, in, out, w, in) packs Wᵀ so that
// SgemmPacked computes X·Wᵀ.
func PackB(transB bool, k, n int, b []float32, ldb int) *PackedB {
	const name = "PackB"
	checkDims(name, 1, n, k)
	checkOperand(name, "B", b, k, n, ldb, transB)
	kern := selectedKernel
	nr := kern.nr
	pb := &PackedB{k: k, n: n, kern: kern}
	if k > 0 && n > 0 {
		pb.data = alignedFloats((n + nr - 1) / nr * nr * k)
		packB(pb.data, transB, b, ldb, 0, k, 0, n, nr)
		pb.finite = allFinite(pb.data)
		if d := kern.dots; d != nil && n >= 2 && n <= d.maxCols && k >= dotsMinK {
			pb.dots = packDots(transB, b, ldb, k, n, d.lanes)
		}
	}
	return pb
}

// Dims returns the k×n shape of the packed matrix.
func (pb *PackedB) Dims() (k, n int) { return pb.k, pb.n }

// SgemmPacked computes C = alpha·A·B + beta·C with A m×k (row stride lda), B
// the k×n matrix packed by PackB, and C m×n (row stride ldc). It is Sgemm
// with transA false and B already packed; see Sgemm for the reference loop.
func SgemmPacked(m int, alpha float32, a []float32, lda int, pb *PackedB, beta float32, c []float32, ldc int) {
	sgemmPacked("SgemmPacked", m, alpha, a, lda, pb, beta, c, ldc, nil, ActNone)
}

// SgemmPackedEpilogue is SgemmPacked with a fused epilogue: it adds bias[j]
// (when bias is not nil; len(bias) ≥ n) to column j and applies act while
// each tile of C is still in cache.
//
// Reference loop:
//
//	for i := 0; i < m; i++ {
//		for j := 0; j < n; j++ {
//			var s float32
//			for p := 0; p < k; p++ {
//				s += a[i*lda+p] * B(p, j)
//			}
//			v := alpha*s + beta*c[i*ldc+j] // beta == 0: C is not read
//			if bias != nil {
//				v += bias[j]
//			}
//			c[i*ldc+j] = act(v)
//		}
//	}
func SgemmPackedEpilogue(m int, alpha float32, a []float32, lda int, pb *PackedB, beta float32, c []float32, ldc int, bias []float32, act Activation) {
	sgemmPacked("SgemmPackedEpilogue", m, alpha, a, lda, pb, beta, c, ldc, bias, act)
}

func sgemmPacked(name string, m int, alpha float32, a []float32, lda int, pb *PackedB, beta float32, c []float32, ldc int, bias []float32, act Activation) {
	if pb == nil {
		panic("runtime: " + name + ": nil PackedB")
	}
	checkDims(name, m, pb.n, pb.k)
	checkOperand(name, "A", a, m, pb.k, lda, false)
	checkOperand(name, "C", c, m, pb.n, ldc, false)
	if bias != nil && len(bias) < pb.n {
		panic(fmt.Sprintf("runtime: %s: len(bias) = %d, want ≥ %d", name, len(bias), pb.n))
	}
	if act < ActNone || act > ActSiLU {
		panic(fmt.Sprintf("runtime: %s: unknown activation %d", name, act))
	}
	g := gemmCall{
		m: m, n: pb.n, k: pb.k,
		alpha: alpha, a: a, lda: lda, pb: pb,
		beta: beta, c: c, ldc: ldc, kern: pb.kern,
		bias: bias, act: act,
	}
	g.run()
}

// selectedKernel is the micro-kernel Sgemm and PackB use; tests switch it.
var selectedKernel = bestKernel()

// parallelMinFlops is the work (2·m·n·k) below which a GEMM stays on the
// calling goroutine: with workers polling for work (SetSpinWait) a 128³
// product (4 MFLOP) already runs 1.7× faster on 2 workers than on 1.
// Tests lower it.
var parallelMinFlops = 2 << 20

// sharedPackMax is the largest B (in floats) that a parallel Sgemm packs
// once for all workers instead of once per worker.
// Tests lower it.
var sharedPackMax = 1 << 24

func checkDims(name string, m, n, k int) {
	if m < 0 || n < 0 || k < 0 {
		panic(fmt.Sprintf("runtime: %s: negative dimension m=%d n=%d k=%d", name, m, n, k))
	}
}

// checkOperand checks that s holds the rows×cols matrix op(X) (transposed in
// storage when trans) with row stride ld.
func checkOperand(name, what string, s []float32, rows, cols, ld int, trans bool) {
	if trans {
		rows, cols = cols, rows
	}
	if ld < cols || ld < 0 {
		panic(fmt.Sprintf("runtime: %s: ld%s = %d, want ≥ %d", name, what, ld, cols))
	}
	if rows > 0 && cols > 0 && len(s) < (rows-1)*ld+cols {
		panic(fmt.Sprintf("runtime: %s: len(%s) = %d, want ≥ %d for %d×%d with stride %d", name, what, len(s), (rows-1)*ld+cols, rows, cols, ld))
	}
}

// gemmCall holds the validated arguments of one GEMM.
type gemmCall struct {
	transA, transB bool
	m, n, k        int
	alpha          float32
	a              []float32
	lda            int
	b              []float32 // nil when pb is set
	ldb            int
	pb             *PackedB
	beta           float32
	c              []float32
	ldc            int
	bias           []float32
	rowBias        []float32 // added to the rows of C (kern.rowBias; not with bias)
	act            Activation
	kern           *gemmKernel
	directA        bool // tiles read A in place (kern.direct)
	serial         bool // stay on the calling goroutine
	// patches, when not nil, is A (a is nil, lda unused, alpha 1): a
	// convolution's patch matrix, packed from its image block by block.
	patches *convPatches
}

// gemmBuf is a goroutine's scratch for region: packed blocks of A and B,
// and the sparse rows' sums and indices (or an m = 1 product's).
type gemmBuf struct {
	a, b, acc   []float32
	idx, counts []int32
	lists       gemvLists // an m = 1 product's, over idx
}

var gemmBufs = sync.Pool{New: func() any { return new(gemmBuf) }}

// sharedPacks holds the PackedB (and its buffer) of a B packed once for all
// workers.
var sharedPacks = sync.Pool{New: func() any { return new(PackedB) }}

func getGemmBuf() *gemmBuf  { return gemmBufs.Get().(*gemmBuf) }
func putGemmBuf(b *gemmBuf) { gemmBufs.Put(b) }

// gemmGrow returns s resized to n, reallocating only when it is too small.
// New slices start on a 64-byte boundary so that packed panels are aligned
// to cache lines.
func gemmGrow(s []float32, n int) []float32 {
	if cap(s) < n {
		return alignedFloats(n)
	}
	return s[:n]
}

// alignedFloats returns a zeroed slice of n floats starting on a 64-byte
// boundary.
func alignedFloats(n int) []float32 {
	s := make([]float32, n+15)
	off := 0
	if n > 0 {
		off = int(-uintptr(unsafe.Pointer(&s[0])) & 63 / 4)
	}
	return s[off : off+n : off+n]
}

func (g *gemmCall) run() {
	if g.m == 0 || g.n == 0 {
		return
	}
	if g.k == 0 || g.alpha == 0 {
		g.scaleC()
		return
	}
	if g.patches == nil && (gemvFast(g) || columnFast(g) || dotsFast(g)) {
		return
	}
	g.directA = g.useDirectA()
	w := Workers()
	if w == 1 || g.serial || g.m == 1 || 2*float64(g.m)*float64(g.n)*float64(g.k) < float64(parallelMinFlops) {
		g.region(0, g.m, 0, g.n)
		return
	}
	byM, parts := g.split(w)
	job := gemmSplitJob{g: *g, byM: byM, parts: parts}
	if nr := g.kern.nr; byM && g.pb == nil && g.k*g.n <= sharedPackMax {
		// Pack all of B once, in parallel, and let every worker read it
		// as a PackedB: the same panels the serial path packs block by
		// block, so the result does not change.
		pn := (g.n + nr - 1) / nr
		pb := sharedPacks.Get().(*PackedB)
		defer sharedPacks.Put(pb)
		*pb = PackedB{k: g.k, n: g.n, kern: g.kern, data: gemmGrow(pb.data, pn*nr*g.k)}
		runPooled(gemmPackTasks, pn, gemmPackJob{g: *g, pb: pb})
		job.g.pb = pb
	}
	runPooled(gemmSplitTasks, parts, job)
}

// gemmPackJob packs B into pb, 32-column panels (nr in general) at a time.
type gemmPackJob struct {
	g  gemmCall
	pb *PackedB
}

var gemmPackTasks = taskPool((*gemmPackJob).panels)

// panels packs panels [lo, hi) of B.
func (j *gemmPackJob) panels(lo, hi int) {
	g, nr := &j.g, j.g.kern.nr
	packB(j.pb.data[lo*g.k*nr:], g.transB, g.b, g.ldb, 0, g.k, lo*nr, min(g.n, hi*nr)-lo*nr, nr)
}

// gemmSplitJob is one GEMM split into parts of whole micro-tiles of rows
// (byM) or of columns.
type gemmSplitJob struct {
	g     gemmCall
	byM   bool
	parts int
}

var gemmSplitTasks = taskPool((*gemmSplitJob).regions)

// regions computes parts [lo, hi) of C.
func (j *gemmSplitJob) regions(lo, hi int) {
	g := &j.g
	mr, nr := g.kern.mr, g.kern.nr
	for t := lo; t < hi; t++ {
		if j.byM {
			pm := (g.m + mr - 1) / mr
			g.region(t*pm/j.parts*mr, min(g.m, (t+1)*pm/j.parts*mr), 0, g.n)
		} else {
			pn := (g.n + nr - 1) / nr
			g.region(0, g.m, t*pn/j.parts*nr, min(g.n, (t+1)*pn/j.parts*nr))
		}
	}
}

// split chooses whether to divide C among w workers by rows or by columns
// (whole micro-tiles only, so that every element is computed the same way
// whatever w is) and into how many parts, from a rough cost of compute plus
// the packing each worker repeats.
func (g *gemmCall) split(w int) (byM bool, parts int) {
	mr, nr := g.kern.mr, g.kern.nr
	m, n, k := float64(g.m), float64(g.n), float64(g.k)
	pm, pn := (g.m+mr-1)/mr, (g.n+nr-1)/nr
	partsM, partsN := min(w, pm), min(w, pn)
	const packCost = 8 // multiply-adds per packed element, roughly
	packB := 0.0
	if g.pb == nil {
		packB = k * n * packCost
	}
	// A split by rows packs B once for all workers in a parallel phase of
	// its own, which costs one more hand-off (a few µs), or, past
	// sharedPackMax, has each worker pack all of B.
	const syncCost = 200_000 // multiply-adds
	syncM := 0.0
	if g.pb == nil {
		syncM = syncCost
	}
	if g.k*g.n > sharedPackMax {
		packB *= float64(partsM)
		syncM = 0
	}
	if partsM > 1 && g.sparseReady() && !g.packsAOnTheFly() && g.mostlyZeros(0, g.m, 0, g.k) {
		// A product the sparse rows will compute (A a ReLU's output):
		// split by rows, so that each worker has every whole group of
		// columns for the sparse rows, rather than by columns, which
		// leaves the last part of each worker's columns to the tiles.
		// [Xeon SPR avx2] 256×512×512, B packed, 2 workers, by columns:
		// 489 µs at half zeros and 260 µs at 90 %, by rows 437 and 160
		// µs (benchstat n=5); dense, by rows was 15 % slower [avx512].
		return true, partsM
	}
	costM := float64((pm+partsM-1)/partsM*mr)*n*k + packB/float64(partsM) + m/float64(partsM)*k*packCost + syncM
	costN := m*float64((pn+partsN-1)/partsN*nr)*k + packB/float64(partsN) + m*k*packCost
	if costM <= costN {
		return true, partsM
	}
	return false, partsN
}

// prefetchTileLines is the most lines of the next panel of B a tile asks
// for before it runs. A larger burst holds the L2's miss buffers that the
// tile's own loads then wait for: on an AMD EPYC Zen 5, AVX-512 tier, 1
// worker, bursts of a whole share (51 lines a tile in the transformer's
// Linears at batch 1, up to 256 in ResNet-18's convolutions at 7²) made
// both 5-7 % slower than no prefetch at all, and 32 lines as fast as none
// (benchstat n=6 against the uncapped share: transformer at batch 1
// -6.0 %, ResNet-18 at batch 1 -5.4 %, the zoo's other large batches and
// the AVX2 tier unchanged).
const prefetchTileLines = 32

// prefetchSpreadLines is the most lines of the next panel of B a tile
// asks for when it spreads them over its loop, one every unroll steps of
// k (gemmKernel.spreadAhead: the AVX-512 tiles). With its whole share, up
// to 128 lines a tile in ResNet-18's convolutions at 7², ResNet-18 at
// batch 1 ran 4 % slower than with bursts of 32 (AMD EPYC Zen 5, 1
// worker, benchstat n=6); 32 and 64 as fast as those bursts, and the
// transformer's Linears at batch 1 take 51 a tile.
const prefetchSpreadLines = 64

// prefetchAhead asks for a tile's lines ahead all at once, for the
// kernels that do not spread them (see gemmKernel.spreadAhead).
func prefetchAhead(ahead []float32) {
	if len(ahead) >= 16 {
		prefetchL2(&ahead[0], len(ahead)/16)
	}
}

// wholeTiles returns how many tiles of mr rows directRows gives in a row
// for left rows before a partial one.
func wholeTiles(left, mr int) int {
	n := 0
	for ; left >= mr && directRows(left, mr) == mr; left -= mr {
		n++
	}
	return n
}

// directRows returns the rows of the next tile read in place when left
// rows of the block remain: mr, but the last mr + 1 to mr + 3 rows go as
// two tiles of about half. A tile of 1 to 3 rows keeps too few sums in
// flight to hide its FMAs' latency (Xeon SPR, B packed, 1 worker,
// benchstat n=5: [avx512] 128×256×1024 −7.5 %, 16×512×512 −4.1 %;
// [avx2] 8×512×512 −8.4 %; no shape slower). Each element is still one
// tile's sum, so the bits do not change.
func directRows(left, mr int) int {
	if rem := left - mr; rem > 0 && rem < 4 {
		return (left + 1) / 2
	}
	return min(mr, left)
}

// packsAOnTheFly reports whether the first column of tiles of each block
// packs A as it reads it (see region).
func (g *gemmCall) packsAOnTheFly() bool {
	return !g.directA && g.kern.directPack != nil && !g.transA && g.alpha == 1 && g.patches == nil
}

// region computes rows [m0, m1) and columns [n0, n1) of C on the calling
// goroutine: the blocked loop nest around the micro-kernel. m0 is a multiple
// of mr and n0 of nr.
func (g *gemmCall) region(m0, m1, n0, n1 int) {
	kern := g.kern
	mr, nr, kc, mc, nc := kern.mr, kern.nr, g.depth(), kern.mc, kern.nc
	k := g.k
	buf := getGemmBuf()
	defer putGemmBuf(buf)
	// With alpha 1, the first column of tiles of each block packs A as it
	// reads it: its tiles compute exactly what tile computes from the
	// packed panel, so the result is the same either way.
	packFly := g.packsAOnTheFly()
	// When A is read in place, the top tile of each full column of tiles
	// of a block packs B as it reads it (the first block of rows only; the
	// others read the panel); its tiles compute what direct computes from
	// the packed panel.
	packBFly := g.directA && kern.directPackB != nil && g.pb == nil && !g.transB && g.ldb <= packBFlyMaxLdb
	// The sparse rows read A in place; the tiles after them must not
	// expect the first column of tiles to have packed it.
	sparse := g.sparseReady() && !packFly
	if !g.directA {
		buf.a = gemmGrow(buf.a, mc*min(kc, k))
	}
	if g.pb == nil {
		buf.b = gemmGrow(buf.b, min(kc, k)*min(nc, (n1-n0+nr-1)/nr*nr))
	}
	for jc := n0; jc < n1; jc += nc {
		nb := min(nc, n1-jc)
		for pc := 0; pc < k; pc += kc {
			kb := min(kc, k-pc)
			var bblk []float32
			var pstride int // distance between panels in bblk
			switch {
			case g.pb != nil:
				bblk, pstride = g.pb.data[jc/nr*k*nr+pc*nr:], k*nr
				if g.pb.kblock != 0 {
					bblk, pstride = g.pb.data[pc*((g.n+nr-1)/nr*nr)+jc/nr*kb*nr:], kb*nr
				}
			case packBFly:
				// Only a last, partial panel is packed here.
				if full := nb / nr * nr; full < nb {
					packB(buf.b[full*kb:], false, g.b, g.ldb, pc, kb, jc+full, nb-full, nr)
				}
				bblk, pstride = buf.b, kb*nr
			default:
				packB(buf.b, g.transB, g.b, g.ldb, pc, kb, jc, nb, nr)
				bblk, pstride = buf.b, kb*nr
			}
			beta, flags := g.beta, 0
			if pc > 0 {
				beta = 1
			}
			if beta != 0 {
				flags |= flagBeta
			}
			last := pc+kb == k
			if last && g.bias != nil {
				flags |= flagBias
			}
			if last && g.rowBias != nil {
				flags |= flagRowBias
			}
			if last && g.act == ActReLU {
				flags |= flagReLU
			}
			post := last && postAct(g.act)
			for ic := m0; ic < m1; ic += mc {
				mb := min(mc, m1-ic)
				switch {
				case g.patches != nil:
					g.patches.pack(buf.a, ic, mb, pc, kb, mr)
				case !g.directA && !packFly:
					packA(buf.a, g.transA, g.a, g.lda, ic, mb, pc, kb, g.alpha, mr)
				}
				jr0 := 0
				if sparse {
					jr0 = g.sparseRows(buf, bblk, pstride, ic, mb, jc, nb, pc, kb, beta, flags)
				}
				for jr := jr0; jr < nb; jr += nr {
					cols := min(nr, nb-jr)
					bp := bblk[jr/nr*pstride:]
					var bias []float32
					if flags&flagBias != 0 {
						bias = g.bias[jc+jr:]
					}
					// A narrow last column of tiles read in place goes
					// two tiles at a time.
					narrow := g.directA && kern.directNarrow != nil && cols <= nr/2
					step := mr
					if narrow {
						step = 2 * mr
					}
					// B packed beforehand: each tile fetches its share of
					// the next panel's block while it runs (stored block by
					// block, the next panel follows this one), at most
					// prefetchTileLines lines where the kernel asks for them
					// all at once, prefetchSpreadLines where it spreads them
					// over its loop (see gemmKernel.spreadAhead).
					var ahead []float32
					share := 0 // floats of it a tile fetches, whole lines
					if g.pb != nil && len(bp) >= pstride+kb*nr {
						ahead = bp[pstride : pstride+kb*nr]
						tiles := (mb + step - 1) / step
						share = (kb*nr/tiles + 15) &^ 15
						if kern.spreadAhead {
							share = min(share, prefetchSpreadLines*16)
						} else {
							share = min(share, prefetchTileLines*16)
						}
					}
					// Tile t of the column (rows [ir, ir+rows)) reads its
					// packed panel of A, mr floats a step, at pa[t*kb*mr:]:
					// where A is read in place or packed on the fly, the
					// last rows may go as two tiles of about half
					// (directRows), each with a panel of its own.
					for ir, rows, t := 0, 0, 0; ir < mb; ir, t = ir+rows, t+1 {
						rows = min(step, mb-ir)
						if g.directA && !narrow || packFly {
							rows = directRows(mb-ir, mr)
						}
						if run := kern.directRun; run != nil && g.directA && !narrow && cols == nr &&
							!(packBFly && ic == m0 && ir == 0) {
							// The whole tiles from here in one call.
							if tiles := wholeTiles(mb-ir, mr); tiles >= 2 {
								rows = tiles * mr
								n := min(len(ahead), tiles*share)
								if flags&flagRowBias != 0 {
									bias = g.rowBias[ic+ir:]
								}
								run(tiles, kb, g.a[(ic+ir)*g.lda+pc:], g.lda, bp, g.c[(ic+ir)*g.ldc+jc+jr:], g.ldc, g.alpha, beta, bias, flags, ahead[:n], share/16)
								ahead = ahead[n:]
								continue
							}
						}
						n := min(len(ahead), share)
						tileAhead := ahead[:n]
						ahead = ahead[n:]
						c := g.c[(ic+ir)*g.ldc+jc+jr:]
						if flags&flagRowBias != 0 {
							bias = g.rowBias[ic+ir:]
						}
						switch {
						case narrow:
							kern.directNarrow(rows, cols, kb, g.a[(ic+ir)*g.lda+pc:], g.lda, bp, c, g.ldc, g.alpha, beta, bias, flags)
						case packBFly && ic == m0 && ir == 0 && cols == nr:
							kern.directPackB(rows, kb, g.a[(ic+ir)*g.lda+pc:], g.lda, g.b[pc*g.ldb+jc+jr:], g.ldb, bp, c, g.ldc, g.alpha, beta, bias, flags)
						case g.directA:
							kern.direct(rows, cols, kb, g.a[(ic+ir)*g.lda+pc:], g.lda, bp, c, g.ldc, g.alpha, beta, bias, flags, tileAhead)
						case packFly && jr == 0:
							kern.directPack(rows, cols, kb, g.a[(ic+ir)*g.lda+pc:], g.lda, buf.a[t*kb*mr:], bp, c, g.ldc, beta, bias, flags, tileAhead)
						default:
							// The next tile is the one below, or at the
							// top of the next column of tiles.
							next := rows * g.ldc
							if ir+rows >= mb {
								next = nr - ir*g.ldc
							}
							kern.tile(rows, cols, kb, buf.a[t*kb*mr:], bp, c, g.ldc, beta, bias, flags, next, tileAhead)
						}
					}
				}
				if post {
					// The block's rows, while they are in the cache: a
					// call per tile row costs more than its arithmetic
					// where k is small (1×1 convolutions).
					for i := ic; i < ic+mb; i++ {
						actBlock(g.c[i*g.ldc+jc:i*g.ldc+jc+nb], g.act)
					}
				}
			}
		}
	}
}

// packBFlyMaxLdb is the longest row of B (in floats, 4 KB) that the top
// tile of a column reads in place to pack on the fly: past it each of the
// panel's rows is on a page of its own, and a separate pass that reads B
// row by row costs less (Xeon SPR, AVX2 tier, 1 worker, the 1×1
// convolutions of a 56² image, batch 8, rows of 3136 floats: 24→144
// channels 71 → 81 GFLOP/s, 144→24 57 → 65; unchanged on 14² images and
// 1024³).
const packBFlyMaxLdb = 1024

// scaleC sets C = beta·C (+bias, act) for a product with no terms.
func (g *gemmCall) scaleC() {
	for i := 0; i < g.m; i++ {
		row := g.c[i*g.ldc : i*g.ldc+g.n]
		for j := range row {
			v := float32(0)
			if g.beta != 0 {
				v = g.beta * row[j]
			}
			if g.bias != nil {
				v += g.bias[j]
			}
			if g.rowBias != nil {
				v += g.rowBias[i]
			}
			if g.act == ActReLU && v < 0 {
				v = 0
			}
			row[j] = v
		}
		if postAct(g.act) {
			actBlock(row, g.act)
		}
	}
}
