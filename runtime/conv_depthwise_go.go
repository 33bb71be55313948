// The depthwise convolution of the portable tier (groups = input channels
// = output channels): each channel's plane convolved tap by tap, a row of
// output pixels at a time, in loops the Go compiler keeps free of bounds
// checks. Other architectures, -tags noasm and FXGEN_ISA=generic run it;
// the AVX2 tier has its own kernels (conv_depthwise_amd64.go).

package runtime

// depthwiseGoOK reports whether the portable depthwise path computes a
// convolution of geometry g with groups groups: on the portable tier, one
// input and one output channel per group. It replaces im2col and a GEMM
// of one row per channel (Zen 3, portable tier, 1 worker, 3×3 depthwise
// of 8 images: 576 channels at 14² 53.9 → 9.2 ms, 192 at 28² 72.3 →
// 9.1 ms).
func depthwiseGoOK(g *convGeom, groups int) bool {
	return currentISA == ISAGeneric && groups == g.c && g.o == g.c && groups >= 2
}

// depthwiseGoJob is one image of a portable depthwise convolution, split
// by channel.
type depthwiseGoJob struct {
	g               convGeom
	x, w, bias, out []float32 // one image's input and output, all the filters
	act             Activation
}

var depthwiseGoTasks = taskPool((*depthwiseGoJob).channels)

// depthwiseGoImages convolves images [lo, hi) with the portable depthwise
// path; parallel spreads each image's channels over the worker pool.
func (j *convJob) depthwiseGoImages(lo, hi int, parallel bool) {
	g := &j.g
	inSize, outSize := g.c*g.h*g.w, g.o*g.p
	for n := lo; n < hi; n++ {
		job := depthwiseGoJob{g: *g, x: j.x[n*inSize : (n+1)*inSize], w: j.w, bias: j.bias,
			out: j.out[n*outSize : (n+1)*outSize], act: j.act}
		if parallel && Workers() > 1 {
			runPooled(depthwiseGoTasks, g.c, job)
		} else {
			job.channels(0, g.c)
		}
	}
}

// channels convolves channels [lo, hi): each output row starts as the
// bias and adds the taps in filter order, then takes the activation.
func (j *depthwiseGoJob) channels(lo, hi int) {
	g := &j.g
	k, inPlane := g.kh*g.kw, g.h*g.w
	for c := lo; c < hi; c++ {
		in := j.x[c*inPlane : (c+1)*inPlane]
		w := j.w[c*k : (c+1)*k]
		out := j.out[c*g.p : (c+1)*g.p]
		var b float32
		if j.bias != nil {
			b = j.bias[c]
		}
		for y := 0; y < g.oh; y++ {
			row := out[y*g.ow : (y+1)*g.ow]
			for i := range row {
				row[i] = b
			}
			for p := 0; p < g.kh; p++ {
				iy := y*g.sh - g.ph + p
				if iy < 0 || iy >= g.h {
					continue
				}
				depthwiseKernelRow(row, in[iy*g.w:(iy+1)*g.w], w[p*g.kw:(p+1)*g.kw], g.pw, g.sw)
			}
		}
		actBlock(out, j.act)
	}
}

// depthwiseKernelRow adds the taps of one kernel row wr, in order, to
// the output row: row[x] += wr[q]·src[x·stride−pad+q]. The columns whose
// taps all lie in src sum them in a register; the columns at the edges
// go tap by tap, skipping the padding.
func depthwiseKernelRow(row, src, wr []float32, pad, stride int) {
	kw := len(wr)
	// Interior columns [xa, xb): x·stride−pad ≥ 0 and
	// x·stride−pad+kw−1 < len(src).
	xa := min(len(row), (pad+stride-1)/stride)
	xb := xa
	if last := len(src) - kw + pad; last >= 0 {
		xb = max(xa, min(len(row), last/stride+1))
	}
	depthwiseEdge(row, src, wr, pad, stride, 0, xa)
	depthwiseEdge(row, src, wr, pad, stride, xb, len(row))
	if xa == xb {
		return
	}
	d, s := row[xa:xb], src[xa*stride-pad:]
	if kw == 3 && stride == 1 {
		s0, s1, s2 := s[:len(d)], s[1:len(d)+1], s[2:len(d)+2]
		w0, w1, w2 := wr[0], wr[1], wr[2]
		for i := range d {
			d[i] = d[i] + w0*s0[i] + w1*s1[i] + w2*s2[i]
		}
		return
	}
	for x := range d {
		acc, t := d[x], s[x*stride:x*stride+kw]
		for q, wq := range wr {
			acc += wq * t[q]
		}
		d[x] = acc
	}
}

// depthwiseEdge adds the taps of wr that lie in src to the output
// columns [x0, x1) of row, as depthwiseKernelRow does.
func depthwiseEdge(row, src, wr []float32, pad, stride, x0, x1 int) {
	for x := x0; x < x1; x++ {
		acc := row[x]
		for q, wq := range wr {
			if ix := x*stride - pad + q; ix >= 0 && ix < len(src) {
				acc += wq * src[ix]
			}
		}
		row[x] = acc
	}
}
