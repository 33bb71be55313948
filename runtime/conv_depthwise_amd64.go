// The depthwise convolution of the AVX2 tier (groups = input channels =
// output channels): each channel convolved with its own filter from the
// zero-padded image of the direct convolution, four output rows by
// sixteen output pixels at a time.

//go:build amd64 && !noasm

package runtime

import "math"

// convDepthwiseAVX2 computes one block of four output rows by two halves
// of eight output pixels of one channel; see conv_depthwise_avx2_amd64.s.
//
//go:noescape
func convDepthwiseAVX2(k int, offs *int32, x *float32, rowstep int, w *float32,
	out *float32, ostep, rows int, bias *float32, flags, cnt0, cnt1 int)

// dwRows is the number of output rows of a depthwise block.
const dwRows = 4

// convDepthwiseOK reports whether the depthwise kernel computes a
// convolution of geometry g with groups groups: on the AVX2 tier, one
// input and one output channel per group, and a kernel at least as large
// as its stride.
func convDepthwiseOK(g *convGeom, groups int) bool {
	if !hasAVX2FMA || hasAVX512 || groups != g.c || g.o != g.c || groups < 2 || g.kh < g.sh || g.kw < g.sw {
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

// depthwiseUnits computes units [lo, hi) of a depthwise convolution: unit
// u is channel u / rows and block of output rows u % rows, all its column
// blocks.
func (j *convPaddedJob) depthwiseUnits(lo, hi int) {
	g, d := &j.g, &j.d
	k := g.kh * g.kw
	var bias0 float32 // read by no one when flags has no bias
	for u := lo; u < hi; u++ {
		c, rb := u/d.rows, u%d.rows
		bias := &bias0
		if j.bias != nil {
			bias = &j.bias[c]
		}
		i := rb * dwRows
		rows := min(dwRows, g.oh-i)
		base := (c*d.hp + i*g.sh) * d.wrow
		for cb := 0; cb < d.cols; cb++ {
			jx := cb * 16
			cnt0, cnt1 := min(8, g.ow-jx), min(8, max(0, g.ow-jx-8))
			convDepthwiseAVX2(k, &j.offs[0], &j.xp[base+jx], g.sh*d.wrow*4, &j.w[c*k],
				&j.out[(c*g.oh+i)*g.ow+jx], g.ow*4, rows, bias, j.flags, cnt0, cnt1)
		}
	}
}
