// This file holds the residual convolution: a convolution whose output is
// added to another array (a residual connection, as in ResNet's blocks)
// and activated, image chunk by image chunk while the output is in cache.

package runtime

import "slices"

// Conv2dResidual sets out = act(conv2d(x, w, bias) + res), a Conv2d, the
// add of a residual res of out's shape and the activation act (an
// Activation) in one call: small images are convolved a few at a time (up
// to convResidualChunk bytes of output), and each chunk has res added and
// act applied while it is still in cache, instead of a second pass over
// the whole output. The sums are the unfused ops' in the same
// order, so the bits are theirs. res must not share memory with out.
//
//	out[n, o, i, j] = act(conv2d(x, w, bias, stride, padding, groups)[n, o, i, j] + res[n, o, i, j])
func Conv2dResidual(out, x, w, bias, res *Array, stride, padding []int, groups, act int) {
	a := checkAct("Conv2dResidual", act)
	checkResidual("Conv2dResidual", out, res)
	conv2dWith(out, x, w, nil, bias, res, stride, padding, groups, a)
}

// Conv2dResidualPrepared is Conv2dResidual with filters prepared by
// PrepareConv2d.
func Conv2dResidualPrepared(out, x *Array, w *ConvFilters, bias, res *Array, stride, padding []int, groups, act int) {
	a := checkAct("Conv2dResidualPrepared", act)
	if w == nil {
		kernelPanic("Conv2dResidualPrepared", "nil ConvFilters")
	}
	checkResidual("Conv2dResidualPrepared", out, res)
	conv2dWith(out, x, w.w, w, bias, res, stride, padding, groups, a)
}

// checkResidual checks that res is a float32 array with out's elements,
// apart from it in memory.
func checkResidual(name string, out, res *Array) {
	checkDType(name, "residual", res, Float32)
	checkDType(name, "out", out, Float32)
	if !slices.Equal(res.Shape, out.Shape) {
		kernelPanic(name, "residual shape %v, want out's %v", res.Shape, out.Shape)
	}
	if overlaps(out, res) {
		kernelPanic(name, "residual shares memory with out")
	}
}

// convResidualChunk is the most bytes of output a residual convolution
// computes before it adds the residual to them.
const convResidualChunk = 512 << 10

// residualImages computes images [lo, hi) of a residual convolution: small
// images a chunk of at least two at a time (the convolution, then the
// residual and the activation over the chunk, in cache); larger ones all
// at once, then the residual and the activation over them all, spread
// over the worker pool when parallel (a chunk of one image would cost the
// kernels that gather several images, such as Winograd's, more than the
// cache saves: Xeon SPR, 1 worker, 128 channels at 28², batch 8, 7.2 →
// 7.3 ms).
func (j *convJob) residualImages(lo, hi int, parallel bool) {
	if j.path(hi-lo) == pathDirect && (j.resAct == ActNone || j.resAct == ActReLU) {
		// The direct kernels add the residual and apply the ReLU to
		// their accumulators before they store them (Xeon SPR, 1 worker,
		// ResNet-20 at batch 64: see paddedImages).
		fused := *j
		fused.fuseRes = true
		fused.paddedImages(lo, hi, parallel)
		return
	}
	size := j.g.o * j.g.p
	chunk := convResidualChunk / (4 * size)
	if chunk < 2 {
		j.convImages(lo, hi, parallel)
		job := residualJob{out: j.out[lo*size : hi*size], res: j.res[lo*size : hi*size], act: j.resAct}
		blocks := (len(job.out) + elementwiseGrain - 1) / elementwiseGrain
		if !parallel || Workers() == 1 || len(job.out) < elementwiseParallelMin {
			job.blocks(0, blocks)
			return
		}
		runPooled(residualTasks, blocks, job)
		return
	}
	for n := lo; n < hi; n += chunk {
		n1 := min(hi, n+chunk)
		j.convImages(n, n1, parallel)
		job := residualJob{out: j.out[n*size : n1*size], res: j.res[n*size : n1*size], act: j.resAct}
		job.blocks(0, (len(job.out)+elementwiseGrain-1)/elementwiseGrain)
	}
}

// residualJob adds res to out and applies act, in blocks of
// elementwiseGrain elements.
type residualJob struct {
	out, res []float32
	act      Activation
}

var residualTasks = taskPool((*residualJob).blocks)

func (j *residualJob) blocks(lo, hi int) {
	a, b := lo*elementwiseGrain, min(hi*elementwiseGrain, len(j.out))
	out := j.out[a:b]
	addRows(out, out, j.res[a:b])
	actBlock(out, j.act)
}
