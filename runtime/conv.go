// This file holds the 2-D convolution kernel: im2col plus one GEMM per image
// and group.

package runtime

import "sync"

// Conv2d sets out to the 2-D cross-correlation of x with the filters w plus
// bias, as torch.nn.functional.conv2d with dilation 1: x is [N, C, H, W], w
// is [O, C/groups, KH, KW], bias is [O] or nil, out is [N, O, OH, OW] with
// OH = (H + 2·padding[0] - KH)/stride[0] + 1 and OW likewise. stride and
// padding hold one value for both spatial dims or two (height, width).
// Padding reads as zeros.
//
//	G, Cg, Og := groups, C/groups, O/groups
//	for n, o, i, j:
//		s := bias[o] // 0 when bias is nil
//		for c := 0; c < Cg; c++ {
//			for p := 0; p < KH; p++ {
//				for q := 0; q < KW; q++ {
//					y, z := i*stride[0]-padding[0]+p, j*stride[1]-padding[1]+q
//					if 0 <= y && y < H && 0 <= z && z < W {
//						s += x[n, (o/Og)*Cg+c, y, z] * w[o, c, p, q]
//					}
//				}
//			}
//		}
//		out[n, o, i, j] = s
//
// Each image is lowered to a [C·KH·KW, OH·OW] patch matrix (in chunks of
// output rows when it exceeds 4 MB) in a scratch buffer taken from a
// sync.Pool, so that Conv2d is safe for concurrent use and allocates no
// scratch once warm, and multiplied by the weights with Sgemm; a 1×1
// convolution with stride 1 and no padding multiplies x directly. A batch
// of small images, or of as many images as a multiple of the workers,
// spreads the images over the worker pool (no worker waits while another
// pads an image); a large image alone spreads its own work.
func Conv2d(out, x, w, bias *Array, stride, padding []int, groups int) {
	conv2d(out, x, w, bias, stride, padding, groups, ActNone)
}

// conv2d is Conv2d followed by act, which a ReLU applies in the GEMM's
// epilogue while each tile of out is in cache.
func conv2d(out, x, w, bias *Array, stride, padding []int, groups int, act Activation) {
	conv2dWith(out, x, w, nil, bias, nil, stride, padding, groups, act)
}

// conv2dWith is conv2d with the filters w also prepared as filters, when
// not nil: the kernels that need the filters in another layout (Winograd)
// run only with them; and, when res is not nil, act(conv + res) (see
// Conv2dResidual).
func conv2dWith(out, x, w *Array, filters *ConvFilters, bias, res *Array, stride, padding []int, groups int, act Activation) {
	g := checkConv2d(out, x, w, bias, stride, padding, groups)
	if g.n == 0 || g.o == 0 || g.p == 0 {
		return
	}
	j := convJob{g: g, x: x.F32, w: w.F32, out: out.F32, groups: groups, act: act, filters: filters}
	if bias != nil {
		j.bias = bias.F32
	}
	if res != nil {
		// The kernels compute the bare convolution; images adds res and
		// applies act.
		j.res, j.resAct, j.act = res.F32, act, ActNone
	}
	perImage := 2 * float64(g.o) * float64(g.p) * float64(g.c*g.kh*g.kw/groups)
	if perImage*float64(g.n) < convParallelFlops {
		j.images(0, g.n, false)
		return
	}
	if g.n == 1 || Workers() == 1 || (perImage >= convImageParallelFlops && g.n%Workers() != 0) {
		j.images(0, g.n, true)
		return
	}
	runPooled(convTasks, g.n, j)
}

var convTasks = taskPool((*convJob).imagesSerial)

// convImageParallelFlops is the work per image below which Conv2d spreads
// the images of any batch over the worker pool rather than the work of
// each image (above it, only batches that divide evenly among the workers:
// ResNet-18 at batch 8 on 2 workers of a Zen 3, 322 → 291 ms).
const convImageParallelFlops = 32 << 20

// convParallelFlops is the work below which a convolution runs on the
// calling goroutine alone (a variable for tests): a split costs each call
// a hand-off to the pool and moves the layer's data between cores, which
// on a 2-vCPU VM (Xeon SPR) cost more than ResNet-20's 4.7-MFLOP layers
// at batch 1 gained (with the small elementwise programs split too, its
// Forward ran 1.03 ms on 2 workers against 0.57 ms on 1).
var convParallelFlops = float64(16 << 20)

// convJob is one Conv2d call.
type convJob struct {
	g               convGeom
	x, w, bias, out []float32
	groups          int
	act             Activation   // applied by the kernels (see Conv2dAct)
	filters         *ConvFilters // w prepared, or nil
	res             []float32    // the residual added to the output, or nil (see Conv2dResidual)
	resAct          Activation   // applied after res is added
	// fuseRes has the direct kernels add res and apply resAct (ActNone or
	// ActReLU) in their epilogue (see residualImages).
	fuseRes bool
}

// imagesSerial convolves images [lo, hi), each on the calling goroutine
// as far as im2col goes.
func (j *convJob) imagesSerial(lo, hi int) { j.images(lo, hi, false) }

// images convolves images [lo, hi); parallel lets the kernels (im2col and
// the GEMM among them) use the worker pool. A patch matrix larger than
// convColBudget floats is built and multiplied in equal chunks of output
// rows, which bounds the scratch buffer and keeps more of it in cache
// between im2col and Sgemm.
func (j *convJob) images(lo, hi int, parallel bool) {
	if j.res != nil {
		j.residualImages(lo, hi, parallel)
		return
	}
	j.convImages(lo, hi, parallel)
}

// convPath is the kernel that computes a convolution.
type convPath int

const (
	pathDepthwise      convPath = iota // depthwiseImages
	pathDepthwiseGo                    // depthwiseGoImages
	pathWinograd                       // winogradImages
	pathPatchGemm                      // patchGemmImages
	pathPointwisePatch                 // pointwisePatchImages
	pathDirect                         // paddedImages
	pathIm2col                         // im2col and a GEMM (convImages)
)

// path returns the kernel that convolves n images of j.
func (j *convJob) path(n int) convPath {
	g := &j.g
	switch {
	case convDepthwiseOK(g, j.groups):
		return pathDepthwise
	case depthwiseGoOK(g, j.groups):
		return pathDepthwiseGo
	case j.filters != nil && convWinogradOK(g, j.groups) && winogradPays(g, n):
		return pathWinograd
	case j.filters != nil && convPatchGemmOK(g, j.groups):
		return pathPatchGemm
	case j.filters != nil && convPointwisePatchOK(g, j.groups):
		return pathPointwisePatch
	case convDirectOK(g, j.groups):
		return pathDirect
	}
	return pathIm2col
}

// convImages is images without a residual.
func (j *convJob) convImages(lo, hi int, parallel bool) {
	g := &j.g
	switch j.path(hi - lo) {
	case pathDepthwise:
		j.depthwiseImages(lo, hi, parallel)
		return
	case pathDepthwiseGo:
		j.depthwiseGoImages(lo, hi, parallel)
		return
	case pathWinograd:
		j.winogradImages(lo, hi, parallel, j.filters.winograd())
		return
	case pathPatchGemm:
		j.patchGemmImages(lo, hi, parallel, j.filters.patchFilters(g.p))
		return
	case pathPointwisePatch:
		j.pointwisePatchImages(lo, hi, parallel, j.filters.patchFilters(g.p*(hi-lo)))
		return
	case pathDirect:
		j.paddedImages(lo, hi, parallel)
		return
	}
	k := g.c * g.kh * g.kw // rows of the patch matrix
	kg, og := k/j.groups, g.o/j.groups
	direct := g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.ph == 0 && g.pw == 0
	chunk := g.oh // output rows per chunk
	var scratch *[]float32
	if !direct {
		chunks := (k*g.p + convColBudget - 1) / convColBudget
		chunk = (g.oh + chunks - 1) / chunks
		scratch = getConvScratch(k * chunk * g.ow)
	}
	inSize, outSize := g.c*g.h*g.w, g.o*g.p
	for n := lo; n < hi; n++ {
		xn := j.x[n*inSize : (n+1)*inSize]
		on := j.out[n*outSize : (n+1)*outSize]
		// The bias is added to each tile of out in the GEMM's epilogue
		// where the kernel can (rowBias); otherwise out starts as the bias
		// and the GEMM adds to it.
		rowBias := j.bias != nil && rowBiasOK(og)
		beta := float32(0)
		if j.bias != nil && !rowBias {
			for o, b := range j.bias[:g.o] {
				row := on[o*g.p : (o+1)*g.p]
				for i := range row {
					row[i] = b
				}
			}
			beta = 1
		}
		for i0 := 0; i0 < g.oh; i0 += chunk {
			i1 := min(g.oh, i0+chunk)
			pc := (i1 - i0) * g.ow // columns of this chunk
			var col []float32
			switch {
			case direct:
				col = xn
			case parallel:
				col = (*scratch)[:k*pc]
				im2col(col, xn, *g, i0, i1)
			default:
				col = (*scratch)[:k*pc]
				im2colRows(col, xn, g, i0, i1, 0, k)
			}
			for gi := 0; gi < j.groups; gi++ {
				if rowBias {
					sgemmRowBias(og, pc, kg, j.w[gi*og*kg:], kg, col[gi*kg*pc:], pc, on[gi*og*g.p+i0*g.ow:], g.p, j.act, j.bias[gi*og:], !parallel)
					continue
				}
				sgemmAct(og, pc, kg, j.w[gi*og*kg:], kg, col[gi*kg*pc:], pc, beta, on[gi*og*g.p+i0*g.ow:], g.p, j.act, !parallel)
			}
		}
	}
	if scratch != nil {
		convScratch.Put(scratch)
	}
}

// convColBudget is the most floats of patch matrix Conv2d builds at once
// (a variable for tests). Measured on ResNet layers, smaller chunks gain
// nothing: the product's own blocking already works from cache.
var convColBudget = 1 << 20

// convGeom is the geometry of one Conv2d call.
type convGeom struct {
	n, c, h, w     int // input
	o, kh, kw      int // filters
	sh, sw, ph, pw int // stride and padding
	oh, ow, p      int // output plane and its size oh·ow
}

func checkConv2d(out, x, w, bias *Array, stride, padding []int, groups int) convGeom {
	const name = "Conv2d"
	checkDType(name, "x", x, Float32)
	checkDType(name, "weight", w, Float32)
	checkDType(name, "out", out, Float32)
	if len(x.Shape) != 4 || len(w.Shape) != 4 {
		kernelPanic(name, "got x %v and weight %v, want [N, C, H, W] and [O, C/groups, KH, KW]", x.Shape, w.Shape)
	}
	var g convGeom
	g.n, g.c, g.h, g.w = x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	g.o, g.kh, g.kw = w.Shape[0], w.Shape[2], w.Shape[3]
	g.sh, g.sw = pair2(name, "stride", stride)
	g.ph, g.pw = pair2(name, "padding", padding)
	if groups < 1 || g.c%groups != 0 || g.o%groups != 0 || w.Shape[1]*groups != g.c {
		kernelPanic(name, "x %v, weight %v and groups %d do not fit: want C and O divisible by groups and weight [O, C/groups, KH, KW]", x.Shape, w.Shape, groups)
	}
	if g.sh < 1 || g.sw < 1 || g.ph < 0 || g.pw < 0 {
		kernelPanic(name, "stride %d,%d and padding %d,%d, want stride ≥ 1 and padding ≥ 0", g.sh, g.sw, g.ph, g.pw)
	}
	g.oh = (g.h+2*g.ph-g.kh)/g.sh + 1
	g.ow = (g.w+2*g.pw-g.kw)/g.sw + 1
	if g.h+2*g.ph < g.kh || g.w+2*g.pw < g.kw {
		kernelPanic(name, "kernel %dx%d larger than the padded input %v with padding %d,%d", g.kh, g.kw, x.Shape, g.ph, g.pw)
	}
	g.p = g.oh * g.ow
	if len(out.Shape) != 4 || out.Shape[0] != g.n || out.Shape[1] != g.o || out.Shape[2] != g.oh || out.Shape[3] != g.ow {
		kernelPanic(name, "out shape %v, want [%d %d %d %d]", out.Shape, g.n, g.o, g.oh, g.ow)
	}
	if bias != nil {
		checkDType(name, "bias", bias, Float32)
		if len(bias.Shape) != 1 || bias.Shape[0] != g.o {
			kernelPanic(name, "bias shape %v, want [%d]", bias.Shape, g.o)
		}
	}
	return g
}

// pair2 reads a spatial parameter given as one value or two.
func pair2(kernel, what string, v []int) (int, int) {
	switch len(v) {
	case 1:
		return v[0], v[0]
	case 2:
		return v[0], v[1]
	}
	kernelPanic(kernel, "%s %v, want one or two values", what, append([]int(nil), v...)) // a copy: v does not escape
	return 0, 0
}

// convScratch holds patch matrices for reuse across Conv2d calls.
var convScratch = sync.Pool{New: func() any { return new([]float32) }}

// getConvScratch returns a pooled buffer of n floats (contents unspecified);
// put it back into convScratch when done.
func getConvScratch(n int) *[]float32 {
	p := convScratch.Get().(*[]float32)
	if cap(*p) < n {
		*p = make([]float32, n)
	}
	*p = (*p)[:n]
	return p
}

// im2colParallelMin is the patch-matrix size from which im2col spreads its
// rows over the worker pool.
const im2colParallelMin = 1 << 16

// im2col writes the patch matrix of output rows [i0, i1) of one image xn
// [C, H, W] into col [C·KH·KW, (i1-i0)·OW]:
//
//	col[(c*KH+p)*KW+q, (i-i0)*OW+j] = xn[c, i*SH-PH+p, j*SW-PW+q] (0 outside)
func im2col(col, xn []float32, g convGeom, i0, i1 int) {
	rows := g.c * g.kh * g.kw
	if rows*(i1-i0)*g.ow < im2colParallelMin || Workers() == 1 {
		im2colRows(col, xn, &g, i0, i1, 0, rows)
		return
	}
	runPooled(im2colTasks, rows, im2colJob{col: col, xn: xn, g: g, i0: i0, i1: i1})
}

// im2colJob is one im2col call.
type im2colJob struct {
	col, xn []float32
	g       convGeom
	i0, i1  int
}

func (j *im2colJob) rows(lo, hi int) { im2colRows(j.col, j.xn, &j.g, j.i0, j.i1, lo, hi) }

var im2colTasks = taskPool((*im2colJob).rows)

// im2colRows writes rows [lo, hi) of the patch matrix of output rows
// [i0, i1).
func im2colRows(col, xn []float32, g *convGeom, i0, i1, lo, hi int) {
	pc := (i1 - i0) * g.ow
	for r := lo; r < hi; r++ {
		q := r % g.kw
		p := r / g.kw % g.kh
		c := r / (g.kw * g.kh)
		plane := xn[c*g.h*g.w : (c+1)*g.h*g.w]
		dst := col[r*pc : (r+1)*pc]
		// Output columns j whose input column z = j*SW-PW+q is in [0, W).
		j0 := 0
		if q < g.pw {
			j0 = (g.pw - q + g.sw - 1) / g.sw
		}
		j1 := 0
		if last := g.w - 1 + g.pw - q; last >= 0 {
			j1 = min(g.ow, last/g.sw+1)
		}
		j0 = min(j0, j1)
		ow, sw, w := g.ow, g.sw, g.w
		if sw == 1 && g.sh == 1 && ow == w {
			im2colShift(dst, plane, (i0+p-g.ph)*w+q-g.pw, w, j0, j1)
			continue
		}
		for i := i0; i < i1; i++ {
			d := dst[(i-i0)*ow : (i-i0+1)*ow : (i-i0+1)*ow]
			y := i*g.sh - g.ph + p
			if y < 0 || y >= g.h {
				clear(d)
				continue
			}
			// The edges are at most the padding wide: plain loops beat
			// calls to clear.
			for j := range d[:j0] {
				d[j] = 0
			}
			for j := j1; j < ow; j++ {
				d[j] = 0
			}
			src := plane[y*w : (y+1)*w]
			z := j0*sw - g.pw + q
			if sw == 1 {
				copy(d[j0:j1], src[z:])
				continue
			}
			for j := j0; j < j1; j++ {
				d[j] = src[z]
				z += sw
			}
		}
	}
}

// im2colShift writes one patch-matrix row when the stride is 1 and output
// rows are as wide as input rows: then the row is the input plane shifted
// by off, dst[idx] = plane[idx+off], with zeros where idx+off falls outside
// the plane and in the output columns outside [j0, j1), whose inputs lie in
// the left or right padding.
func im2colShift(dst, plane []float32, off, w, j0, j1 int) {
	lo, hi := max(0, -off), min(len(dst), len(plane)-off)
	if lo >= hi {
		clear(dst)
		return
	}
	clear(dst[:lo])
	copy(dst[lo:hi], plane[lo+off:hi+off])
	clear(dst[hi:])
	if j0 == 0 && j1 == w {
		return
	}
	for i := lo / w * w; i < hi; i += w {
		row := dst[i : i+w : i+w]
		for j := range row[:j0] {
			row[j] = 0
		}
		for j := j1; j < w; j++ {
			row[j] = 0
		}
	}
}
