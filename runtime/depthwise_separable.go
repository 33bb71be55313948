// This file holds DepthwiseSeparable, a MobileNetV2-style block (1×1
// expansion, 3×3 depthwise, 1×1 projection) computed a band of image rows
// at a time, so that the expanded channels never leave the core's cache.

package runtime

// DepthwiseSeparable sets out [N, O, OH, OW] to a depthwise-separable
// block of the NCHW images x [N, C, H, W]:
//
//	e   = act1(conv2d(x, w1, b1))                        1×1, w1 [E, C, 1, 1]
//	d   = act2(conv2d(e, wd, bd, stride, padding 1, groups E))   wd [E, 1, 3, 3]
//	out = conv2d(d, w2, b2) + residual                   1×1, w2 [O, E, 1, 1]
//
// with stride 1 or 2 (OH = (H − 1)/stride + 1, OW likewise), the biases
// b1 [E], bd [E], b2 [O] and residual [N, O, OH, OW] nil for none, and
// act1, act2 Activations. It computes the same values as those three
// convolutions, but a band of output rows of an image at a time: the
// expanded rows the band's depthwise convolution reads go into a buffer
// that stays in cache, the depthwise convolution of the band into
// another, and the projection of that into out, so that the E-channel
// images, the largest values of the block, are never written out whole
// (Xeon SPR, AVX2 tier, 1 worker, batch 8: 24→144→24 channels at 56² 6.89
// → 6.14 ms, 32→96→24 at 112² 30.5 → 19.7 ms, against the three
// convolutions). With stride 2 on the AVX2 tier (and above), each band's
// input rows are first split into their even and odd columns, so that the
// expansion writes the two phases the stride-2 depthwise kernel reads.
func DepthwiseSeparable(out, x, w1, b1, wd, bd, w2, b2, residual *Array, stride, act1, act2 int) {
	const name = "DepthwiseSeparable"
	j := dwsepJob{act1: checkAct(name, act1), act2: checkAct(name, act2), stride: stride}
	for _, a := range []struct {
		what string
		a    *Array
	}{{"x", x}, {"out", out}, {"expansion weight", w1}, {"depthwise weight", wd}, {"projection weight", w2}} {
		checkDType(name, a.what, a.a, Float32)
	}
	if stride != 1 && stride != 2 {
		kernelPanic(name, "stride %d, want 1 or 2", stride)
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
	j.oh, j.ow = (j.h-1)/stride+1, (j.w-1)/stride+1
	if j.h == 0 || j.w == 0 {
		j.oh, j.ow = 0, 0
	}
	checkShape(name, "out", out, j.n, j.o, j.oh, j.ow)
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
	if j.n == 0 || j.oh == 0 {
		return
	}
	if j.c == 0 || j.e == 0 {
		// No product to band: the three convolutions' own kernels.
		dwsepUnfused(out, x, w1, b1, wd, bd, w2, b2, residual, j)
		return
	}
	// A band of output rows reads span expanded rows: its own and the
	// two around them, or with stride 2 twice its own and the one above.
	rowBytes := 4 * j.e * j.w
	if stride == 1 {
		j.band = max(2, dwsepBandBytes/rowBytes)
		j.span = j.band + 2
	} else {
		j.band = max(1, dwsepBandBytes/rowBytes/2)
		j.span = 2*j.band + 1
		j.split = depthwiseRows2OK(j.w)
	}
	// An image splits into parts (each with its own first band) only at
	// batch 1 on more than one worker, so that two workers share it: each
	// part computes the expanded rows above its first band again.
	j.parts = 1
	if j.n == 1 && Workers() > 1 && j.oh >= 4*j.band {
		j.parts = 2
	}
	units := j.n * j.parts
	flops := 2 * float64(j.n) * float64(j.e) * (float64(j.h*j.w*j.c) + float64(j.oh*j.ow*(9+j.o)))
	if flops < convParallelFlops || Workers() == 1 || units == 1 {
		j.units(0, units)
		return
	}
	runPooled(dwsepTasks, units, j)
}

// dwsepBandBytes is about how many bytes the expanded rows of a band's
// own output rows take (a band of stride 2 reads twice as many): a band
// is as tall as fits, at least two rows with stride 1, one with stride 2.
// Xeon SPR, AVX2 tier, 1 worker, 24→144→24 channels at 56², batch 8:
// bands of 2, 4, 8 and 16 rows (64 KB to 512 KB) 7.10, 6.23, 6.14 and
// 6.17 ms. (A variable for tests.)
var dwsepBandBytes = 256 << 10

var dwsepTasks = taskPool((*dwsepJob).units)

// dwsepJob is one DepthwiseSeparable call.
type dwsepJob struct {
	n, c, h, w, e, o int
	stride, oh, ow   int
	x, out, res      []float32
	w1, wd, w2       []float32
	b1, bd, b2       []float32 // nil for none
	act1, act2       Activation
	band             int  // output rows a band
	span             int  // expanded rows a band reads
	parts            int  // parts an image's output rows split into, each a unit
	split            bool // stride 2 through the AVX2 phase kernel (see splitBand)
}

// dwsepUnfused computes a block without input or expanded channels with
// the convolutions' own kernels, which handle empty sums.
func dwsepUnfused(out, x, w1, b1, wd, bd, w2, b2, residual *Array, j dwsepJob) {
	one, zero, pad := []int{1}, []int{0}, []int{1}
	d := NewArray(Float32, j.n, j.e, j.oh, j.ow)
	if j.e > 0 {
		e := NewArray(Float32, j.n, j.e, j.h, j.w)
		conv2d(e, x, w1, b1, one, zero, 1, j.act1)
		conv2d(d, e, wd, bd, []int{j.stride}, pad, j.e, j.act2)
	}
	if residual != nil {
		Conv2dResidual(out, d, w2, b2, residual, one, zero, 1, int(ActNone))
		return
	}
	conv2d(out, d, w2, b2, one, zero, 1, ActNone)
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

// dwsepBuffers are one goroutine's band buffers: the expanded rows of a
// band (span rows of each of the E channels), their depthwise convolution
// (band rows of OW a channel), and with split the band's input rows in
// phases.
type dwsepBuffers struct{ expanded, convolved, phases []float32 }

// units computes units [lo, hi): unit u is part u % parts of image
// u / parts.
func (j *dwsepJob) units(lo, hi int) {
	hw, ohw := j.h*j.w, j.oh*j.ow
	ne, nc, np := j.e*j.span*j.w, j.e*j.band*j.ow, 0
	if j.split {
		np = j.c * j.span * j.w
	}
	scratch := getConvScratch(ne + nc + np)
	defer convScratch.Put(scratch)
	buf := dwsepBuffers{(*scratch)[:ne], (*scratch)[ne : ne+nc], (*scratch)[ne+nc:]}
	for u := lo; u < hi; u++ {
		img, part := u/j.parts, u%j.parts
		x := j.x[img*j.c*hw : (img+1)*j.c*hw]
		out := j.out[img*j.o*ohw : (img+1)*j.o*ohw]
		var res []float32
		if j.res != nil {
			res = j.res[img*j.o*ohw : (img+1)*j.o*ohw]
		}
		bands := (j.oh + j.band - 1) / j.band
		b0, b1 := part*bands/j.parts, (part+1)*bands/j.parts
		for b := b0; b < b1; b++ {
			j.bandRows(out, x, res, b*j.band, min(j.oh, (b+1)*j.band), b > b0, &buf)
		}
	}
}

// bandRows computes output rows [y0, y1) of one image's out. The band
// reads the expanded rows r0 = y0·stride − 1 … (y1 − 1)·stride + 1 (row
// r − r0 of each channel's span rows; zero outside the image); when next,
// the previous call computed the band above, whose last expanded rows
// (two with stride 1, one with stride 2) are this band's first.
func (j *dwsepJob) bandRows(out, x, res []float32, y0, y1 int, next bool, buf *dwsepBuffers) {
	w, s := j.w, j.stride
	rows := y1 - y0
	r0, r1 := y0*s-1, (y1-1)*s+2 // the band's expanded rows [r0, r1)
	keep := 3 - s                // rows shared with the band above
	from := max(0, r0)           // the first expanded row to compute
	if next {
		j.shiftBand(buf.expanded, keep)
		from = r0 + keep
	}
	to := min(j.h, r1)
	for r := r0; r < r1; r++ {
		if r < 0 || r >= j.h {
			j.clearBandRow(buf.expanded, r-r0)
		}
	}
	if to > from {
		j.expand(buf, x, from-r0, from, to)
	}
	// The depthwise convolution of the band.
	plane := rows * j.ow
	conv := buf.convolved[:j.e*plane]
	switch {
	case j.split:
		j.splitBand(conv, buf.expanded, rows)
	case s == 1 && depthwiseBandAsm(conv, buf.expanded, j.wd, j.bd, rows, w, j.e, j.span*w, j.act2):
	default:
		for ch := range j.e {
			depthwiseBandGo(conv[ch*plane:(ch+1)*plane], buf.expanded[ch*j.span*w:][:(r1-r0)*w], j.wd[ch*9:ch*9+9], j.bd, ch, w, s)
			actBlock(conv[ch*plane:(ch+1)*plane], j.act2)
		}
	}
	var res0 []float32
	if res != nil {
		res0 = res[y0*j.ow:]
	}
	dwsepGemm(j.o, plane, j.e, j.w2, conv, plane, out[y0*j.ow:], j.oh*j.ow, j.b2, ActNone, res0)
}

// shiftBand moves the last keep expanded rows of each channel's band to
// its first rows: the rows the next band shares with this one.
func (j *dwsepJob) shiftBand(expanded []float32, keep int) {
	rows, w := j.span, j.w
	if j.split {
		// Each phase holds span rows of w/2 floats.
		rows, w = 2*j.span, j.w/2
	}
	for ch := range j.e {
		for p := 0; p < rows; p += j.span {
			c := expanded[ch*j.span*j.w+p*w:]
			copy(c[:keep*w], c[(j.span-keep)*w:j.span*w])
		}
	}
}

// clearBandRow zeroes expanded row i of every channel's band (both
// phases with split).
func (j *dwsepJob) clearBandRow(expanded []float32, i int) {
	for ch := range j.e {
		c := expanded[ch*j.span*j.w:]
		if j.split {
			h := j.w / 2
			clear(c[i*h : (i+1)*h])
			clear(c[(j.span+i)*h : (j.span+i+1)*h])
			continue
		}
		clear(c[i*j.w : (i+1)*j.w])
	}
}

// expand computes the expanded image rows [from, to) of the band into its
// rows from i on: with split, each phase of the rows from the band's
// rows of x in phases.
func (j *dwsepJob) expand(buf *dwsepBuffers, x []float32, i, from, to int) {
	w, hw, ld := j.w, j.h*j.w, j.span*j.w
	if !j.split {
		dwsepGemm(j.e, (to-from)*w, j.c, j.w1, x[from*w:], hw, buf.expanded[i*w:], ld, j.b1, j.act1, nil)
		return
	}
	h := w / 2
	ph := buf.phases
	n := (to - from) * h
	for c := range j.c {
		// The rows are whole pairs (w is even): the even floats of the
		// block of rows are its rows' even columns, row after row.
		src := x[c*hw+from*w : c*hw+to*w]
		ev, od := ph[c*ld+i*h:][:n], ph[c*ld+(j.span+i)*h:][:n]
		for z := deinterleavePairs(ev, od, src); z < len(src); z += 2 {
			ev[z/2], od[z/2] = src[z], src[z+1]
		}
	}
	dwsepGemm(j.e, n, j.c, j.w1, ph[i*h:], ld, buf.expanded[i*h:], ld, j.b1, j.act1, nil)
	dwsepGemm(j.e, n, j.c, j.w1, ph[(j.span+i)*h:], ld, buf.expanded[(j.span+i)*h:], ld, j.b1, j.act1, nil)
}

// splitBand sets conv to the stride-2 depthwise convolution of the band's
// rows rows, from the even and odd phases of its expanded rows with the
// AVX2 phase kernel: the band's first expanded row is the one above its
// first output row's taps (flagHaloRows).
func (j *dwsepJob) splitBand(conv, expanded []float32, rows int) {
	h := j.w / 2
	plane := rows * j.ow
	flags := flagHaloRows
	if j.act2 == ActReLU {
		flags |= flagReLU
	}
	var bias0 float32
	b := &bias0
	if j.bd != nil {
		flags |= flagBias
	}
	for ch := range j.e {
		if j.bd != nil {
			b = &j.bd[ch]
		}
		c := expanded[ch*j.span*j.w:]
		depthwiseRows2Asm(c[h:], c[(j.span+1)*h:], j.wd[9*ch:9*ch+9], conv[ch*plane:(ch+1)*plane], 2*rows, rows, j.ow, b, flags)
	}
	if postAct(j.act2) {
		actBlock(conv, j.act2)
	}
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

// depthwiseBandGo sets out (rows of ow floats) to the 3×3 depthwise
// convolution with stride s of the band in (rows of w floats: output row
// y reads rows s·y … s·y + 2), padded by one column of zeros left and
// right, with the weights wk [9] plus bias[ch] (none when bias is nil):
// each output row starts as the bias and adds the taps in filter order,
// as the other depthwise kernels do.
func depthwiseBandGo(out, in, wk, bias []float32, ch, w, s int) {
	var b float32
	if bias != nil {
		b = bias[ch]
	}
	ow := (w-1)/s + 1
	for y := 0; y < len(out)/ow; y++ {
		row := out[y*ow : (y+1)*ow]
		for i := range row {
			row[i] = b
		}
		for p := range 3 {
			r := s*y + p
			depthwiseKernelRow(row, in[r*w:(r+1)*w], wk[3*p:3*p+3], 1, s)
		}
	}
}
