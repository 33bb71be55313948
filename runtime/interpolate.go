// This file holds the resampling kernels of torch.nn.functional.interpolate
// over the last two dims: nearest and bilinear.

package runtime

import "math"

// InterpolateNearest sets out to x resampled to out's last two dims by
// nearest neighbour, as torch.nn.functional.interpolate(mode="nearest")
// (ATen's upsample_nearest2d): x is [..., H, W] (rank 3 or 4) and out
// [..., OH, OW]. scaleH and scaleW are the scale factors the caller asked
// for, or 0 when it asked for a size; as in PyTorch, a given scale maps
// indices by 1/scale, else by H/OH. The arithmetic is float32, as
// PyTorch's.
//
//	out[i, j] = x[min(⌊i·sh⌋, H-1), min(⌊j·sw⌋, W-1)]  // sh = 1/scaleH or H/OH
func InterpolateNearest(out, x *Array, scaleH, scaleW float64) {
	const name = "InterpolateNearest"
	planes, h, w, oh, ow := resampleShapes(name, out, x)
	var buf [512]int // no allocation for outputs up to 256×256
	idx := buf[:]
	if oh+ow > len(buf) {
		idx = make([]int, oh+ow)
	}
	rows, cols := idx[:oh], idx[oh:oh+ow]
	sh, sw := resampleScale(scaleH, h, oh), resampleScale(scaleW, w, ow)
	for i := range rows {
		rows[i] = min(int(float32(math.Floor(float64(float32(i)*sh)))), h-1)
	}
	for j := range cols {
		cols[j] = min(int(float32(math.Floor(float64(float32(j)*sw)))), w-1)
	}
	for pl := 0; pl < planes; pl++ {
		src := x.F32[pl*h*w : (pl+1)*h*w]
		dst := out.F32[pl*oh*ow : (pl+1)*oh*ow]
		for i, y := range rows {
			row, o := src[y*w:(y+1)*w], dst[i*ow:(i+1)*ow]
			for j, z := range cols {
				o[j] = row[z]
			}
		}
	}
}

// InterpolateBilinear sets out to x resampled to out's last two dims by
// bilinear interpolation, as torch.nn.functional.interpolate(
// mode="bilinear", align_corners=alignCorners) (ATen's
// upsample_bilinear2d): x is [..., H, W] (rank 3 or 4) and out [..., OH,
// OW]; scaleH and scaleW are as for InterpolateNearest. With
// alignCorners the corner pixels' centres match (source index
// i·(H-1)/(OH-1)); without, the corners of the images (source index
// (i+½)·sh - ½, at least 0). The arithmetic is float32, as PyTorch's.
func InterpolateBilinear(out, x *Array, alignCorners bool, scaleH, scaleW float64) {
	const name = "InterpolateBilinear"
	planes, h, w, oh, ow := resampleShapes(name, out, x)
	var buf [256]bilinearTap // no allocation for outputs up to 128×128
	taps := buf[:]
	if oh+ow > len(buf) {
		taps = make([]bilinearTap, oh+ow)
	}
	ry := bilinearTaps(taps[:oh], scaleH, h, alignCorners)
	rz := bilinearTaps(taps[oh:oh+ow], scaleW, w, alignCorners)
	for pl := 0; pl < planes; pl++ {
		src := x.F32[pl*h*w : (pl+1)*h*w]
		dst := out.F32[pl*oh*ow : (pl+1)*oh*ow]
		for i, ty := range ry {
			r0, r1 := src[ty.i0*w:(ty.i0+1)*w], src[ty.i1*w:(ty.i1+1)*w]
			o := dst[i*ow : (i+1)*ow]
			for j, tz := range rz {
				o[j] = ty.l0*(tz.l0*r0[tz.i0]+tz.l1*r0[tz.i1]) + ty.l1*(tz.l0*r1[tz.i0]+tz.l1*r1[tz.i1])
			}
		}
	}
}

// bilinearTap is the two source indices of one output index and their
// weights.
type bilinearTap struct {
	i0, i1 int
	l0, l1 float32
}

// bilinearTaps fills taps, one per output, for len(taps) outputs
// resampled from in inputs with the scale factor scale0 (0: none given),
// and returns them.
func bilinearTaps(taps []bilinearTap, scale0 float64, in int, alignCorners bool) []bilinearTap {
	n := len(taps)
	var scale float32
	switch {
	case alignCorners && n > 1:
		scale = float32(in-1) / float32(n-1)
	case !alignCorners:
		scale = resampleScale(scale0, in, n)
	}
	for i := range taps {
		src := scale * float32(i)
		if !alignCorners {
			src = max(scale*(float32(i)+0.5)-0.5, 0)
		}
		i0 := int(src)
		i1 := i0
		if i0 < in-1 {
			i1++
		}
		l1 := src - float32(i0)
		taps[i] = bilinearTap{i0: i0, i1: i1, l0: 1 - l1, l1: l1}
	}
	return taps
}

// resampleShapes checks a resampling's arrays and returns its number of
// planes, their input size and output size.
func resampleShapes(name string, out, x *Array) (planes, h, w, oh, ow int) {
	planes, h, w = poolInput(name, out, x)
	r := len(x.Shape)
	if len(out.Shape) != r || !equalInts(out.Shape[:r-2], x.Shape[:r-2]) || out.Shape[r-2] < 1 || out.Shape[r-1] < 1 || h < 1 || w < 1 {
		kernelPanic(name, "out shape %v does not resample x %v (same leading dims, sizes ≥ 1)", out.Shape, x.Shape)
	}
	return planes, h, w, out.Shape[r-2], out.Shape[r-1]
}

// resampleScale returns the source step of a dim of in inputs resampled
// to n: 1/scale when the caller gave a scale factor, else in/n.
func resampleScale(scale float64, in, n int) float32 {
	if scale > 0 {
		return float32(1 / scale)
	}
	return float32(in) / float32(n)
}
