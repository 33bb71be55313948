// This file holds DepthwiseSeparable, a MobileNetV2-style block (1×1
// expansion, 3×3 depthwise, 1×1 projection) computed a band of image rows
// at a time, so that the expanded channels never leave the core's cache.

package runtime

// DepthwiseSeparable sets out [N, O, H, W] to a depthwise-separable block
// of the NCHW images x [N, C, H, W]:
//
//	e   = act1(conv2d(x, w1, b1))                        1×1, w1 [E, C, 1, 1]
//	d   = act2(conv2d(e, wd, bd, stride 1, padding 1, groups E))   wd [E, 1, 3, 3]
//	out = conv2d(d, w2, b2) + residual                   1×1, w2 [O, E, 1, 1]
//
// with the biases b1 [E], bd [E], b2 [O] and residual [N, O, H, W] nil for
// none, and act1, act2 Activations. It computes the same values as those
// three convolutions, but a band of rows of an image at a time: the band's
// expanded rows (and the two rows around it that the depthwise
// convolution reads) go into a buffer that stays in cache, the depthwise
// convolution of the band into another, and the projection of that into
// out, so that the E-channel images, the largest values of the block, are
// never written out whole (Xeon SPR, AVX2 tier, 1 worker, batch 8:
// 24→144→24 channels at 56² 6.89 → 6.14 ms, 32→96→24 at 112² 30.5 → 19.7
// ms, against the three convolutions).
func DepthwiseSeparable(out, x, w1, b1, wd, bd, w2, b2, residual *Array, act1, act2 int) {
	const name = "DepthwiseSeparable"
	j := dwsepJob{act1: checkAct(name, act1), act2: checkAct(name, act2)}
	for _, a := range []struct {
		what string
		a    *Array
	}{{"x", x}, {"out", out}, {"expansion weight", w1}, {"depthwise weight", wd}, {"projection weight", w2}} {
		checkDType(name, a.what, a.a, Float32)
	}
	if len(x.Shape) != 4 || len(w1.Shape) != 4 || len(wd.Shape) != 4 || len(w2.Shape) != 4 {
		kernelPanic(name, "x %v, weights %v %v %v: want [N, C, H, W], [E, C, 1, 1], [E, 1, 3, 3], [O, E, 1, 1]", x.Shape, w1.Shape, wd.Shape, w2.Shape)
	}
	j.n, j.c, j.h, j.w = x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	j.e, j.o = w1.Shape[0], w2.Shape[0]
	if w1.Shape[1] != j.c || w1.Shape[2] != 1 || w1.Shape[3] != 1 ||
		wd.Shape[0] != j.e || wd.Shape[1] != 1 || wd.Shape[2] != 3 || wd.Shape[3] != 3 ||
		w2.Shape[1] != j.e || w2.Shape[2] != 1 || w2.Shape[3] != 1 {
		kernelPanic(name, "weights %v %v %v for x %v: want [E, %d, 1, 1], [E, 1, 3, 3], [O, E, 1, 1]", w1.Shape, wd.Shape, w2.Shape, x.Shape, j.c)
	}
	checkShape(name, "out", out, j.n, j.o, j.h, j.w)
	j.x, j.out, j.w1, j.wd, j.w2 = x.F32, out.F32, w1.F32, wd.F32, w2.F32
	j.b1 = dwsepBias(name, "expansion bias", b1, j.e)
	j.bd = dwsepBias(name, "depthwise bias", bd, j.e)
	j.b2 = dwsepBias(name, "projection bias", b2, j.o)
	if overlaps(out, x) {
		kernelPanic(name, "out shares memory with x")
	}
	if residual != nil {
		checkResidual(name, out, residual)
		j.res = residual.F32
	}
	if j.n == 0 || j.h == 0 || j.w == 0 {
		return
	}
	j.band = max(2, dwsepBandBytes/(4*j.e*j.w))
	// An image splits into parts (each with its own first band) only at
	// batch 1, so that two workers share it.
	j.parts = 1
	if j.n == 1 && j.h >= 4*j.band {
		j.parts = 2
	}
	units := j.n * j.parts
	flops := 2 * float64(j.n*j.h*j.w) * float64(j.e) * float64(j.c+9+j.o)
	if flops < convParallelFlops || Workers() == 1 || units == 1 {
		j.units(0, units)
		return
	}
	runPooled(dwsepTasks, units, j)
}

// dwsepBandBytes is about how many bytes a band's expanded rows take: a
// band of rows is as tall as fits (at least two rows). Xeon SPR, AVX2
// tier, 1 worker, 24→144→24 channels at 56², batch 8: bands of 2, 4, 8
// and 16 rows (64 KB to 512 KB) 7.10, 6.23, 6.14 and 6.17 ms. (A variable
// for tests.)
var dwsepBandBytes = 256 << 10

var dwsepTasks = taskPool((*dwsepJob).units)

// dwsepJob is one DepthwiseSeparable call.
type dwsepJob struct {
	n, c, h, w, e, o int
	x, out, res      []float32
	w1, wd, w2       []float32
	b1, bd, b2       []float32 // nil for none
	act1, act2       Activation
	band             int // rows a band
	parts            int // parts an image's rows split into, each a unit
}

// dwsepBias returns b's floats, checking that it holds n, or nil for a
// nil b.
func dwsepBias(kernel, what string, b *Array, n int) []float32 {
	if b == nil {
		return nil
	}
	checkDType(kernel, what, b, Float32)
	checkShape(kernel, what, b, n)
	return b.F32
}

// units computes units [lo, hi): unit u is part u % parts of image
// u / parts.
func (j *dwsepJob) units(lo, hi int) {
	hw := j.h * j.w
	stride := (j.band + 2) * j.w // floats of a channel in a band buffer
	scratch := getConvScratch(2 * j.e * stride)
	defer convScratch.Put(scratch)
	expanded, convolved := (*scratch)[:j.e*stride], (*scratch)[j.e*stride:]
	for u := lo; u < hi; u++ {
		img, part := u/j.parts, u%j.parts
		x := j.x[img*j.c*hw : (img+1)*j.c*hw]
		out := j.out[img*j.o*hw : (img+1)*j.o*hw]
		var res []float32
		if j.res != nil {
			res = j.res[img*j.o*hw : (img+1)*j.o*hw]
		}
		bands := (j.h + j.band - 1) / j.band
		b0, b1 := part*bands/j.parts, (part+1)*bands/j.parts
		for b := b0; b < b1; b++ {
			j.bandRows(out, x, res, b*j.band, min(j.h, (b+1)*j.band), b > b0, expanded, convolved)
		}
	}
}

// bandRows computes rows [y0, y1) of one image's out. expanded holds, for
// each of the E channels, the expanded rows y0−1 … y1 (band + 2 rows a
// channel; zero outside the image); when next, the previous call computed
// rows y0 − band … y0 − 1, whose last two expanded rows it reuses.
func (j *dwsepJob) bandRows(out, x, res []float32, y0, y1 int, next bool, expanded, convolved []float32) {
	w, hw := j.w, j.h*j.w
	stride := (j.band + 2) * w
	rows := y1 - y0
	from := max(0, y0-1) // the first expanded row to compute
	if next {
		for ch := range j.e {
			c := expanded[ch*stride:]
			copy(c[:2*w], c[j.band*w:(j.band+2)*w])
		}
		from = y0 + 1
	}
	to := min(j.h, y1+1) // past the last
	// Row r of the image is row r − y0 + 1 of a channel's band.
	for r := y0 - 1; r <= y1; r++ {
		if r < 0 || r >= j.h {
			for ch := range j.e {
				clear(expanded[ch*stride+(r-y0+1)*w:][:w])
			}
		}
	}
	if to > from {
		dwsepGemm(j.e, (to-from)*w, j.c, j.w1, x[from*w:], hw, expanded[(from-y0+1)*w:], stride, j.b1, j.act1, nil)
	}
	// The depthwise convolution of the band's rows, from each channel's
	// band + 2 rows.
	plane := rows * w
	if !depthwiseBandAsm(convolved, expanded, j.wd, j.bd, rows, w, j.e, stride, j.act2) {
		for ch := range j.e {
			depthwiseBandGo(convolved[ch*plane:(ch+1)*plane], expanded[ch*stride:][:(rows+2)*w], j.wd[ch*9:ch*9+9], j.bd, ch, w)
			actBlock(convolved[ch*plane:(ch+1)*plane], j.act2)
		}
	}
	var res0 []float32
	if res != nil {
		res0 = res[y0*w:]
	}
	dwsepGemm(j.o, plane, j.e, j.w2, convolved, plane, out[y0*w:], hw, j.b2, ActNone, res0)
}

// dwsepGemm sets the m×n matrix c (row stride ldc) to a·b + bias[i] on row
// i (no bias when nil) plus res (row stride ldc; none when nil), then act:
// a is m×k (row stride k), b k×n (row stride ldb). It runs on the calling
// goroutine.
func dwsepGemm(m, n, k int, a, b []float32, ldb int, c []float32, ldc int, bias []float32, act Activation, res []float32) {
	g := gemmCall{m: m, n: n, k: k, alpha: 1, a: a, lda: k, b: b, ldb: ldb, c: c, ldc: ldc,
		act: act, kern: selectedKernel, serial: true}
	if res != nil {
		for i := range m {
			copy(c[i*ldc:i*ldc+n], res[i*ldc:i*ldc+n])
		}
		g.beta = 1
	}
	switch {
	case bias != nil && rowBiasOK(m):
		g.rowBias = bias[:m]
	case bias != nil:
		// The bias goes into c first, and the product adds to it.
		for i := range m {
			row := c[i*ldc : i*ldc+n]
			if res == nil {
				for x := range row {
					row[x] = bias[i]
				}
			} else {
				for x := range row {
					row[x] += bias[i]
				}
			}
		}
		g.beta = 1
	}
	g.run()
}

// depthwiseBandGo sets out (rows of w floats) to the 3×3 depthwise
// convolution, stride 1, of the band in (rows + 2 rows of w floats, the
// first and last the rows around the band's), padded by one column of
// zeros left and right, with the weights wk [9] plus bias[ch] (none when
// bias is nil): each output row starts as the bias and adds the taps in
// filter order, as the other depthwise kernels do.
func depthwiseBandGo(out, in, wk, bias []float32, ch, w int) {
	var b float32
	if bias != nil {
		b = bias[ch]
	}
	for y := 0; y < len(out)/w; y++ {
		row := out[y*w : (y+1)*w]
		for i := range row {
			row[i] = b
		}
		for p := range 3 {
			depthwiseKernelRow(row, in[(y+p)*w:(y+p+1)*w], wk[3*p:3*p+3], 1, 1)
		}
	}
}
