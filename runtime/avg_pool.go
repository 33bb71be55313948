// This file holds AvgPool2d, average pooling over fixed windows.

package runtime

// AvgPool2d sets out to the mean of each window of x, as
// torch.nn.functional.avg_pool2d: x is [..., H, W] (rank 3 or 4) and out
// [..., OH, OW] with OH = (H + 2·padding[0] - kernelSize[0])/stride[0] + 1,
// rounded up when ceilMode (a window must still start inside the input
// or its left padding) and OW likewise. kernelSize, stride and padding
// hold one value for both dims or two; an empty stride means kernelSize.
// With countIncludePad the divisor counts the padding a window covers
// (not what ceilMode adds past it); without, only the input it covers.
//
//	for each plane, i, j:
//		y0, z0 := i*SH-PH, j*SW-PW
//		y1, z1 := min(y0+KH, H+PH), min(z0+KW, W+PW)
//		n := (y1-y0)*(z1-z0)            // countIncludePad
//		y0, z0, y1, z1 = max(y0, 0), max(z0, 0), min(y1, H), min(z1, W)
//		out[i, j] = Σ x[y0:y1, z0:z1] / n  // else n = (y1-y0)*(z1-z0)
func AvgPool2d(out, x *Array, kernelSize, stride, padding []int, ceilMode, countIncludePad bool) {
	const name = "AvgPool2d"
	planes, h, w := poolInput(name, out, x)
	kh, kw, sh, sw, ph, pw := poolWindow(name, x, kernelSize, stride, padding, true)
	oh, ow := PoolOutSize(h, kh, sh, ph, ceilMode), PoolOutSize(w, kw, sw, pw, ceilMode)
	checkPoolOut(name, out, x, oh, ow)
	g := avgPoolWindowJob{x: x.F32, out: out.F32, h: h, w: w, oh: oh, ow: ow, kh: kh, kw: kw, sh: sh, sw: sw, ph: ph, pw: pw, includePad: countIncludePad}
	if serialPlanes(x.Len()) {
		g.planes(0, planes)
		return
	}
	runPooled(avgPoolWindowTasks, planes, g)
}

// PoolOutSize returns the output size of a pooling window of size k,
// stride s and padding p over n inputs, as PyTorch computes it: with
// ceilMode the last partial window counts when it starts inside the
// input or its left padding.
func PoolOutSize(n, k, s, p int, ceilMode bool) int {
	span := n + 2*p - k
	out := span/s + 1
	if ceilMode && span%s != 0 {
		out++
		if (out-1)*s >= n+p {
			out--
		}
	}
	return out
}

var avgPoolWindowTasks = taskPool((*avgPoolWindowJob).planes)

// avgPoolWindowJob is one AvgPool2d call.
type avgPoolWindowJob struct {
	x, out                               []float32
	h, w, oh, ow, kh, kw, sh, sw, ph, pw int
	includePad                           bool
}

// planes pools planes [lo, hi). Where separableWindows says it pays, it
// sums as maxPoolJob takes maxima: the column sums of each window's input
// rows (a vector add), then the sum of those over the window's columns,
// left to right; else window by window. With stride 1 along the row, rows
// of at least 16 outputs and a vector add, the row pass is vector work
// too: the window sums are kw shifted rows of column sums added in order
// (zeros stand for the padding, so the sums are those of the scalar
// pass), then divided by the windows' counts.
func (g *avgPoolWindowJob) planes(lo, hi int) {
	h, w, oh, ow := g.h, g.w, g.oh, g.ow
	separable := separableWindows(w, g.kh, g.kw, g.sw)
	vector := separable && g.sw == 1 && ow >= 16 && currentISA != ISAGeneric
	// Scratch: the column sums, with pw zeros before and enough after for
	// the last window; the counts of one output row; the widths of the
	// windows with and without their padding.
	span := max(w+2*g.pw, ow+g.kw-1)
	scratch := getConvScratch(span + 3*ow)
	defer convScratch.Put(scratch)
	buf := *scratch
	colPad, cnt, full, inside := buf[:span], buf[span:span+ow], buf[span+ow:span+2*ow], buf[span+2*ow:span+3*ow]
	if vector {
		clear(colPad)
		for j := range ow {
			z0 := j - g.pw
			z1 := min(z0+g.kw, w+g.pw)
			full[j] = float32(z1 - z0)
			inside[j] = float32(min(z1, w) - max(z0, 0))
		}
	}
	for pl := lo; pl < hi; pl++ {
		src := g.x[pl*h*w : (pl+1)*h*w]
		dst := g.out[pl*oh*ow : (pl+1)*oh*ow]
		for i := 0; i < oh; i++ {
			y0 := i*g.sh - g.ph
			y1 := min(y0+g.kh, h+g.ph)
			ny := y1 - y0
			y0, y1 = max(y0, 0), min(y1, h)
			if !g.includePad {
				ny = y1 - y0
			}
			d := dst[i*ow : (i+1)*ow]
			if vector {
				col := colPad[g.pw : g.pw+w]
				if sums := combineRows(col, src, w, y0, y1, addRows); &sums[0] != &col[0] {
					copy(col, sums)
				}
				if g.kw == 1 {
					copy(d, colPad)
				} else {
					addRows(d, colPad, colPad[1:])
				}
				for q := 2; q < g.kw; q++ {
					addRows(d, d, colPad[q:])
				}
				widths := inside
				if g.includePad {
					widths = full
				}
				for j, v := range widths {
					cnt[j] = float32(ny) * v
				}
				binarySameF32(opDiv, d, d, cnt)
				continue
			}
			var col []float32
			if separable {
				col = combineRows(colPad, src, w, y0, y1, addRows)
			}
			for j := range d {
				z0 := j*g.sw - g.pw
				z1 := min(z0+g.kw, w+g.pw)
				n := ny * (z1 - z0)
				z0, z1 = max(z0, 0), min(z1, w)
				if !g.includePad {
					n = ny * (z1 - z0)
				}
				d[j] = windowSum(col, src, w, y0, y1, z0, z1) / float32(n)
			}
		}
	}
}
