// The Winograd F(2×2, 3×3) convolution: a 3×3 convolution with
// stride 1 computes each 2×2 block of output pixels (a tile) from a 4×4
// block of input with 16 multiplications per input channel instead of 36.
//
// With d the 4×4 input block of one channel and g its 3×3 filter, the 2×2
// output block is Aᵀ[(G g Gᵀ) ⊙ (Bᵀ d B)]A, summed over the channels:
//
//	Bᵀ = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]
//	G  = [1 0 0; ½ ½ ½; ½ -½ ½; 0 0 1]
//	Aᵀ = [1 1 1 0; 0 1 -1 -1]
//
// so the sum over channels is, for each of the 16 positions ξ of the 4×4
// transformed block, one matrix product: M_ξ[tile, k] = Σ_c V_ξ[tile, c] ·
// U_ξ[k, c], with V = Bᵀ d B of every tile and channel, U = G g Gᵀ of
// every filter. The transforms work on eight channels at a time, laid out
// as NCHW8c blocks, so that every vector load is contiguous.

package runtime

import (
	"sync"
	"sync/atomic"
)

// winogradFilters returns U = G g Gᵀ of the filters w [K, C, 3, 3] as 16
// planes [K, C] (plane ξ = 4a+b holds U[a][b]), computed in float64 and
// rounded once.
func winogradFilters(w []float32, k, c int) [16][]float32 {
	var u [16][]float32
	for xi := range u {
		u[xi] = make([]float32, k*c)
	}
	for i := 0; i < k*c; i++ {
		g := w[i*9 : i*9+9]
		// Gg, 4×3: rows g0, (g0+g1+g2)/2, (g0−g1+g2)/2, g2.
		var t [4][3]float64
		for q := 0; q < 3; q++ {
			g0, g1, g2 := float64(g[q]), float64(g[3+q]), float64(g[6+q])
			t[0][q], t[1][q], t[2][q], t[3][q] = g0, (g0+g1+g2)/2, (g0-g1+g2)/2, g2
		}
		for a := 0; a < 4; a++ {
			r0, r1, r2 := t[a][0], t[a][1], t[a][2]
			u[4*a][i] = float32(r0)
			u[4*a+1][i] = float32((r0 + r1 + r2) / 2)
			u[4*a+2][i] = float32((r0 - r1 + r2) / 2)
			u[4*a+3][i] = float32(r2)
		}
	}
	return u
}

// winogradWeights transforms and packs the filters w [O, C, 3, 3] for
// winogradImages.
func winogradWeights(w []float32, o, c int) *[16]*PackedB {
	u := winogradFilters(w, o, c)
	var pb [16]*PackedB
	for xi := range pb {
		pb[xi] = PackB(true, c, o, u[xi], c)
	}
	return &pb
}

// winoKernels are a tier's Winograd transforms and the moves between
// NCHW and blocks of eight channels, on float32 indices.
type winoKernels struct {
	// input stores, for tiles t < tiles and blocks c < blocks of eight
	// channels, with d[i][j] the eight floats at
	// xb[c*blockStride+t*16+i*rowStride+j*8:], (Bᵀ d B)[a][b] at
	// v[c*8+t*tileStride+(4a+b)*planeStride:].
	input func(xb []float32, rowStride int, v []float32, tileStride, planeStride, tiles, blocks, blockStride int)
	// output stores, for tiles t < tiles and blocks c < blocks of eight
	// channels, with m[a][b] the eight floats at
	// m[c*8+t*tileStride+(4a+b)*planeStride:], y = Aᵀ m A + bias[c*8:],
	// then max(0, ·) keeping NaN when relu, as y[i][j] at
	// ob[c*blockStride+t*16+i*rowStride+j*8:]; it reports whether some
	// stored value is an infinity or NaN.
	output func(m []float32, planeStride, tileStride int, ob []float32, rowStride, tiles int, bias []float32, relu bool, blocks, blockStride int) (nonFinite bool)
	// toBlocks sets dst[x*8+l] = src[l*plane+x] for x < n, l < 8, and
	// fromBlocks dst[l*plane+x] = src[x*8+l].
	toBlocks, fromBlocks func(dst, src []float32, plane, n int)
}

// winoGo are the portable transforms, and the reference of the others.
var winoGo = &winoKernels{
	input:      winoInputGo,
	output:     winoOutputGo,
	toBlocks:   func(dst, src []float32, plane, n int) { interleaveGo(dst, src, plane, 0, n, 8) },
	fromBlocks: func(dst, src []float32, plane, n int) { deinterleaveGo(dst, src, plane, 0, n, 8) },
}

// winoInputGo is winoKernels.input.
func winoInputGo(xb []float32, rowStride int, v []float32, tileStride, planeStride, tiles, blocks, blockStride int) {
	for c := range blocks {
		winoInputBlock(xb[c*blockStride:], rowStride, v[c*8:], tileStride, planeStride, tiles)
	}
}

// winoInputBlock is winoInputGo for one block of eight channels.
func winoInputBlock(xb []float32, rowStride int, v []float32, tileStride, planeStride, tiles int) {
	for t := 0; t < tiles; t++ {
		for l := 0; l < 8; l++ {
			var d, s [4][4]float32
			for i := range d {
				for j := range d[i] {
					d[i][j] = xb[t*16+i*rowStride+j*8+l]
				}
			}
			for i := range s {
				s[i] = [4]float32{d[i][0] - d[i][2], d[i][1] + d[i][2], d[i][2] - d[i][1], d[i][1] - d[i][3]}
			}
			for b := 0; b < 4; b++ {
				vs := [4]float32{s[0][b] - s[2][b], s[1][b] + s[2][b], s[2][b] - s[1][b], s[1][b] - s[3][b]}
				for a, x := range vs {
					v[t*tileStride+(4*a+b)*planeStride+l] = x
				}
			}
		}
	}
}

// winoOutputGo is winoKernels.output.
func winoOutputGo(m []float32, planeStride, tileStride int, ob []float32, rowStride, tiles int, bias []float32, relu bool, blocks, blockStride int) (nonFinite bool) {
	for c := range blocks {
		if winoOutputBlock(m[c*8:], planeStride, tileStride, ob[c*blockStride:], rowStride, tiles, bias[c*8:], relu) {
			nonFinite = true
		}
	}
	return nonFinite
}

// winoOutputBlock is winoOutputGo for one block of eight channels.
func winoOutputBlock(m []float32, planeStride, tileStride int, ob []float32, rowStride, tiles int, bias []float32, relu bool) (nonFinite bool) {
	for t := 0; t < tiles; t++ {
		for l := 0; l < 8; l++ {
			at := func(a, b int) float32 { return m[t*tileStride+(4*a+b)*planeStride+l] }
			var u [2][4]float32
			for b := 0; b < 4; b++ {
				u[0][b] = at(0, b) + at(1, b) + at(2, b)
				u[1][b] = at(1, b) - at(2, b) - at(3, b)
			}
			for i := 0; i < 2; i++ {
				y := [2]float32{u[i][0] + u[i][1] + u[i][2], u[i][1] - u[i][2] - u[i][3]}
				for j, x := range y {
					x += bias[l]
					if relu && x < 0 {
						x = 0
					}
					if x-x != 0 { // ±Inf or NaN
						nonFinite = true
					}
					ob[t*16+i*rowStride+j*8+l] = x
				}
			}
		}
	}
	return nonFinite
}

// convWinogradOK reports whether the Winograd kernel computes a
// convolution of geometry g (on every tier): a 3×3 kernel with stride 1
// and one group, with input and output channels in multiples of eight and
// at least 32 input channels, or 16 on the AVX2 tier.
//
// Below 32 input channels the transforms cost what the products save
// where the direct kernel is fast (Xeon SPR, avx512, 1 worker, 16→16
// channels at 32², batch 64: 2.03 ms direct, 3.02 Winograd), and on the
// portable tier (Zen 3, 1 worker, 16→16 channels at 32²: 60–71 µs direct,
// 55–75 Winograd); on the AVX2 tier 16 channels already pay (Xeon SPR,
// avx2, 1 worker, benchstat n=6, 16→16 at 32²: batch 1 46.1 → 41.2 µs,
// batch 8 365 → 333 µs, batch 64 3.06 → 2.83 ms).
func convWinogradOK(g *convGeom, groups int) bool {
	minC := 32
	if CurrentISA() == ISAAVX2 {
		minC = 16
	}
	return groups == 1 && g.kh == 3 && g.kw == 3 && g.sh == 1 && g.sw == 1 &&
		g.c%8 == 0 && g.o%8 == 0 && g.c >= minC
}

// winogradPays reports whether Winograd is worth its transformed filters
// for n images of geometry g where the direct kernel can run instead:
// each of the 16 products reads 16/9 of the filters' size for as many rows
// as the images have tiles, so a few tiles against filters too large for
// the cache make the products wait on memory. At batch 1, ResNet-18's
// 512-channel 7² layers (16 tiles, 16.8 MB of transformed filters) ran
// the whole model 6 % faster direct on a Xeon SPR; at batch 8 (128 tiles)
// Winograd was 10 % faster. Only the AVX-512 tier's direct kernel is fast
// enough for it: with the AVX2 tier the model gained nothing measurable
// (32.6 → 32.0 ms, p = 0.13) and the layer alone lost 15 %.
func winogradPays(g *convGeom, n int) bool {
	w := newWinoGeom(g)
	return currentISA < ISAAVX512 || !convDirectOK(g, 1) || n*w.t >= winoMinRows || 16*g.c*g.o*4 <= winoSmallFilters
}

// winoMinRows and winoSmallFilters bound winogradPays: the fewest tiles
// for large filters, and the transformed filters' bytes that stay in a
// core's cache whatever the tiles.
const (
	winoMinRows      = 32
	winoSmallFilters = 1 << 20
)

// winoGeom is the layout of one image's Winograd buffers.
type winoGeom struct {
	th, tw, t int // tile rows, columns, and their product
	hp, wp    int // rows and columns of the padded input blocks: 2th+2, 2tw+2
	// blocks is the floats of an image's padded input blocks (C·hp·wp)
	// or of its output blocks (O·2th·2tw), whichever is more.
	blocks int
	// vStride and mStride are the floats from one of the 16 planes of V
	// and M to the next, for a group of images (see planeStride).
	vStride, mStride int
}

// planeStride returns the distance in floats between planes of n floats
// that the transforms read or write 16 at a time: at least n, and 64
// floats (256 bytes) past a multiple of 4 KiB, so that the 16 streams
// fall in different sets of the L1 cache rather than all in one, as they
// would for the many n that are multiples of 1024 (ResNet-18's first
// layer: 784 tiles of 64 channels; Zen 3, 1 worker, 16 channels at 32²,
// benchstat n=8: 77 → 62 µs).
func planeStride(n int) int { return n + ((64-n)%1024+1024)%1024 }

func newWinoGeom(g *convGeom) winoGeom {
	var w winoGeom
	w.th, w.tw = (g.oh+1)/2, (g.ow+1)/2 // tiles of 2×2 output pixels
	w.t = w.th * w.tw
	w.hp, w.wp = 2*w.th+2, 2*w.tw+2
	w.blocks = max(g.c*w.hp*w.wp, g.o*4*w.t)
	return w
}

// winoJob is a group of images of a Winograd convolution, in phases that
// each split into units for the worker pool. The images' tiles are the
// rows of one product per ξ, so that a small image (ResNet-20's 8×8 has
// 16 tiles) still makes products of many rows, which read the filters
// once for the group.
type winoJob struct {
	g      convGeom
	w      winoGeom
	u      *[16]*PackedB // U_ξ as the packed [C, O] right operand
	k      *winoKernels  // the tier's transforms
	images int           // images in the group
	// row0 is the first tile row a chunk of a large image covers (see
	// winogradChunks) and oh the output rows it writes; the whole image:
	// 0 and g.oh.
	row0, oh int
	x        []float32  // the images [images, C, H, W]
	out      []float32  // their output [images, O, OH, OW]
	bias     []float32  // [O], zeros when the convolution has none
	act      Activation // a ReLU in the output transform; others (postAct) on the unpad phase's rows
	// xb holds each image's padded input blocks [C/8, hp, wp, 8], then
	// its output blocks [O/8, 2th, 2tw, 8], w.blocks floats apart.
	xb    []float32
	v, m  []float32 // V [16, images·t, C] and M [16, images·t, O], planes vStride and mStride apart
	phase int
	// nonFinite is set when the output has an infinity or NaN: the
	// transforms' differences turn an infinite input into NaN where the
	// definition gives ±Inf, so such a group is computed again without
	// them (direct kernel or im2col).
	nonFinite *atomic.Bool
}

// The phases of winoJob and what a unit of each is (of one image).
const (
	winoPad       = iota // a row of one block of eight input channels
	winoTransform        // a tile row of one block of eight input channels
	winoProduct          // one of the 16 products (of the whole group)
	winoInverse          // a tile row of one block of eight output channels
	winoUnpad            // an output row of one block of eight output channels
)

var winoTasks = taskPool((*winoJob).units)

// winoFlags holds the nonFinite flags of winogradImages calls, so that a
// call allocates none.
var winoFlags = sync.Pool{New: func() any { return new(atomic.Bool) }}

// units runs units [lo, hi) of the job's phase, image by image.
func (j *winoJob) units(lo, hi int) {
	if j.phase == winoProduct {
		for i := lo; i < hi; i++ {
			j.product(i)
		}
		return
	}
	per := j.unitCount(j.phase) / j.images
	for i := lo; i < hi; {
		n, u := i/per, i%per
		m := min(per-u, hi-i) // units of image n
		j.imageUnits(n, u, u+m)
		i += m
	}
}

// unitCount returns the number of units of phase.
func (j *winoJob) unitCount(phase int) int {
	per := j.g.o / 8 * j.oh
	switch phase {
	case winoPad:
		per = j.g.c / 8 * j.w.hp
	case winoTransform, winoInverse:
		per = j.w.th
	case winoProduct:
		return 16
	}
	return j.images * per
}

// product runs product i of the 16 (of the whole group).
func (j *winoJob) product(i int) {
	g, w := &j.g, &j.w
	pb := j.u[i]
	c := gemmCall{m: j.images * w.t, n: g.o, k: g.c, alpha: 1, a: j.v[i*w.vStride:], lda: g.c, pb: pb,
		c: j.m[i*w.mStride:], ldc: g.o, kern: pb.kern, serial: true}
	c.run()
}

// imageUnits runs units [u0, u1) of image n of the job's phase (one of
// the phases but the products), a loop a phase: a unit is a few µs of
// work or less, which a dispatch per unit would add to.
func (j *winoJob) imageUnits(n, u0, u1 int) {
	g, w := &j.g, &j.w
	xb := j.xb[n*w.blocks : (n+1)*w.blocks]
	t0 := n * w.t // the image's first tile: its first row of V and M
	switch j.phase {
	case winoPad:
		plane := g.h * g.w
		x := j.x[n*g.c*plane:]
		for i := u0; i < u1; i++ {
			// Row yp of block cb of the padded input: zeros, then
			// columns [pw, pw+W) of input row yp−ph of its eight
			// channels.
			cb, yp := i/w.hp, i%w.hp
			row := xb[(cb*w.hp+yp)*w.wp*8 : (cb*w.hp+yp+1)*w.wp*8]
			y := yp + 2*j.row0 - g.ph
			if y < 0 || y >= g.h {
				clear(row)
				continue
			}
			clear(row[:g.pw*8])
			clear(row[(g.pw+g.w)*8:])
			j.k.toBlocks(row[g.pw*8:], x[(cb*8*g.h+y)*g.w:], plane, g.w)
		}
	case winoTransform:
		// A unit is a tile row of every block, so that the transform
		// fills whole lines of V (Xeon SPR, 1 worker, 64 channels at 56²,
		// batch 8: see winoInputAVX2).
		for ty := u0; ty < u1; ty++ {
			j.k.input(xb[2*ty*w.wp*8:], w.wp*8, j.v[(t0+ty*w.tw)*g.c:], g.c, w.vStride, w.tw, g.c/8, w.hp*w.wp*8)
		}
	case winoInverse:
		relu := j.act == ActReLU
		for ty := u0; ty < u1; ty++ {
			ob := xb[2*ty*2*w.tw*8:]
			if j.k.output(j.m[(t0+ty*w.tw)*g.o:], w.mStride, g.o, ob, 2*w.tw*8, w.tw, j.bias, relu, g.o/8, 2*w.th*2*w.tw*8) {
				j.nonFinite.Store(true)
			}
		}
	case winoUnpad:
		post := postAct(j.act)
		out := j.out[n*g.o*g.p:]
		for i := u0; i < u1; i++ {
			kb, y := i/j.oh, i%j.oh
			o := out[(kb*8*g.oh+2*j.row0+y)*g.ow:]
			j.k.fromBlocks(o, xb[(kb*2*w.th+y)*2*w.tw*8:], g.p, g.ow)
			if post {
				// Row y of the block's eight channels, still in cache.
				for c := range 8 {
					actBlock(o[c*g.p:c*g.p+g.ow], j.act)
				}
			}
		}
	}
}

// winoGroupRows is how many product rows (tiles) winogradImages gathers
// from consecutive images into one group, and winoGroupFloats the most
// floats of V and M a group may take.
const (
	winoGroupRows   = 256
	winoGroupFloats = 1 << 22
)

// winogradImages convolves images [lo, hi) with the Winograd kernel, the
// filters transformed and packed in u, in groups of images whose tiles
// make products of at most winoGroupRows rows; parallel spreads each
// phase of each group over the worker pool.
func (j *convJob) winogradImages(lo, hi int, parallel bool, u *[16]*PackedB) {
	g := &j.g
	w := newWinoGeom(g)
	if rows := winoChunkRows(g, &w); rows > 0 {
		j.winogradChunks(lo, hi, parallel, u, w, rows)
		return
	}
	// Group images while the filters outweigh a group's tiles: each
	// product then reads its filters once for the group rather than once
	// per image. Where the tiles outweigh the filters, a group would only
	// push V and M out of the cache (ResNet-20's 16² stage).
	group := min(hi-lo, max(1, winoGroupRows/w.t), max(1, g.c*g.o/(w.t*(g.c+g.o))))
	for group > 1 && 16*group*w.t*(g.c+g.o) > winoGroupFloats {
		group--
	}
	vStride, mStride := planeStride(group*w.t*g.c), planeStride(group*w.t*g.o)
	scratch := getConvScratch(group*w.blocks + 16*(vStride+mStride) + g.o)
	s := *scratch
	job := winoJob{g: *g, w: w, u: u, k: winoKernelsFor(), xb: s[:group*w.blocks], oh: g.oh}
	job.w.vStride, job.w.mStride = vStride, mStride
	s = s[len(job.xb):]
	job.v, s = s[:16*vStride], s[16*vStride:]
	job.m, s = s[:16*mStride], s[16*mStride:]
	job.bias = winoBias(s[:g.o], j.bias)
	job.act = j.act
	inSize, outSize := g.c*g.h*g.w, g.o*g.p
	nonFinite := winoFlags.Get().(*atomic.Bool)
	defer winoFlags.Put(nonFinite)
	job.nonFinite = nonFinite
	for n0 := lo; n0 < hi; n0 += group {
		n1 := min(hi, n0+group)
		job.images = n1 - n0
		job.x, job.out = j.x[n0*inSize:n1*inSize], j.out[n0*outSize:n1*outSize]
		nonFinite.Store(false)
		for phase := winoPad; phase <= winoUnpad; phase++ {
			job.phase = phase
			if units := job.unitCount(phase); parallel && Workers() > 1 && units > 1 {
				runPooled(winoTasks, units, job)
			} else {
				job.units(0, units)
			}
		}
		if nonFinite.Load() {
			j.withoutWinograd(n0, n1, parallel)
		}
	}
	convScratch.Put(scratch)
}

// withoutWinograd convolves images [lo, hi) again with the direct kernel
// or im2col, for an output the transforms made non-finite.
func (j *convJob) withoutWinograd(lo, hi int, parallel bool) {
	plain := *j
	plain.filters = nil
	plain.convImages(lo, hi, parallel) // a residual is added by the caller
}

// winoBias returns dst holding bias, or zeros for a convolution without
// one: the output transform always adds a bias.
func winoBias(dst, bias []float32) []float32 {
	if bias != nil {
		copy(dst, bias)
	} else {
		clear(dst)
	}
	return dst
}

// winoChunkBytes is about how many bytes of V and M (16 planes of C and O
// floats per tile) a chunk of a large image holds, so that they stay in
// the caches of the core that computes it (a variable for tests).
var winoChunkBytes = 1 << 20

// winoChunkRows returns the tile rows of a chunk when the images of
// geometry g are convolved a chunk at a time (winogradChunks), or 0: when
// an image's V and M come to more than winoChunkBytes and to at least
// twice the transformed filters U, which every chunk reads again. On a
// Zen 3 (avx2), 64 channels at 56², batch 1: 16 % faster on 1 worker
// (p=0.015) and 17 % on 2 (p=0.005); ResNet-18 at batch 1 on 2 workers
// 6 % (p=0.006), on 1 unchanged.
func winoChunkRows(g *convGeom, w *winoGeom) int {
	rows := winoChunkBytes / (64 * (g.c + g.o)) / w.tw
	if rows < 1 || rows >= w.th || w.t*(g.c+g.o) < 2*g.c*g.o {
		return 0
	}
	return rows
}

// winogradChunks convolves images [lo, hi), each larger than a chunk of
// rows tile rows, a chunk at a time: every chunk goes through all the
// phases (its input rows padded, transformed, multiplied, transformed back
// and unpadded) on one worker, in scratch of its own, so its V and M stay
// in that core's cache and the workers share no phase. Each output
// element is computed as in winogradImages, to the same bits.
func (j *convJob) winogradChunks(lo, hi int, parallel bool, u *[16]*PackedB, w winoGeom, rows int) {
	chunks := (w.th + rows - 1) / rows
	if workers := Workers(); parallel && workers > 1 {
		// As many chunks for each worker, so that none waits on another
		// (ResNet-18's 56² layers in 7 chunks kept one of 2 workers idle
		// an eighth of the time).
		chunks = min(w.th, (chunks+workers-1)/workers*workers)
	}
	nonFinite := winoFlags.Get().(*atomic.Bool)
	defer winoFlags.Put(nonFinite)
	cj := winoChunkJob{conv: *j, u: u, w: w, rows: (w.th + chunks - 1) / chunks, count: chunks, nonFinite: nonFinite}
	for n := lo; n < hi; n++ {
		cj.n = n
		nonFinite.Store(false)
		if parallel && Workers() > 1 {
			runPooled(winoChunkTasks, chunks, cj)
		} else {
			cj.chunks(0, chunks)
		}
		if nonFinite.Load() {
			j.withoutWinograd(n, n+1, parallel)
		}
	}
}

// winoChunkJob is one image of winogradChunks.
type winoChunkJob struct {
	conv      convJob // a copy, so that the caller's does not escape
	u         *[16]*PackedB
	w         winoGeom // the whole image's
	rows, n   int      // the most tile rows a chunk has, the image
	count     int      // chunks of the image: chunk c has tile rows [c·th/count, (c+1)·th/count)
	nonFinite *atomic.Bool
}

var winoChunkTasks = taskPool((*winoChunkJob).chunks)

// chunks computes chunks [lo, hi) of the image.
func (cj *winoChunkJob) chunks(lo, hi int) {
	g := &cj.conv.g
	w := cj.w
	w.th = cj.rows
	w.t = w.th * w.tw
	w.hp = 2*w.th + 2
	w.blocks = max(g.c*w.hp*w.wp, g.o*4*w.t)
	w.vStride, w.mStride = planeStride(w.t*g.c), planeStride(w.t*g.o)
	scratch := getConvScratch(w.blocks + 16*(w.vStride+w.mStride) + g.o)
	defer convScratch.Put(scratch)
	s := *scratch
	inSize, outSize := g.c*g.h*g.w, g.o*g.p
	job := winoJob{g: *g, w: w, u: cj.u, k: winoKernelsFor(), images: 1, act: cj.conv.act, nonFinite: cj.nonFinite,
		x: cj.conv.x[cj.n*inSize : (cj.n+1)*inSize], out: cj.conv.out[cj.n*outSize : (cj.n+1)*outSize]}
	job.xb, s = s[:w.blocks], s[w.blocks:]
	job.v, s = s[:16*w.vStride], s[16*w.vStride:]
	job.m, s = s[:16*w.mStride], s[16*w.mStride:]
	job.bias = winoBias(s[:g.o], cj.conv.bias)
	for c := lo; c < hi; c++ {
		// Chunks differ by at most a tile row; a shorter one's products
		// run over the rows it has.
		job.row0 = c * cj.w.th / cj.count
		job.w.th = (c+1)*cj.w.th/cj.count - job.row0
		job.oh = min(2*job.w.th, g.oh-2*job.row0)
		job.w.t = job.w.th * w.tw
		for phase := winoPad; phase <= winoUnpad; phase++ {
			job.phase = phase
			job.units(0, job.unitCount(phase))
		}
	}
}
