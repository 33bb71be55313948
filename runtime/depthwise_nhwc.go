// This file holds the depthwise convolution of channels-last (NHWC)
// images, which the layout pass gives chains of 1×1 and depthwise
// convolutions (MobileNet's blocks) so that the 1×1 ones are plain
// matrix products and nothing is transposed between them.

package runtime

// DepthwiseFilters are a depthwise convolution's filters [C, 1, KH, KW]
// rearranged once, tap by tap ([KH·KW, C]), for
// DepthwiseConv2dNHWCPrepared. They are immutable and safe for concurrent
// use.
type DepthwiseFilters struct {
	c, kh, kw int
	taps      []float32 // taps[t·c + i] = w[i, 0, t / kw, t % kw]
}

// PrepareDepthwiseNHWC rearranges the filters w [C, 1, KH, KW] of a
// depthwise convolution for DepthwiseConv2dNHWCPrepared.
func PrepareDepthwiseNHWC(w *Array) *DepthwiseFilters {
	const name = "PrepareDepthwiseNHWC"
	checkDType(name, "weight", w, Float32)
	if len(w.Shape) != 4 || w.Shape[1] != 1 {
		kernelPanic(name, "weight shape %v, want [C, 1, KH, KW]", w.Shape)
	}
	c, kh, kw := w.Shape[0], w.Shape[2], w.Shape[3]
	f := &DepthwiseFilters{c: c, kh: kh, kw: kw, taps: make([]float32, kh*kw*c)}
	for i := range c {
		for t := range kh * kw {
			f.taps[t*c+i] = w.F32[i*kh*kw+t]
		}
	}
	return f
}

// DepthwiseConv2dNHWC sets out [N, OH, OW, C] to the depthwise convolution
// of the channels-last images x [N, H, W, C] with the filters w
// [C, 1, KH, KW] plus bias [C] (nil for none), zero padding, then the
// activation act (an Activation):
//
//	out[n, y, x, i] = act(Σ_{p,q} w[i, 0, p, q]·x[n, y·sh+p−ph, x·sw+q−pw, i] + bias[i])
//
// It is conv2d with groups = C of the same images in NCHW, permuted.
func DepthwiseConv2dNHWC(out, x, w, bias *Array, stride, padding []int, act int) {
	DepthwiseConv2dNHWCPrepared(out, x, PrepareDepthwiseNHWC(w), bias, stride, padding, act)
}

// DepthwiseConv2dNHWCPrepared is DepthwiseConv2dNHWC with filters
// prepared by PrepareDepthwiseNHWC.
func DepthwiseConv2dNHWCPrepared(out, x *Array, w *DepthwiseFilters, bias *Array, stride, padding []int, act int) {
	const name = "DepthwiseConv2dNHWC"
	a := checkAct(name, act)
	if w == nil {
		kernelPanic(name, "nil DepthwiseFilters")
	}
	checkDType(name, "x", x, Float32)
	checkDType(name, "out", out, Float32)
	if len(x.Shape) != 4 || x.Shape[3] != w.c {
		kernelPanic(name, "x shape %v, want [N, H, W, %d]", x.Shape, w.c)
	}
	var b []float32
	if bias != nil {
		checkDType(name, "bias", bias, Float32)
		if len(bias.Shape) != 1 || bias.Shape[0] != w.c {
			kernelPanic(name, "bias shape %v, want [%d]", bias.Shape, w.c)
		}
		b = bias.F32
	}
	j := dwNHWCJob{w: w, bias: b, act: a}
	j.n, j.h, j.wd = x.Shape[0], x.Shape[1], x.Shape[2]
	j.sh, j.sw = pair2(name, "stride", stride)
	j.ph, j.pw = pair2(name, "padding", padding)
	if j.sh < 1 || j.sw < 1 || j.ph < 0 || j.pw < 0 {
		kernelPanic(name, "stride %v and padding %v: want strides ≥ 1 and paddings ≥ 0", dupInts(stride), dupInts(padding))
	}
	if j.h+2*j.ph < w.kh || j.wd+2*j.pw < w.kw {
		kernelPanic(name, "kernel %dx%d larger than the padded input %v with padding %d,%d", w.kh, w.kw, x.Shape, j.ph, j.pw)
	}
	j.oh, j.ow = (j.h+2*j.ph-w.kh)/j.sh+1, (j.wd+2*j.pw-w.kw)/j.sw+1
	checkShape(name, "out", out, j.n, j.oh, j.ow, w.c)
	j.x, j.out = x.F32, out.F32
	rows := j.n * j.oh
	if rows == 0 || w.c == 0 {
		return
	}
	if Workers() > 1 && float64(len(j.out))*float64(w.kh*w.kw) >= float64(elementwiseParallelMin) {
		runPooled(dwNHWCTasks, rows, j)
		return
	}
	j.rows(0, rows)
}

// dwNHWCJob is one DepthwiseConv2dNHWC call, split by output rows.
type dwNHWCJob struct {
	w                *DepthwiseFilters
	bias             []float32
	act              Activation
	x, out           []float32
	n, h, wd, oh, ow int
	sh, sw, ph, pw   int
}

var dwNHWCTasks = taskPool((*dwNHWCJob).rows)

// rows computes output rows [lo, hi) (row r is image r / oh, row r % oh):
// a 3×3 convolution with padding at most 1 and channels in blocks of
// eight runs the columns whose taps all fall in the image with the row
// kernel where the tier has one; the other pixels go one at a time, the
// taps that fall in the image, each a vector of all the channels.
func (j *dwNHWCJob) rows(lo, hi int) {
	c, kh, kw := j.w.c, j.w.kh, j.w.kw
	var offBuf, tapBuf [64]int
	offs, taps := offBuf[:0], tapBuf[:0]
	if kh*kw > len(offBuf) {
		offs, taps = make([]int, 0, kh*kw), make([]int, 0, kh*kw)
	}
	rowKernel := kh == 3 && kw == 3 && j.ph <= 1 && j.pw <= 1 && c%8 == 0
	for r := lo; r < hi; r++ {
		n, y := r/j.oh, r%j.oh
		img := j.x[n*j.h*j.wd*c : (n+1)*j.h*j.wd*c]
		row := j.out[(r*j.ow)*c : (r+1)*j.ow*c]
		// Columns [x0, x1) have their three taps in the image.
		x0, x1 := 0, 0
		if rowKernel {
			x0 = (j.pw + j.sw - 1) / j.sw
			x1 = max(x0, min(j.ow, (j.wd-3+j.pw)/j.sw+1))
			if !dwRowAsm(row[x0*c:x1*c], img, j.w.taps, j.bias, c, y*j.sh-j.ph, j.h, x0*j.sw-j.pw, j.wd, j.sw, j.act == ActReLU) {
				x0, x1 = 0, 0
			}
		}
		for x := 0; x < j.ow; x++ {
			if x == x0 && x1 > x0 {
				x = x1 - 1
				continue
			}
			offs, taps = offs[:0], taps[:0]
			for p := range kh {
				iy := y*j.sh + p - j.ph
				if iy < 0 || iy >= j.h {
					continue
				}
				for q := range kw {
					ix := x*j.sw + q - j.pw
					if ix < 0 || ix >= j.wd {
						continue
					}
					offs = append(offs, (iy*j.wd+ix)*c)
					taps = append(taps, (p*kw+q)*c)
				}
			}
			dwPixel(row[x*c:(x+1)*c], img, offs, j.w.taps, taps, j.bias, j.act == ActReLU)
		}
		if postAct(j.act) {
			actBlock(row, j.act)
		}
	}
}

// dwPixel sets dst[i] = Σ_t wt[taps[t]+i]·x[offs[t]+i] (+ bias[i]), then
// max(0, ·) keeping NaN when relu, for the channels i < len(dst): with the
// vector kernel where the tier has one, the rest in Go.
func dwPixel(dst, x []float32, offs []int, wt []float32, taps []int, bias []float32, relu bool) {
	lo := dwPixelAsm(dst, x, offs, wt, taps, bias, relu)
	for i := lo; i < len(dst); i++ {
		var s float32
		for t, o := range offs {
			s += wt[taps[t]+i] * x[o+i]
		}
		if bias != nil {
			s += bias[i]
		}
		if relu && s < 0 {
			s = 0
		}
		dst[i] = s
	}
}
