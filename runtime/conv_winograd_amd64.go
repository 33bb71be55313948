// The Winograd convolution of the AVX2 tier: 3×3 convolutions with stride
// 1 as 16 GEMMs between transforms in assembly; see conv_winograd.go.

//go:build amd64 && !noasm

package runtime

import (
	"sync"
	"sync/atomic"
)

// winoInputAVX2 is the input transform; its reference loop is winoInputGo
// (in the tests), with float strides. See
// conv_winograd_avx2_amd64.s.
//
//go:noescape
func winoInputAVX2(xb *float32, rowStride int, v *float32, tileStride, planeStride, tiles int)

// winoOutputAVX2 is the output transform; its reference loop is
// winoOutputGo (in the tests), with float strides and relu a bool;
// nonFinite is not 0 when some value it stored is an infinity or NaN. See
// conv_winograd_avx2_amd64.s.
//
//go:noescape
func winoOutputAVX2(m *float32, planeStride, tileStride int, ob *float32, rowStride, tiles int, bias *float32, relu int) (nonFinite int)

// convWinogradOK reports whether the Winograd kernel computes a
// convolution of geometry g: on the AVX2 tier, a 3×3 kernel with stride 1
// and one group, with input and output channels in multiples of eight and
// at least 32 input channels.
//
// Below 32 input channels the transforms cost what the products save
// (Zen 3, 1 worker, 16→16 channels at 32²: 60–71 µs direct, 55–75
// Winograd; 32→32 at 16²: 67 against 52).
func convWinogradOK(g *convGeom, groups int) bool {
	return hasAVX2FMA && !hasAVX512 && groups == 1 && g.kh == 3 && g.kw == 3 && g.sh == 1 && g.sw == 1 &&
		g.c%8 == 0 && g.o%8 == 0 && g.c >= 32
}

// winoGeom is the layout of one image's Winograd buffers.
type winoGeom struct {
	th, tw, t int // tile rows, columns, and their product
	hp, wp    int // rows and columns of the padded input blocks: 2th+2, 2tw+2
	xb        int // floats of the padded input: C·hp·wp (NCHW8c)
	ob        int // floats of the output blocks: O·2th·2tw (NCHW8c)
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
	w.th, w.tw = winoTiles(g.oh, g.ow)
	w.t = w.th * w.tw
	w.hp, w.wp = 2*w.th+2, 2*w.tw+2
	w.xb = g.c * w.hp * w.wp
	w.ob = g.o * 4 * w.t
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
	images int           // images in the group
	x      []float32     // the images [images, C, H, W]
	out    []float32     // their output [images, O, OH, OW]
	bias   []float32     // [O], zeros when the convolution has none
	relu   int
	// xb holds each image's padded input blocks [C/8, hp, wp, 8], then
	// its output blocks [O/8, 2th, 2tw, 8], xbSize floats apart.
	xb     []float32
	xbSize int
	v, m   []float32 // V [16, images·t, C] and M [16, images·t, O], planes vStride and mStride apart
	phase  int
	// nonFinite is set when the output has an infinity or NaN: the
	// transforms' differences turn an infinite input into NaN where the
	// definition gives ±Inf, so such a group is computed again by the
	// direct kernel.
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

// units runs units [lo, hi) of the job's phase.
func (j *winoJob) units(lo, hi int) {
	for i := lo; i < hi; i++ {
		j.unit(i)
	}
}

// unitCount returns the number of units of phase.
func (j *winoJob) unitCount(phase int) int {
	per := j.g.o / 8 * j.g.oh
	switch phase {
	case winoPad:
		per = j.g.c / 8 * j.w.hp
	case winoTransform:
		per = j.g.c / 8 * j.w.th
	case winoProduct:
		return 16
	case winoInverse:
		per = j.g.o / 8 * j.w.th
	}
	return j.images * per
}

func (j *winoJob) unit(i int) {
	g, w := &j.g, &j.w
	if j.phase == winoProduct {
		pb := j.u[i]
		c := gemmCall{m: j.images * w.t, n: g.o, k: g.c, alpha: 1, a: j.v[i*w.vStride:], lda: g.c, pb: pb,
			c: j.m[i*w.mStride:], ldc: g.o, kern: pb.kern, serial: true}
		c.run()
		return
	}
	per := j.unitCount(j.phase) / j.images
	n, i := i/per, i%per
	xb := j.xb[n*j.xbSize : (n+1)*j.xbSize]
	t0 := n * w.t // the image's first tile: its first row of V and M
	switch j.phase {
	case winoPad:
		// Row yp of block cb of the padded input: zeros, then columns
		// [pw, pw+W) of input row yp−ph of its eight channels.
		cb, yp := i/w.hp, i%w.hp
		row := xb[(cb*w.hp+yp)*w.wp*8 : (cb*w.hp+yp+1)*w.wp*8]
		y := yp - g.ph
		if y < 0 || y >= g.h {
			clear(row)
			return
		}
		clear(row[:g.pw*8])
		clear(row[(g.pw+g.w)*8:])
		plane := g.h * g.w
		src := j.x[n*g.c*plane+(cb*8*g.h+y)*g.w:]
		x := 0
		for ; x+8 <= g.w; x += 8 {
			transpose8AVX2(&src[x], plane, &row[(g.pw+x)*8], 8, 8, 1)
		}
		for ; x < g.w; x++ {
			for l := 0; l < 8; l++ {
				row[(g.pw+x)*8+l] = src[l*plane+x]
			}
		}
	case winoTransform:
		cb, ty := i/w.th, i%w.th
		winoInputAVX2(&xb[(cb*w.hp+2*ty)*w.wp*8], w.wp*8*4, &j.v[(t0+ty*w.tw)*g.c+cb*8], g.c*4, w.vStride*4, w.tw)
	case winoInverse:
		kb, ty := i/w.th, i%w.th
		ob := &xb[(kb*2*w.th+2*ty)*2*w.tw*8]
		if winoOutputAVX2(&j.m[(t0+ty*w.tw)*g.o+kb*8], w.mStride*4, g.o*4, ob, 2*w.tw*8*4, w.tw, &j.bias[kb*8], j.relu) != 0 {
			j.nonFinite.Store(true)
		}
	case winoUnpad:
		kb, y := i/g.oh, i%g.oh
		src := xb[(kb*2*w.th+y)*2*w.tw*8:]
		dst := j.out[n*g.o*g.p+(kb*8*g.oh+y)*g.ow:]
		x := 0
		for ; x+8 <= g.ow; x += 8 {
			transpose8AVX2(&src[x*8], 8, &dst[x], g.p, 8, 1)
		}
		for ; x < g.ow; x++ {
			for l := 0; l < 8; l++ {
				dst[l*g.p+x] = src[x*8+l]
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
	// Group images while the filters outweigh a group's tiles: each
	// product then reads its filters once for the group rather than once
	// per image. Where the tiles outweigh the filters, a group would only
	// push V and M out of the cache (ResNet-20's 16² stage).
	group := min(hi-lo, max(1, winoGroupRows/w.t), max(1, g.c*g.o/(w.t*(g.c+g.o))))
	for group > 1 && 16*group*w.t*(g.c+g.o) > winoGroupFloats {
		group--
	}
	vStride, mStride := planeStride(group*w.t*g.c), planeStride(group*w.t*g.o)
	xbSize := max(w.xb, w.ob)
	scratch := getConvScratch(group*xbSize + 16*(vStride+mStride) + g.o)
	s := *scratch
	job := winoJob{g: *g, w: w, u: u, xb: s[:group*xbSize], xbSize: xbSize}
	job.w.vStride, job.w.mStride = vStride, mStride
	s = s[len(job.xb):]
	job.v, s = s[:16*vStride], s[16*vStride:]
	job.m, s = s[:16*mStride], s[16*mStride:]
	job.bias = s[:g.o]
	if j.bias != nil {
		copy(job.bias, j.bias)
	} else {
		clear(job.bias)
	}
	if j.act == ActReLU {
		job.relu = 1
	}
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
			j.paddedImages(n0, n1, parallel)
		}
	}
	convScratch.Put(scratch)
}
