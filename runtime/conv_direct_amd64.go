// The direct convolution of the AVX2 and AVX-512 tiers: convolutions
// computed from a zero-padded copy of each image, six output channels by
// sixteen output pixels at a time (AVX2), or eight channels by two blocks
// of sixteen pixels (AVX-512), with no patch matrix and no packing.

//go:build amd64 && !noasm

package runtime

import (
	"math"
	"unsafe"
)

// convBlockAVX2 computes one block of six output channels by two halves of
// eight output pixels; see conv_direct_avx2_amd64.s.
//
//go:noescape
func convBlockAVX2(k int, offs *int32, x *float32, xstep2 int, w *float32, wstride int,
	out *float32, ostep2, ldo, skip int, bias *float32, flags, cnt0, cnt1 int, res *float32)

// convBlock8x2AVX512 computes eight output channels by two vectors of
// sixteen output pixels (each sixteen pixels of a row, or eight of two
// rows); see conv_direct8x2_avx512_amd64.s.
//
//go:noescape
func convBlock8x2AVX512(k int, offs *int32, x *float32, xhalf, xvec int, w *float32, wstride int,
	out *float32, ohalf, ovec, ldo, skip int, bias *float32, flags, masks int, res *float32)

// deinterleave2AVX2 sets a[i] = src[2i] and b[i] = src[2i+1] for i < n, n
// a multiple of 8, in each of rows rows (byte strides dstStride for a and
// b, srcStride for src); see deinterleave_avx2_amd64.s.
//
//go:noescape
func deinterleave2AVX2(a, b, src *float32, n, rows, dstStride, srcStride int)

// convDirectOK reports whether the direct kernel computes a convolution of
// geometry g: on the AVX2 and AVX-512 tiers (on the AVX-512 tier even the
// AVX2 kernel beat im2col and the 14×32 GEMM tile: Xeon Sapphire Rapids,
// 1 worker, compiled ResNet-20 at batch 64, 62.8 → 48.6 ms), with one
// group and at least six output channels (the last block of six is shifted to end
// at the last channel), and a kernel at least as large as its stride, or
// at most 32 input channels: a 1×1 downsample reads a quarter of the
// image, and im2col gathers just that (Zen 3, 1 worker, 64→128 channels
// at 56², 1×1 stride 2: 42 GFLOP/s through im2col, 27 direct), but over
// few channels the GEMM after it is too shallow (Xeon SPR, 1 worker,
// batch 8, benchstat n=6, im2col against direct: 16→32 channels at 32²
// 57.6 against 44.2 µs on AVX-512, 67.6 against 54.4 on AVX2; 32→64 at
// 16² 40.0 against 38.0 and 45.2 against 41.4 µs).
//
// A 1×1 convolution with stride 1 and no padding stays a GEMM over the
// image as it is (Zen 3, 1 worker, GFLOP/s GEMM against direct: 144→24
// channels at 56² 38 against 29, 192→64 at 28² 58 against 39, 384→96 at
// 14² 58 against 51; benchstat of GEMM against direct, n=5: 24→144 at 56²
// 453 against 571 µs, 32→192 at 28² over 8 images 1.34 against 2.29 ms,
// 16→96 at 112² 980 against 921 µs, p=0.22): the direct kernel would
// first copy the image.
func convDirectOK(g *convGeom, groups int) bool {
	if !hasAVX2FMA || groups != 1 || g.o < 6 || ((g.kh < g.sh || g.kw < g.sw) && g.c > 32) {
		return false
	}
	if g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.ph == 0 && g.pw == 0 {
		return false
	}
	d := newConvDirect(g)
	return float64(g.c)*float64(d.hp)*float64(d.wrow)*4 < math.MaxInt32
}

// convDirect is the blocking of one direct convolution and the layout of
// its padded image. Each padded input row is stored as sw phases: phase r
// holds the padded columns r, r+sw, r+2sw, ..., so that the inputs of
// consecutive output pixels under one kernel column are consecutive
// floats whatever the stride.
type convDirect struct {
	wide   bool // blocks are 16 pixels of one output row; else 8 pixels of two rows
	cols   int  // column blocks per output row (of 16 or 8 pixels)
	rows   int  // row units per image, of unitRows output rows each
	hp     int  // padded rows
	wph    int  // floats per phase of a padded row, with room for whole-vector loads
	wrow   int  // floats per padded row: sw·wph
	oc     int  // output channels a block: 8 (the AVX-512 kernel) or 6 (AVX2)
	blocks int  // blocks of output channels
	vecs   int  // blocks of pixels a unit stacks: 2 (AVX-512) or 1
	// fours is the number of blocks of four channels that end the
	// blocks of six, when the channels are 6·a + 4·fours (AVX2); or 0:
	// then a last block that would pass the last channel is shifted
	// back to end there.
	fours int
}

// block returns the first channel o0 of block b of o channels, and how
// many of its first channels are another block's (skip) or, when four,
// the four-channel kernel's unused two.
func (d *convDirect) block(b, o int) (o0, skip int, four bool) {
	if sixes := d.blocks - d.fours; b >= sixes {
		// Channels 2..5 of the six from o0.
		return 6*sixes + 4*(b-sixes) - 2, 2, true
	}
	o0 = b * d.oc
	if o0+d.oc > o {
		skip = o0 + d.oc - o
		o0 = o - d.oc
	}
	return o0, skip, false
}

// unitRows is the number of output rows of a unit.
func (d *convDirect) unitRows() int {
	if d.wide {
		return d.vecs
	}
	return 2 * d.vecs
}

func newConvDirect(g *convGeom) convDirect {
	d := convDirect{wide: g.ow >= 12, oc: 6, vecs: 1}
	if hasAVX512 && g.o >= 8 {
		// Eight channels by two blocks of pixels: a weight broadcast
		// serves both blocks (Xeon SPR, one 3×3 block of 144 taps from
		// cache: 161 GFLOP/s as 16 channels by one block, 180 as 8 by 2).
		d.oc, d.vecs = 8, 2
	}
	d.blocks = (g.o + d.oc - 1) / d.oc
	if d.oc == 6 {
		// Whole blocks of four rather than a shifted block of six that
		// computes some channels twice (Xeon SPR, avx2, 1 worker, batch
		// 64, benchstat n=6: ResNet-20's 16→16 channels at 32² 3.34 →
		// 3.10 ms, 16→32 at stride 2 2.04 → 1.89 ms).
		for fours := 1; fours <= 2; fours++ {
			if rest := g.o - 4*fours; g.o%6 != 0 && rest >= 6 && rest%6 == 0 {
				d.fours, d.blocks = fours, rest/6+fours
				break
			}
		}
	}
	bw := 16
	if !d.wide {
		bw = 8
	}
	d.rows = (g.oh + d.unitRows() - 1) / d.unitRows()
	// The rows of a last unit past the output read zeros.
	oh := d.rows * d.unitRows()
	d.cols = (g.ow + bw - 1) / bw
	d.hp = max(g.h+2*g.ph, (oh-1)*g.sh+g.kh)
	d.wph = max((g.w+2*g.pw+g.sw-1)/g.sw, d.cols*bw+(g.kw-1)/g.sw)
	d.wrow = g.sw * d.wph
	return d
}

// convPaddedJob is one image of a direct convolution, split into units: a
// block of output channels by a block of output rows.
type convPaddedJob struct {
	g     convGeom
	d     convDirect
	xp    []float32 // the padded image [C, hp, wrow]
	offs  []int32   // byte offset in xp of each (c, p, q), in weight order
	w     []float32
	bias  []float32
	out   []float32 // the image's output [O, OH, OW]
	res   []float32 // the residual the kernels add (flags&flagResidual), laid out as out, or nil
	flags int
	act   Activation // applied to each unit's rows after its kernel calls when postAct
}

var convPaddedTasks = taskPool((*convPaddedJob).units)

// paddedImages convolves images [lo, hi) with the direct kernel from a
// zero-padded copy of each image; parallel spreads each image's units over
// the worker pool.
func (j *convJob) paddedImages(lo, hi int, parallel bool) {
	g := &j.g
	d := newConvDirect(g)
	units := d.blocks * d.rows
	scratch, xp, offs, _ := j.paddedScratch(&d, 0)
	flags := j.kernelFlags()
	if j.fuseRes {
		// The residual is added to the accumulators (Xeon SPR, 1
		// worker, ResNet-20's 16 channels at 32², batch 64, with ReLU:
		// 2.28 → 2.13 ms on AVX-512 against a chunk of images at a
		// time, then the add).
		flags |= flagResidual
		if j.resAct == ActReLU {
			flags |= flagReLU
		}
	}
	inSize, outSize := g.c*g.h*g.w, g.o*g.p
	for n := lo; n < hi; n++ {
		j.fillPadded(xp, j.x[n*inSize:(n+1)*inSize], &d)
		job := convPaddedJob{g: *g, d: d, xp: xp, offs: offs, w: j.w, bias: j.bias,
			out: j.out[n*outSize : (n+1)*outSize], flags: flags, act: j.act}
		if j.fuseRes {
			job.res = j.res[n*outSize : (n+1)*outSize]
		}
		if parallel && Workers() > 1 && units > 1 {
			runPooled(convPaddedTasks, units, job)
		} else {
			job.units(0, units)
		}
	}
	convScratch.Put(scratch)
}

// paddedScratch returns a pooled buffer (for convScratch) that holds the
// padded image xp of d, its padding cleared, then the byte offset in xp of
// each tap (c, p, q) in the filters' order (int32s in float32 slots), then
// extra floats for the caller.
func (j *convJob) paddedScratch(d *convDirect, extra int) (scratch *[]float32, xp []float32, offs []int32, rest []float32) {
	g := &j.g
	k := g.c * g.kh * g.kw
	size := g.c * d.hp * d.wrow
	scratch = getConvScratch(size + k + extra)
	xp = (*scratch)[:size]
	offs = unsafe.Slice((*int32)(unsafe.Pointer(&(*scratch)[size])), k)
	for c := 0; c < g.c; c++ {
		for p := 0; p < g.kh; p++ {
			for q := 0; q < g.kw; q++ {
				offs[(c*g.kh+p)*g.kw+q] = int32(((c*d.hp+p)*d.wrow + q%g.sw*d.wph + q/g.sw) * 4)
			}
		}
	}
	clearPadding(xp, g, d)
	return scratch, xp, offs, (*scratch)[size+k:]
}

// kernelFlags returns the flags of the direct and depthwise kernels for
// j: its bias and its ReLU, applied in the kernels' epilogue.
func (j *convJob) kernelFlags() int {
	flags := 0
	if j.bias != nil {
		flags |= flagBias
	}
	if j.act == ActReLU {
		flags |= flagReLU
	}
	return flags
}

// units computes units [lo, hi) of the image.
func (j *convPaddedJob) units(lo, hi int) { j.directUnits(lo, hi) }

// clearPadding zeroes what fillPadded does not write in the padded image
// xp: its padding rows and, in every phase of the other rows, the
// columns left and right of the image and the room after them.
// Rows shorter than 128 floats are cleared whole: their borders are
// too short for a call to clear each.
func clearPadding(xp []float32, g *convGeom, d *convDirect) {
	if d.wrow < 128 {
		clear(xp)
		return
	}
	for c := 0; c < g.c; c++ {
		for yp := 0; yp < d.hp; yp++ {
			row := xp[(c*d.hp+yp)*d.wrow : (c*d.hp+yp+1)*d.wrow]
			if yp < g.ph || yp >= g.h+g.ph {
				clear(row)
				continue
			}
			for r := 0; r < g.sw; r++ {
				// Phase r holds padded columns i·sw + r; the image is
				// at [pw, pw+W).
				phase := row[r*d.wph : (r+1)*d.wph]
				lo := min(d.wph, max(0, (g.pw-r+g.sw-1)/g.sw))
				hi := min(d.wph, max(lo, (g.pw+g.w-r+g.sw-1)/g.sw))
				clear(phase[:lo])
				clear(phase[hi:])
			}
		}
	}
}

// fillPadded copies the image xn [C, H, W] into the padded image xp
// (zeros where nothing is copied), phase by phase.
func (j *convJob) fillPadded(xp, xn []float32, d *convDirect) {
	g := &j.g
	if g.sw == 1 {
		// One call a channel rather than a copy a row (Xeon SPR, 1
		// worker, ResNet-20's 16 channels at 32², batch 64: the copies
		// took 9 % of its direct convolutions' time).
		for c := 0; c < g.c; c++ {
			copyRows(xp[(c*d.hp+g.ph)*d.wrow+g.pw:], d.wrow, xn[c*g.h*g.w:], g.w, g.h, g.w)
		}
		return
	}
	for c := 0; c < g.c; c++ {
		split := 0
		if g.sw == 2 {
			// Input pairs (2i, 2i+1) land at the same index of the two
			// phases, shifted by the padding: all rows of the channel in
			// one call (Xeon SPR, avx512, 1 worker, 16→32 channels at
			// 32², batch 64: a call a row took 27 % of the convolution).
			pa, pb := g.pw%2, (g.pw+1)%2
			ia, ib := g.pw/2, (g.pw+1)/2
			row0 := xp[(c*d.hp+g.ph)*d.wrow:]
			split = deinterleaveRowPairs(row0[pa*d.wph+ia:], row0[pb*d.wph+ib:], d.wrow, xn[c*g.h*g.w:], g.w, g.h, g.w)
		}
		for y := 0; y < g.h; y++ {
			yp := y + g.ph
			src := xn[(c*g.h+y)*g.w : (c*g.h+y+1)*g.w]
			row := xp[(c*d.hp+yp)*d.wrow : (c*d.hp+yp+1)*d.wrow]
			if g.sw == 2 {
				for z := split; z < g.w; z++ {
					zp := z + g.pw
					row[zp%2*d.wph+zp/2] = src[z]
				}
				continue
			}
			for r := 0; r < g.sw; r++ {
				// Padded columns zp ≡ r (mod sw) that hold an input
				// column: zp = z + pw with 0 ≤ z < W.
				zp := r
				for zp < g.pw {
					zp += g.sw
				}
				dst := row[r*d.wph : (r+1)*d.wph]
				for i := zp / g.sw; zp-g.pw < g.w; i, zp = i+1, zp+g.sw {
					dst[i] = src[zp-g.pw]
				}
			}
		}
	}
}

// directUnits computes units [lo, hi) of a direct convolution: unit u is
// channel block u / rows and row unit u % rows, all its column blocks. The
// last block of channels is shifted back to end at the last channel, its
// first channels (those of the block before) skipped.
func (j *convPaddedJob) directUnits(lo, hi int) {
	g, d := &j.g, &j.d
	k := g.c * g.kh * g.kw
	ldo := g.p * 4
	var bias0 float32 // read by no one when flags has no bias
	for u := lo; u < hi; u++ {
		b, r := u/d.rows, u%d.rows
		o0, skip, four := d.block(b, g.o)
		flags := j.flags
		if four {
			flags |= flagFourChannels
		}
		bias := &bias0
		if j.bias != nil {
			bias = &j.bias[o0]
		}
		w := &j.w[o0*k]
		if d.vecs == 2 {
			j.units8x2(r*d.unitRows(), o0, skip, w, bias)
			continue
		}
		i, xstep2, ostep2 := r, 32, 32
		if !d.wide {
			i, xstep2, ostep2 = 2*r, g.sh*d.wrow*4, g.ow*4
		}
		for cb := 0; cb < d.cols; cb++ {
			var jx, cnt0, cnt1 int
			if d.wide {
				jx = cb * 16
				cnt0, cnt1 = min(8, g.ow-jx), min(8, max(0, g.ow-jx-8))
			} else {
				jx = cb * 8
				cnt0 = min(8, g.ow-jx)
				if i+1 < g.oh {
					cnt1 = cnt0
				}
			}
			at := (o0*g.oh+i)*g.ow + jx
			convBlockAVX2(k, &j.offs[0], &j.xp[i*g.sh*d.wrow+jx], xstep2, w, k*4,
				&j.out[at], ostep2, ldo, skip, bias, flags, cnt0, cnt1, j.resAt(at))
		}
		j.postActUnit(i, o0+skip, o0+d.oc)
	}
}

// units8x2 computes the unit of output rows from i and channels o0+skip
// .. o0+7 with the AVX-512 kernel: per column block, two vectors of
// sixteen pixels (rows i and i+1, or rows i..i+3 in halves of eight).
func (j *convPaddedJob) units8x2(i, o0, skip int, w, bias *float32) {
	g, d := &j.g, &j.d
	k := g.c * g.kh * g.kw
	xrow, orow := g.sh*d.wrow*4, g.ow*4 // bytes from one row to the next
	xhalf, xvec, ohalf, ovec := 32, xrow, 32, orow
	if !d.wide {
		xhalf, xvec, ohalf, ovec = xrow, 2*xrow, orow, 2*orow
	}
	for cb := 0; cb < d.cols; cb++ {
		var jx, masks int
		if d.wide {
			jx = cb * 16
			lanes := 1<<min(16, g.ow-jx) - 1
			masks = lanes
			if i+1 < g.oh {
				masks |= lanes << 16
			}
		} else {
			jx = cb * 8
			lanes := 1<<min(8, g.ow-jx) - 1
			for h := range 4 { // vector h/2, half h%2: row i+h
				if i+h < g.oh {
					masks |= lanes << (8 * h)
				}
			}
		}
		at := (o0*g.oh+i)*g.ow + jx
		convBlock8x2AVX512(k, &j.offs[0], &j.xp[i*g.sh*d.wrow+jx], xhalf, xvec, w, k*4,
			&j.out[at], ohalf, ovec, g.p*4, skip, bias, j.flags, masks, j.resAt(at))
	}
	j.postActUnit(i, o0+skip, o0+d.oc)
}

// resAt returns the residual's element at out's index at, or nil when
// the kernels add none.
func (j *convPaddedJob) resAt(at int) *float32 {
	if j.res == nil {
		return nil
	}
	return &j.res[at]
}

// postActUnit applies a post-activation to the unit's rows from i of
// channels [lo, hi) while they are in cache.
func (j *convPaddedJob) postActUnit(i, lo, hi int) {
	if !postAct(j.act) {
		return
	}
	g := &j.g
	rows := min(j.d.unitRows(), g.oh-i)
	for o := lo; o < hi; o++ {
		actBlock(j.out[(o*g.oh+i)*g.ow:(o*g.oh+i+rows)*g.ow], j.act)
	}
}
