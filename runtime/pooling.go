// This file holds the 2-D pooling kernels: max pooling and adaptive average
// pooling over the last two dims.

package runtime

import "math"

// poolParallelMin is the number of input elements from which the pooling
// kernels spread their planes over the worker pool.
const poolParallelMin = 1 << 16

// MaxPool2d sets out to the maximum of each window of x, as
// torch.nn.functional.max_pool2d with dilation 1 and ceil_mode false: x is
// [..., H, W] (rank 3 or 4), out is [..., OH, OW] with OH = (H +
// 2·padding[0] - kernelSize[0])/stride[0] + 1 and OW likewise. kernelSize,
// stride and padding hold one value for both dims or two; an empty stride
// means kernelSize. Padding reads as -∞; a NaN in a window gives NaN.
//
//	for each plane, i, j:
//		m := -∞
//		for p := 0; p < KH; p++ {
//			for q := 0; q < KW; q++ {
//				y, z := i*SH-PH+p, j*SW-PW+q
//				if 0 <= y && y < H && 0 <= z && z < W && (x[y, z] > m || isNaN(x[y, z])) {
//					m = x[y, z]
//				}
//			}
//		}
//		out[i, j] = m
func MaxPool2d(out, x *Array, kernelSize, stride, padding []int) {
	const name = "MaxPool2d"
	planes, h, w := poolInput(name, out, x)
	kh, kw, sh, sw, ph, pw := poolWindow(name, x, kernelSize, stride, padding, false)
	oh, ow := (h+2*ph-kh)/sh+1, (w+2*pw-kw)/sw+1
	checkPoolOut(name, out, x, oh, ow)
	g := maxPoolJob{x: x.F32, out: out.F32, h: h, w: w, oh: oh, ow: ow, kh: kh, kw: kw, sh: sh, sw: sw, ph: ph, pw: pw}
	if serialPlanes(x.Len()) {
		g.planes(0, planes)
		return
	}
	runPooled(maxPoolTasks, planes, g)
}

var maxPoolTasks = taskPool((*maxPoolJob).planes)

// maxPoolJob is one MaxPool2d call.
type maxPoolJob struct {
	x, out                               []float32
	h, w, oh, ow, kh, kw, sh, sw, ph, pw int
}

// planes pools planes [lo, hi). The window maximum is separable: for each
// output row, a column pass takes the maximum of the window's input rows
// into a scratch row of W (maxRows, a vector kernel on the AVX2 tier), and
// a row pass the maximum of that over each window's columns.
func (g *maxPoolJob) planes(lo, hi int) {
	h, w, oh, ow := g.h, g.w, g.oh, g.ow
	// The column maxima of a row, then its phases (see windowMaxima).
	scratch := getConvScratch(2*w + g.sw)
	defer convScratch.Put(scratch)
	col, phases := (*scratch)[:w], (*scratch)[w:]
	j0, j1 := g.interior()
	for pl := lo; pl < hi; pl++ {
		src := g.x[pl*h*w : (pl+1)*h*w]
		dst := g.out[pl*oh*ow : (pl+1)*oh*ow]
		for i := 0; i < oh; i++ {
			y0, y1 := max(i*g.sh-g.ph, 0), min(i*g.sh-g.ph+g.kh, h)
			d := dst[i*ow : (i+1)*ow]
			if y0 >= y1 { // a window entirely in the padding
				for j := range d {
					d[j] = float32(math.Inf(-1))
				}
				continue
			}
			m := combineRows(col, src, w, y0, y1, maxRows)
			vector := j1-j0 >= 16 && currentISA != ISAGeneric
			if vector {
				g.windowMaxima(d, m, phases, j0, j1)
			}
			for j := 0; j < ow; j++ {
				if vector && j == j0 {
					j = j1 - 1
					continue
				}
				z0, z1 := max(j*g.sw-g.pw, 0), min(j*g.sw-g.pw+g.kw, w)
				v := float32(math.Inf(-1))
				for _, x := range m[z0:z1] {
					v = max(v, x) // NaN wins, as the spec of max says
				}
				d[j] = v
			}
		}
	}
}

// interior returns the output columns [j0, j1) whose windows lie wholly
// inside the row (j0 ≥ j1 when there are none).
func (g *maxPoolJob) interior() (j0, j1 int) {
	j0 = (g.pw + g.sw - 1) / g.sw
	j1 = min(g.ow, (g.w-g.kw+g.pw)/g.sw+1)
	return j0, max(j0, j1)
}

// windowMaxima sets d[j], for the interior columns [j0, j1), to the
// maximum of m over window j's columns, a vector maximum per kernel
// column: m is first split into its sw phases (phase r holds m[r],
// m[r+sw], ...; in phases), so that column q of consecutive windows is a
// run of consecutive floats of one phase. Go's max gives the same bits
// in any order, so this equals the window-by-window loop.
func (g *maxPoolJob) windowMaxima(d, m, phases []float32, j0, j1 int) {
	sw, w := g.sw, g.w
	pl := (w + sw - 1) / sw // floats per phase
	if sw == 1 {
		phases = m
	} else if sw == 2 {
		for z := deinterleavePairs(phases[:pl], phases[pl:], m[:w]); z < w; z++ {
			phases[z%2*pl+z/2] = m[z]
		}
	} else {
		for z := range m[:w] {
			phases[z%sw*pl+z/sw] = m[z]
		}
	}
	out := d[j0:j1]
	for q := 0; q < g.kw; q++ {
		// Window j's column q is m[j·sw − pw + q]: phase t mod sw, float
		// j + t div sw, with t = q − pw (j0 keeps it in the row).
		t := q - g.pw
		r, s := (t%sw+sw)%sw, (t-(t%sw+sw)%sw)/sw
		src := phases[r*pl+j0+s : r*pl+j1+s]
		if q == 0 {
			copy(out, src)
			continue
		}
		maxRows(out, out, src)
	}
}

// combineRows folds rows [y0, y1) (y0 < y1) of a plane of width w with
// combine (a vector kernel: dst[i] = a[i] op b[i]) into col and returns
// it, or returns the row itself when there is one: the column pass of the
// separable pooling windows.
func combineRows(col, plane []float32, w, y0, y1 int, combine func(dst, a, b []float32)) []float32 {
	if y1-y0 == 1 {
		return plane[y0*w : (y0+1)*w]
	}
	col = col[:w]
	combine(col, plane[y0*w:(y0+1)*w], plane[(y0+1)*w:(y0+2)*w])
	for y := y0 + 2; y < y1; y++ {
		combine(col, col, plane[y*w:(y+1)*w])
	}
	return col
}

// addRows sets dst[i] = a[i] + b[i] for i < len(dst): with the vector loop
// of the selected tier, or a plain loop for rows too short to pay for its
// call.
func addRows(dst, a, b []float32) {
	if len(dst) >= 16 {
		binarySameF32(opAdd, dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + b[i]
	}
}

// sumWindow returns the sum of s, left to right.
func sumWindow(s []float32) float32 {
	var v float32
	for _, x := range s {
		v += x
	}
	return v
}

// separableWindows reports whether sums over windows of kh rows by kw
// columns, sw apart along rows w wide, cost less separably (a column pass
// adding each window's rows, then each window's columns) than window by
// window: on rows of 16 or more where the tier has a vector add, and
// elsewhere when it takes fewer additions per output, (kh−1)·sw + kw
// against kh·kw.
func separableWindows(w, kh, kw, sw int) bool {
	if w < 16 {
		return false
	}
	return currentISA != ISAGeneric || (kh-1)*sw+kw < kh*kw
}

// windowSum returns the sum of rows [y0, y1) and columns [z0, z1) of a
// plane of width w: from col, the column sums of those rows made by
// combineRows, or straight from the plane when col is nil.
func windowSum(col, plane []float32, w, y0, y1, z0, z1 int) float32 {
	if col != nil {
		return sumWindow(col[z0:z1])
	}
	var s float32
	for y := y0; y < y1; y++ {
		s += sumWindow(plane[y*w+z0 : y*w+z1])
	}
	return s
}

// maxRowsGo sets dst[i] = max(a[i], b[i]) for i < len(dst), with Go's max:
// a NaN in either gives NaN, and +0 wins over −0.
func maxRowsGo(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = max(a[i], b[i])
	}
}

// AdaptiveAvgPool2d sets out to the means of x over windows that split
// [..., H, W] (rank 3 or 4) into the OH×OW grid of out's last two dims, as
// torch.nn.functional.adaptive_avg_pool2d: window (i, j) covers rows
// ⌊i·H/OH⌋ to ⌈(i+1)·H/OH⌉ (exclusive) and columns likewise.
//
//	for each plane, i, j:
//		y0, y1 := i*H/OH, ((i+1)*H+OH-1)/OH
//		z0, z1 := j*W/OW, ((j+1)*W+OW-1)/OW
//		s := 0
//		for y := y0; y < y1; y++ {
//			for z := z0; z < z1; z++ {
//				s += x[y, z]
//			}
//		}
//		out[i, j] = s / ((y1-y0)*(z1-z0))
func AdaptiveAvgPool2d(out, x *Array) {
	const name = "AdaptiveAvgPool2d"
	planes, h, w := poolInput(name, out, x)
	if len(out.Shape) != len(x.Shape) {
		kernelPanic(name, "out shape %v, want rank %d", out.Shape, len(x.Shape))
	}
	oh, ow := out.Shape[len(out.Shape)-2], out.Shape[len(out.Shape)-1]
	if oh < 1 || ow < 1 {
		kernelPanic(name, "out shape %v: output size must be at least 1×1", out.Shape)
	}
	checkPoolOut(name, out, x, oh, ow)
	g := avgPoolJob{x: x.F32, out: out.F32, h: h, w: w, oh: oh, ow: ow}
	if serialPlanes(x.Len()) {
		g.planes(0, planes)
		return
	}
	runPooled(avgPoolTasks, planes, g)
}

var avgPoolTasks = taskPool((*avgPoolJob).planes)

// avgPoolJob is one AdaptiveAvgPool2d call.
type avgPoolJob struct {
	x, out       []float32
	h, w, oh, ow int
}

// planes pools planes [lo, hi), separably as maxPoolJob does where that
// pays (separableWindows): the column sums of each window's rows, then
// the sum of those over its columns.
func (g *avgPoolJob) planes(lo, hi int) {
	h, w, oh, ow := g.h, g.w, g.oh, g.ow
	// The largest window and the mean stride, for the choice.
	kh, kw := (h+oh-1)/oh+min(1, h%oh), (w+ow-1)/ow+min(1, w%ow)
	separable := separableWindows(w, kh, kw, max(1, w/ow))
	scratch := getConvScratch(w)
	defer convScratch.Put(scratch)
	for pl := lo; pl < hi; pl++ {
		src := g.x[pl*h*w : (pl+1)*h*w]
		dst := g.out[pl*oh*ow : (pl+1)*oh*ow]
		for i := 0; i < oh; i++ {
			y0, y1 := i*h/oh, ((i+1)*h+oh-1)/oh
			var col []float32
			if separable {
				col = combineRows(*scratch, src, w, y0, y1, addRows)
			}
			for j := 0; j < ow; j++ {
				z0, z1 := j*w/ow, ((j+1)*w+ow-1)/ow
				dst[i*ow+j] = windowSum(col, src, w, y0, y1, z0, z1) / float32((y1-y0)*(z1-z0))
			}
		}
	}
}

// poolWindow reads a pooling window's kernel size, stride (kernelSize
// when empty) and padding, one value for both dims or two, and checks
// them against x [..., H, W]; halfPad also requires the padding to be at
// most half the kernel, as average pooling does.
func poolWindow(name string, x *Array, kernelSize, stride, padding []int, halfPad bool) (kh, kw, sh, sw, ph, pw int) {
	h, w := x.Shape[len(x.Shape)-2], x.Shape[len(x.Shape)-1]
	kh, kw = pair2(name, "kernel_size", kernelSize)
	sh, sw = kh, kw
	if len(stride) > 0 {
		sh, sw = pair2(name, "stride", stride)
	}
	ph, pw = pair2(name, "padding", padding)
	if kh < 1 || kw < 1 || sh < 1 || sw < 1 || ph < 0 || pw < 0 || h+2*ph < kh || w+2*pw < kw || halfPad && (2*ph > kh || 2*pw > kw) {
		kernelPanic(name, "kernel_size %d,%d, stride %d,%d and padding %d,%d do not fit x %v", kh, kw, sh, sw, ph, pw, x.Shape)
	}
	return kh, kw, sh, sw, ph, pw
}

// poolInput checks a pooling input and returns its number of planes and
// their size.
func poolInput(name string, out, x *Array) (planes, h, w int) {
	checkDType(name, "x", x, Float32)
	checkDType(name, "out", out, Float32)
	r := len(x.Shape)
	if r != 3 && r != 4 {
		kernelPanic(name, "x shape %v, want [N, C, H, W] or [C, H, W]", x.Shape)
	}
	return NumElements(x.Shape[:r-2]), x.Shape[r-2], x.Shape[r-1]
}

func checkPoolOut(name string, out, x *Array, oh, ow int) {
	r := len(x.Shape)
	if len(out.Shape) != r || out.Shape[r-2] != oh || out.Shape[r-1] != ow || !equalInts(out.Shape[:r-2], x.Shape[:r-2]) {
		kernelPanic(name, "out shape %v, want %v", out.Shape, append(append([]int{}, x.Shape[:r-2]...), oh, ow))
	}
}

// serialPlanes reports whether a kernel over planes of size elements in
// all runs on the calling goroutine rather than the worker pool.
func serialPlanes(size int) bool { return size < poolParallelMin || Workers() == 1 }
