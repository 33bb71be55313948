// The depthwise convolution of the AVX2 and AVX-512 tiers (groups = input
// channels = output channels): each channel convolved with its own filter from the
// zero-padded image of the direct convolution, four output rows by
// sixteen output pixels at a time, or eight channels interleaved
// (conv_depthwise8_amd64.go); MobileNet's 3×3 layers on the AVX-512 tier
// run from the planes themselves (conv_depthwise_plane_amd64.go).

//go:build amd64 && !noasm

package runtime

import (
	"math"
	"unsafe"
)

// convDepthwiseAVX2 computes one block of four output rows by two halves
// of eight output pixels of one channel; see conv_depthwise_avx2_amd64.s.
//
//go:noescape
func convDepthwiseAVX2(k int, offs *int32, x *float32, rowstep int, w *float32,
	out *float32, ostep, rows int, bias *float32, flags, cnt0, cnt1 int)

// dwRows is the number of output rows of a depthwise block.
const dwRows = 4

// convDepthwiseOK reports whether the depthwise kernel computes a
// convolution of geometry g with groups groups: on the AVX2 tier, and on
// the AVX-512 tier too, whose alternative is im2col and a one-row GEMM per
// channel; one input and one output channel per group, and a kernel at
// least as large as its stride.
func convDepthwiseOK(g *convGeom, groups int) bool {
	if !hasAVX2FMA || groups != g.c || g.o != g.c || groups < 2 || g.kh < g.sh || g.kw < g.sw {
		return false
	}
	d := newConvDepthwise(g)
	return float64(g.c)*float64(d.hp)*float64(d.wrow)*4 < math.MaxInt32
}

// newConvDepthwise lays out the padded image of a depthwise convolution:
// the direct convolution's phases, with rows enough for whole blocks of
// dwRows output rows and whole 16-pixel blocks.
func newConvDepthwise(g *convGeom) convDirect {
	d := convDirect{wide: true, rows: (g.oh + dwRows - 1) / dwRows, cols: (g.ow + 15) / 16}
	d.hp = max(g.h+2*g.ph, (d.rows*dwRows-1)*g.sh+g.kh)
	d.wph = max((g.w+2*g.pw+g.sw-1)/g.sw, d.cols*16+(g.kw-1)/g.sw)
	d.wrow = g.sw * d.wph
	return d
}

// depthwiseImages convolves images [lo, hi) with the depthwise kernel.
// Each channel is padded into a small plane of its task's own and
// convolved while the plane is in cache, so the input is read once and
// no padded copy of the whole image goes through memory; parallel
// spreads each image's channels over the worker pool.
func (j *convJob) depthwiseImages(lo, hi int, parallel bool) {
	g := &j.g
	flags := j.kernelFlags()
	inSize, outSize := g.c*g.h*g.w, g.o*g.p
	var w8, bias8 []float32
	plane := depthwisePlaneOK(g, j.groups)
	if !plane && useDepthwise8(g) {
		scratch := getConvScratch(depthwise8ParamSize(g))
		defer convScratch.Put(scratch)
		w8, bias8 = interleaveDepthwise8Params(*scratch, g, j.w, j.bias)
	}
	for n := lo; n < hi; n++ {
		job := convDepthwiseJob{g: *g, x: j.x[n*inSize : (n+1)*inSize], w: j.w, bias: j.bias,
			out: j.out[n*outSize : (n+1)*outSize], flags: flags, act: j.act, w8: w8, bias8: bias8}
		units, tasks, run := g.c, convDepthwiseTasks, job.channels
		switch {
		case plane:
			tasks, run = convDepthwisePlaneTasks, job.channelsPlane
		case w8 != nil:
			units, tasks, run = (g.c+7)/8, convDepthwise8Tasks, job.channels8
		}
		if parallel && Workers() > 1 && units > 1 {
			runPooled(tasks, units, job)
		} else {
			run(0, units)
		}
	}
}

// convDepthwiseJob is one image of a depthwise convolution, split by
// channel.
type convDepthwiseJob struct {
	g               convGeom
	x, w, bias, out []float32 // x is the image [C, H, W], out [C, OH, OW]
	flags           int
	act             Activation // applied to each channel's plane after the kernel when postAct
	w8, bias8       []float32  // the interleaved path's weights and bias (see channels8)
}

var (
	convDepthwiseTasks  = taskPool((*convDepthwiseJob).channels)
	convDepthwise8Tasks = taskPool((*convDepthwiseJob).channels8)
)

// channels convolves channels [lo, hi) through one padded plane.
func (j *convDepthwiseJob) channels(lo, hi int) {
	g := j.g
	g.c, g.o = 1, 1 // the geometry of one plane
	d := newConvDepthwise(&g)
	k := g.kh * g.kw
	size := d.hp * d.wrow
	scratch := getConvScratch(size + k)
	plane := (*scratch)[:size]
	offs := unsafe.Slice((*int32)(unsafe.Pointer(&(*scratch)[size])), k)
	for p := 0; p < g.kh; p++ {
		for q := 0; q < g.kw; q++ {
			offs[p*g.kw+q] = int32((p*d.wrow + q%g.sw*d.wph + q/g.sw) * 4)
		}
	}
	clearPadding(plane, &g, &d) // the plane's interior is all a fill writes
	one := convJob{g: g}
	var bias0 float32 // read by no one when flags has no bias
	inPlane, outPlane := g.h*g.w, g.oh*g.ow
	for c := lo; c < hi; c++ {
		one.fillPadded(plane, j.x[c*inPlane:(c+1)*inPlane], &d)
		bias := &bias0
		if j.bias != nil {
			bias = &j.bias[c]
		}
		out := j.out[c*outPlane : (c+1)*outPlane]
		for i := 0; i < g.oh; i += dwRows {
			rows := min(dwRows, g.oh-i)
			base := i * g.sh * d.wrow
			for jx := 0; jx < g.ow; jx += 16 {
				cnt0, cnt1 := min(8, g.ow-jx), min(8, max(0, g.ow-jx-8))
				if g.ow <= 16 {
					// One column block covers each row, so whole vectors
					// running past a row's end land in rows this task
					// writes later (this channel's next rows, then the
					// next channels'): store them whole, short of the
					// end of the task's output, and skip the slow masks.
					whole := 8
					if g.ow > 8 {
						whole = 16
					}
					if (c*g.oh+i+rows-1)*g.ow+whole <= hi*outPlane {
						cnt0, cnt1 = 8, whole-8
					}
				}
				convDepthwiseAVX2(k, &offs[0], &plane[base+jx], g.sh*d.wrow*4, &j.w[c*k],
					&out[i*g.ow+jx], g.ow*4, rows, bias, j.flags, cnt0, cnt1)
			}
		}
		if postAct(j.act) {
			actBlock(out, j.act)
		}
	}
	convScratch.Put(scratch)
}
