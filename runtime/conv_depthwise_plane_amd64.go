// The 3×3 depthwise convolutions of the AVX-512 tier with padding 1 and
// stride 1 or 2 (MobileNet's): each channel's plane convolved where it
// lies, sixteen output floats at a time, with lane masks in place of
// padding.

//go:build amd64 && !noasm

package runtime

import "sync"

// depthwisePlaneAVX512 convolves consecutive planes with stride 1; see
// conv_depthwise_plane_avx512_amd64.s.
//
//go:noescape
func depthwisePlaneAVX512(x *float32, w *float32, out *float32, masks *uint16,
	pairs, rowBytes, planeBytes, channels int, bias *float32, flags int)

// depthwisePlaneOK reports whether a plane kernel computes a convolution
// of geometry g with groups groups: on the AVX-512 tier, a depthwise 3×3
// convolution with padding 1 and stride 1 (whose output plane is its
// input plane's size) or 2 (MobileNetV2's downsampling). They read no
// padded copy and transpose nothing, where the channel-interleaved path
// spends half its time moving planes in and out of its layout (Xeon
// Sapphire Rapids, 1 worker: 576 channels at 14², batch 8, transposes 51 %
// of the time).
//
// On the AVX2 tier, a row kernel takes those with stride 1 and rows of 8
// to len(dwZeros) floats, where the channel-interleaved path transposes
// (Xeon SPR, AVX2 tier, 1 worker, benchstat n=6, depthwise-separable
// blocks at batch 8: 24→144→24 at 56² 8.40 → 7.72 ms, 32→192→32 at 28²
// 2.66 → 2.50 ms, 32→96→24 at 112² 35.6 → 34.4 ms; 7² and 14² unchanged).
func depthwisePlaneOK(g *convGeom, groups int) bool {
	if groups != g.c || g.o != g.c || groups < 2 || g.kh != 3 || g.kw != 3 || g.sh != g.sw || g.ph != 1 || g.pw != 1 {
		return false
	}
	if hasAVX512 {
		return g.sh == 1 || g.sh == 2
	}
	if g.sh == 2 {
		// Even rows, split into their even and odd columns whole.
		return depthwiseRows2OK(g.w)
	}
	return g.sh == 1 && depthwiseRowsOK(g.w)
}

// depthwiseRows2AVX2 convolves one plane with stride 2 on the AVX2 tier,
// from its even and odd columns; see conv_depthwise_rows_avx2_amd64.s.
//
//go:noescape
func depthwiseRows2AVX2(e, o, w, out *float32, h, oh, ow int, bias *float32, flags int,
	zeros *float32, masks *[3][8]int32)

// depthwiseRowsAVX2 convolves consecutive planes with stride 1 on the AVX2
// tier; see conv_depthwise_rows_avx2_amd64.s.
//
//go:noescape
func depthwiseRowsAVX2(x, w, out *float32, h, wd, channels int, bias *float32, flags int,
	zeros *float32, masks *[3][8]int32)

// dwZeros is the row of zeros depthwiseRowsAVX2 reads above a plane's
// first row and below its last; it is never written.
var dwZeros [2048]float32

// dwRowMasks are depthwiseRowsAVX2's lane masks: all lanes, all but the
// first, all but the last.
var dwRowMasks = [3][8]int32{
	{-1, -1, -1, -1, -1, -1, -1, -1},
	{0, -1, -1, -1, -1, -1, -1, -1},
	{-1, -1, -1, -1, -1, -1, -1, 0},
}

// depthwisePlaneMasks returns the tap masks of the plane kernel for planes
// of h rows of w floats: for block b of sixteen floats of the flattened
// plane and tap (p, q), masks[9b+3p+q] has bit l set when float i = 16b+l
// is in the plane and its tap x[i + (p−1)w + q − 1] is too. The blocks
// come in pairs, the kernel's step; a last block past the plane has no bits
// set. The masks of each plane size are made once and kept.
func depthwisePlaneMasks(h, w int) []uint16 {
	key := [2]int{h, w}
	if m, ok := planeMasks.Load(key); ok {
		return m.([]uint16)
	}
	blocks := (h*w + 31) / 32 * 2
	masks := make([]uint16, 9*blocks)
	for i := range h * w {
		y, x := i/w, i%w
		for p := range 3 {
			for q := range 3 {
				if yy, xx := y+p-1, x+q-1; 0 <= yy && yy < h && 0 <= xx && xx < w {
					masks[9*(i/16)+3*p+q] |= 1 << (i % 16)
				}
			}
		}
	}
	m, _ := planeMasks.LoadOrStore(key, masks)
	return m.([]uint16)
}

// planeMasks holds the masks of depthwisePlaneMasks by plane size.
var planeMasks sync.Map // [2]int{h, w} → []uint16

// depthwisePlane2AVX512 convolves consecutive planes with stride 2; see
// conv_depthwise_plane2_avx512_amd64.s.
//
//go:noescape
func depthwisePlane2AVX512(x *float32, w *float32, out *float32, h, wd, oh, ow, channels int, bias *float32, flags int)

// channelsPlane convolves channels [lo, hi) of one image with the plane
// kernel of its stride, in one call.
func (j *convDepthwiseJob) channelsPlane(lo, hi int) {
	g := &j.g
	in, plane := g.h*g.w, g.oh*g.ow
	var bias0 float32 // read by no one when flags has no bias
	bias := &bias0
	if j.bias != nil {
		bias = &j.bias[lo]
	}
	out := j.out[lo*plane : hi*plane]
	_, _ = j.x[hi*in-1], j.w[hi*9-1] // what the kernels read
	switch {
	case !hasAVX512 && g.sh == 2:
		// Each plane split into its even and odd columns, in cache.
		scratch := getConvScratch(in)
		e, o := (*scratch)[:in/2], (*scratch)[in/2:in]
		for c := lo; c < hi; c++ {
			xc := j.x[c*in : (c+1)*in]
			for z := deinterleavePairs(e, o, xc); z < in; z += 2 {
				e[z/2], o[z/2] = xc[z], xc[z+1]
			}
			b := &bias0
			if j.bias != nil {
				b = &j.bias[c]
			}
			depthwiseRows2AVX2(&e[0], &o[0], &j.w[c*9], &out[(c-lo)*plane], g.h, g.oh, g.ow, b, j.flags, &dwZeros[0], &dwRowMasks)
		}
		convScratch.Put(scratch)
	case !hasAVX512:
		depthwiseRowsAVX2(&j.x[lo*in], &j.w[lo*9], &out[0], g.h, g.w, hi-lo, bias, j.flags, &dwZeros[0], &dwRowMasks)
	case g.sh == 1:
		masks := depthwisePlaneMasks(g.h, g.w)
		depthwisePlaneAVX512(&j.x[lo*in], &j.w[lo*9], &out[0], &masks[0], len(masks)/18, g.w*4, in*4, hi-lo, bias, j.flags)
	default:
		depthwisePlane2AVX512(&j.x[lo*in], &j.w[lo*9], &out[0], g.h, g.w, g.oh, g.ow, hi-lo, bias, j.flags)
	}
	if postAct(j.act) {
		actBlock(out, j.act)
	}
}

var convDepthwisePlaneTasks = taskPool((*convDepthwiseJob).channelsPlane)
