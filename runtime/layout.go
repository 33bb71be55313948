// This file holds the moves between channels-first (NCHW) and
// channels-last (NHWC) images that Permute takes for the layout pass.

package runtime

// channelsLast sets dst[p·c+i] = src[i·hw+p] for the c channels of hw
// pixels of one image: NCHW to NHWC.
func channelsLast(dst, src []float32, c, hw int) {
	if c*hw == 0 {
		return
	}
	_, _ = dst[c*hw-1], src[c*hw-1]
	lo := channelsLastAsm(dst, src, c, hw)
	for i := lo; i < c; i++ {
		s := src[i*hw : (i+1)*hw]
		for p, v := range s {
			dst[p*c+i] = v
		}
	}
}

// channelsFirst sets dst[i·hw+p] = src[p·c+i]: NHWC to NCHW.
func channelsFirst(dst, src []float32, c, hw int) {
	if c*hw == 0 {
		return
	}
	_, _ = dst[c*hw-1], src[c*hw-1]
	lo := channelsFirstAsm(dst, src, c, hw)
	for i := lo; i < c; i++ {
		d := dst[i*hw : (i+1)*hw]
		for p := range d {
			d[p] = src[p*c+i]
		}
	}
}

// permuteChannels runs a permutation of a float32 image batch between
// NCHW and NHWC ([0, 2, 3, 1] or [0, 3, 1, 2]) image by image, and
// reports whether perm was one of them.
func permuteChannels(out, x *Array, perm []int) bool {
	if x.DType != Float32 || len(perm) != 4 || perm[0] != 0 {
		return false
	}
	n := x.Shape[0]
	switch {
	case perm[1] == 2 && perm[2] == 3 && perm[3] == 1:
		c, hw := x.Shape[1], x.Shape[2]*x.Shape[3]
		for i := range n {
			channelsLast(out.F32[i*c*hw:(i+1)*c*hw], x.F32[i*c*hw:(i+1)*c*hw], c, hw)
		}
	case perm[1] == 3 && perm[2] == 1 && perm[3] == 2:
		c, hw := x.Shape[3], x.Shape[1]*x.Shape[2]
		for i := range n {
			channelsFirst(out.F32[i*c*hw:(i+1)*c*hw], x.F32[i*c*hw:(i+1)*c*hw], c, hw)
		}
	default:
		return false
	}
	return true
}
