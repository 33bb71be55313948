// GEMM micro-kernel descriptions and the portable Go micro-kernel.

package runtime

// Flags passed to a micro-kernel's tile function.
const (
	flagBeta         = 1 << iota // C is read: C = acc + beta·C
	flagBias                     // bias[j] is added to column j
	flagReLU                     // max(0, x) is applied last
	flagRowBias                  // bias[i] is added to row i (bias is per row; not with flagBias)
	flagResidual                 // the direct convolution kernels add a residual before the ReLU
	flagFourChannels             // the AVX2 direct convolution kernel sums channels 2..5 of its six alone
	flagHaloRows                 // the AVX2 depthwise rows kernel reads the rows above and below each plane from memory
)

// oneBlockFlags returns the kernels' epilogue flags of a product computed
// in one block of k (the m = 1 and narrow products): beta, the bias per
// column and ReLU as g asks.
func (g *gemmCall) oneBlockFlags() int {
	flags := 0
	if g.beta != 0 {
		flags |= flagBeta
	}
	if g.bias != nil {
		flags |= flagBias
	}
	if g.act == ActReLU {
		flags |= flagReLU
	}
	return flags
}

// gemmKernel describes one register-blocked micro-kernel and the cache
// blocking that suits it.
type gemmKernel struct {
	name   string
	mr, nr int // register tile: mr rows of A, nr columns of B
	kc     int // depth of a packed block
	// kcLargeC, if not 0, is the depth used instead of kc for products
	// whose C has at least largeC elements: a deeper block halves the
	// passes over a C that does not stay in cache, which repays a B
	// micro-panel too big for L1 (AVX-512, 512 instead of 256, 1 worker,
	// % of the bare kernel: 3136x576x64 92.5 -> 95.2, 512³ 95.4 -> 96.3,
	// 2048³ 92.0 -> 92.6, 1024³ unchanged; for all products it would
	// cost 64x784x512 80.3 -> 75.8).
	kcLargeC int
	// balanceK splits k into ⌈k/kc⌉ blocks of equal depth (k/⌈k/kc⌉
	// rounded up to a multiple of 4, the last block taking what is left)
	// instead of full blocks of kc and a thin remainder, which costs a
	// whole pass over C for a few steps of k.
	balanceK bool
	mc       int // rows of A in a packed block (a multiple of mr)
	nc       int // columns of B in a packed block (a multiple of nr)

	// tile sets the rows×cols corner (rows ≤ mr, cols ≤ nr) of the tile at
	// c (row stride ldc) to
	//
	//	acc[i][j] = Σ_{p<k} a[p*mr+i]·b[p*nr+j]
	//	v = acc[i][j] (+ beta·c[i*ldc+j] when flags&flagBeta)
	//	v += bias[j] when flags&flagBias, or bias[i] when flags&flagRowBias
	//	(kernels with rowBias only); v = max(0, v) when flags&flagReLU
	//
	// a and b are packed panels zero-padded to mr rows and nr columns; k ≥ 1.
	// next is the offset from c (in floats, possibly negative) of the tile
	// the driver computes next, which the kernel may prefetch; it is never
	// read through. ahead is the tile's share of the next panel of B
	// (whole 64-byte lines, possibly none), which it asks into L2 (see
	// spreadAhead).
	tile func(rows, cols, k int, a, b, c []float32, ldc int, beta float32, bias []float32, flags, next int, ahead []float32)

	// spreadAhead reports whether the tile functions ask for their lines
	// ahead one at a time within their loop over k (at most one every
	// unroll steps), so that the driver gives each tile its whole share of
	// the next panel; otherwise they ask for them all before they start,
	// and the driver gives each at most prefetchTileLines.
	spreadAhead bool

	// direct, if not nil, is tile reading A in place instead of from a
	// packed panel, for products too narrow (n ≤ directMaxN) or too small
	// (m·k ≤ directMaxA) to repay packing A (see useDirectA):
	// acc[i][j] = alpha·Σ_{p<k} a[i*lda+p]·b[p*nr+j], then the same
	// epilogue as tile.
	direct func(rows, cols, k int, a []float32, lda int, b, c []float32, ldc int, alpha, beta float32, bias []float32, flags int, ahead []float32)

	// directRun, if not nil, is direct for tiles whole tiles of mr rows
	// and nr columns one below the other (A, C and a per-row bias mr rows
	// further each), in one call instead of one a tile: each tile asks for
	// up to aheadLines lines of the next panel of B from ahead on, as
	// direct does with its share (a burst before it on AVX2, spread over
	// its loop on AVX-512). A 6×16 tile 256 deep is some 500 ns of
	// arithmetic, against which the calls from the driver through the
	// wrappers to the kernel cost a few percent.
	directRun func(tiles, k int, a []float32, lda int, b, c []float32, ldc int, alpha, beta float32, bias []float32, flags int, ahead []float32, aheadLines int)

	// directPack, if not nil, is direct with alpha 1 that also stores the
	// elements of A it reads to the packed panel pa (the layout tile reads),
	// so that A is packed on the fly by the first column of tiles of a
	// block instead of by a separate pass.
	directPack func(rows, cols, k int, a []float32, lda int, pa, b, c []float32, ldc int, beta float32, bias []float32, flags int, ahead []float32)

	// directPackB, if not nil, is direct for a full nr-column tile that
	// also reads B in place, the k×nr block at b with row stride ldb (B not
	// transposed), and stores it to the packed panel pb (the layout tile
	// and direct read), so that when A is read in place B is packed on the
	// fly by the top tile of each column instead of by a separate pass.
	directPackB func(rows, k int, a []float32, lda int, b []float32, ldb int, pb, c []float32, ldc int, alpha, beta float32, bias []float32, flags int)

	// directNarrow, if not nil, is direct for tiles of up to 2·mr rows and
	// at most nr/2 columns, the last column of tiles of a product whose n
	// is just past a multiple of nr: each element comes from the same
	// chain of FMAs and the same epilogue as in direct's partial tiles, so
	// the bits agree, at up to half the cost.
	directNarrow func(rows, cols, k int, a []float32, lda int, b, c []float32, ldc int, alpha, beta float32, bias []float32, flags int)

	// rowBias reports whether the tile functions apply flagRowBias (see
	// sgemmRowBias).
	rowBias bool

	// gemv, if not nil, is the kernel's m == 1 path (see gemvFast).
	gemv *gemvKernel

	// sparse, if not nil, is the kernel's path for blocks of A with many
	// zeros (see sparseRows).
	sparse *sparseKernel

	// dots, if not nil, is the kernel's path for products of a few
	// columns (see dotsFast).
	dots *dotKernel
}

// gemvKernel is the m == 1 path of a micro-kernel whose packed panels are
// nr columns wide.
type gemvKernel struct {
	// row sets c[j] = alpha·Σ_{p<k} a[p]·b[p*ldb+j] (+beta·c[j] when
	// flags&flagBeta, +bias[j] when flags&flagBias, then ReLU when
	// flags&flagReLU) for j < cols ≤ nr; b is B in place (ldb its row
	// stride) or one packed panel (ldb = nr).
	row func(k int, a, b []float32, ldb int, c []float32, alpha, beta float32, bias []float32, flags, cols int)
	// dot4 returns Σ_{p<k} a[p]·b[r*ldb+p] for r < 4: four columns of a B
	// stored transposed. (It returns the sums by value: a pointer to the
	// caller's stack passed through a func value would move it to the
	// heap.)
	dot4 func(k int, a, b []float32, ldb int) [4]float32
	// dot8, if not nil, is dot4 for eight columns, each summed as dot4
	// sums it (more rows of B in flight from L2 a call), storing the sums
	// to dst[:8]. It must give dot4's bits, since the split over workers
	// decides which columns take it; so AVX-512 has one and AVX2 not:
	// eight columns of dot4x256's two partial sums would take all sixteen
	// ymm registers, and one sum a column would change the bits.
	dot8 func(k int, a, b []float32, ldb int, dst []float32)
	// sparse, if not nil, is row for one whole packed panel over the
	// indices of x's nonzero elements (see gemvLists): the bits row
	// gives where the panel is finite.
	sparse func(x []float32, l *gemvLists, b, c []float32, alpha, beta float32, bias []float32, flags int)
	// sparseMinZeros is the share of zeros in x from which a product of
	// packed weights takes sparse, and countZeros counts them. The
	// sparse panels read an index per term and the lists cost a pass
	// over x (1×512×512 with B packed and in L2, 1 worker, Xeon SPR: AVX2
	// 10.8 µs for the rows, 13.6 for the sparse panels without zeros,
	// even at 20 %, 7.7 at half; AVX-512 8.8, 10.4, even at 12 %, 5.3).
	sparseMinZeros float64
	countZeros     func(x []float32) int
}

// largeC is the size of C (m·n floats) from which a kernel's kcLargeC
// applies.
const largeC = 1 << 17

// depth returns the depth of the packed blocks for g.
func (g *gemmCall) depth() int {
	if g.pb != nil && g.pb.kblock != 0 {
		return g.pb.kblock
	}
	kc := g.kern.kc
	if g.kern.kcLargeC != 0 && g.m*g.n >= largeC {
		kc = g.kern.kcLargeC
	}
	if g.kern.balanceK && g.k > kc {
		nb := (g.k + kc - 1) / kc
		kc = ((g.k+nb-1)/nb + 3) &^ 3
	}
	return kc
}

// directMaxN is the widest product that reads A in place when the kernel
// has a direct tile, whatever the size of A.
const directMaxN = 128

// directMaxA is the largest A (m·k floats) that wider products read in
// place: when A's blocks are reread from L2 for every column of tiles,
// reading them in place costs less than packing them (256³: 92% -> 98% of
// the bare kernel's speed, 512³: 94% -> 95%), but past this size the strided
// rows start to lose in L2 and the TLB (2048³ with padded rows: 90% -> 88%).
const directMaxA = 1 << 20

// useDirectA reports whether a product reads A in place.
func (g *gemmCall) useDirectA() bool {
	return g.kern.direct != nil && !g.transA && g.patches == nil && ldaSpreads(g.lda) &&
		(g.n <= directMaxN || g.m*g.k <= directMaxA)
}

// ldaSpreads reports whether 14 consecutive rows of stride lda floats put at
// most 7 lines in any one L1 set (64 sets of 64-byte lines, 12 ways), so
// that reading A in place does not thrash a set; strides of 4 KB and its
// multiples put all 14 in one set.
func ldaSpreads(lda int) bool {
	var n [64]int
	for i := 0; i < 14; i++ {
		set := i * lda * 4 / 64 % 64
		if n[set]++; n[set] > 7 {
			return false
		}
	}
	return true
}

// genericKernel is the portable 4×4 Go micro-kernel, with plain Go m == 1
// kernels (portableGemv).
var genericKernel = &gemmKernel{
	name: "go4x4", mr: 4, nr: 4,
	kc: 256, mc: 128, nc: 1024,
	tile: tileGeneric, rowBias: true,
	gemv:   portableGemv,
	sparse: sparseGo,
}

// tileGeneric is the portable micro-kernel; see gemmKernel.tile.
func tileGeneric(rows, cols, k int, a, b, c []float32, ldc int, beta float32, bias []float32, flags, _ int, ahead []float32) {
	prefetchAhead(ahead)
	a = a[:4*k]
	b = b[:4*k]
	var c00, c01, c02, c03, c10, c11, c12, c13 float32
	var c20, c21, c22, c23, c30, c31, c32, c33 float32
	for p := 0; p < k; p++ {
		ap := a[4*p : 4*p+4 : 4*p+4]
		bp := b[4*p : 4*p+4 : 4*p+4]
		b0, b1, b2, b3 := bp[0], bp[1], bp[2], bp[3]
		a0 := ap[0]
		c00 += a0 * b0
		c01 += a0 * b1
		c02 += a0 * b2
		c03 += a0 * b3
		a1 := ap[1]
		c10 += a1 * b0
		c11 += a1 * b1
		c12 += a1 * b2
		c13 += a1 * b3
		a2 := ap[2]
		c20 += a2 * b0
		c21 += a2 * b1
		c22 += a2 * b2
		c23 += a2 * b3
		a3 := ap[3]
		c30 += a3 * b0
		c31 += a3 * b1
		c32 += a3 * b2
		c33 += a3 * b3
	}
	acc := [16]float32{
		c00, c01, c02, c03, c10, c11, c12, c13,
		c20, c21, c22, c23, c30, c31, c32, c33,
	}
	storeTile(acc[:], 4, rows, cols, c, ldc, beta, bias, flags)
}

// storeTile applies a micro-kernel's epilogue to acc (row stride accStride)
// and writes the rows×cols result to c; see gemmKernel.tile.
func storeTile(acc []float32, accStride, rows, cols int, c []float32, ldc int, beta float32, bias []float32, flags int) {
	for i := 0; i < rows; i++ {
		src := acc[i*accStride : i*accStride+cols]
		dst := c[i*ldc : i*ldc+cols]
		for j, v := range src {
			if flags&flagBeta != 0 {
				v += beta * dst[j]
			}
			if flags&flagBias != 0 {
				v += bias[j]
			}
			if flags&flagRowBias != 0 {
				v += bias[i]
			}
			if flags&flagReLU != 0 && v < 0 {
				v = 0
			}
			dst[j] = v
		}
	}
}
