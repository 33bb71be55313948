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
func depthwisePlaneOK(g *convGeom, groups int) bool {
	return hasAVX512 && groups == g.c && g.o == g.c && groups >= 2 && g.kh == 3 && g.kw == 3 &&
		g.sh == g.sw && (g.sh == 1 || g.sh == 2) && g.ph == 1 && g.pw == 1
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
	if g.sh == 1 {
		masks := depthwisePlaneMasks(g.h, g.w)
		depthwisePlaneAVX512(&j.x[lo*in], &j.w[lo*9], &out[0], &masks[0], len(masks)/18, g.w*4, in*4, hi-lo, bias, j.flags)
	} else {
		depthwisePlane2AVX512(&j.x[lo*in], &j.w[lo*9], &out[0], g.h, g.w, g.oh, g.ow, hi-lo, bias, j.flags)
	}
	if postAct(j.act) {
		actBlock(out, j.act)
	}
}

var convDepthwisePlaneTasks = taskPool((*convDepthwiseJob).channelsPlane)
