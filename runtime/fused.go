// This file holds the fused kernels: a matrix product or convolution
// followed by its activation in one call.

package runtime

// LinearAct sets out = act(x·wᵀ + bias), Linear followed by the activation
// act (an Activation: 0 none, 1 ReLU, 2 GELU, 3 ReLU6, 4 SiLU) without a
// second array.
//
//	out[r, j] = act(bias[j] + Σp x[r, p]·w[j, p])
func LinearAct(out, x, w, bias *Array, act int) {
	a := checkAct("LinearAct", act)
	Linear(out, x, w, bias)
	applyAct(out.F32, a)
}

// LinearActPacked is LinearAct with the weight packed by PackLinear; the
// bias and a ReLU are applied in the GEMM's epilogue, a ReLU6 or SiLU to
// each tile of out while it is in cache (a GELU is applied after the
// product, over whole rows by Gelu's kernel: applied per tile it measured
// no faster on the transformer). Like Relu, the epilogue's ReLU keeps a
// NaN, as PyTorch does.
//
//	out[r, j] = act(bias[j] + Σp x[r, p]·w[j, p])
func LinearActPacked(out, x *Array, w *PackedB, bias *Array, act int) {
	a := checkAct("LinearActPacked", act)
	if a == ActGELU {
		linearPacked("LinearActPacked", out, x, w, bias, ActNone)
		applyAct(out.F32, a)
		return
	}
	linearPacked("LinearActPacked", out, x, w, bias, a)
}

// Conv2dAct sets out = act(conv2d(x, w, bias)), Conv2d followed by the
// activation act (an Activation) without a second array: a ReLU is applied
// in the kernels' epilogues (keeping NaN, as Relu does), the others to each
// block of out the kernels write (a tile, a channel's rows) while it is in
// cache, so out goes through memory once.
//
//	out[n, o, i, j] = act(conv2d(x, w, bias, stride, padding, groups)[n, o, i, j])
func Conv2dAct(out, x, w, bias *Array, stride, padding []int, groups, act int) {
	conv2d(out, x, w, bias, stride, padding, groups, checkAct("Conv2dAct", act))
}

func checkAct(kernel string, act int) Activation {
	if act < int(ActNone) || act > int(ActSiLU) {
		kernelPanic(kernel, "unknown activation %d (want 0 none, 1 ReLU, 2 GELU, 3 ReLU6, 4 SiLU)", act)
	}
	return Activation(act)
}

// applyAct applies a to x in place, over the worker pool when x is large.
func applyAct(x []float32, a Activation) {
	if a == ActNone {
		return
	}
	// The cheap clamps pay for the pool's hand-off from more elements.
	least := 2
	if a == ActReLU || a == ActReLU6 {
		least = 4
	}
	blocks := (len(x) + elementwiseGrain - 1) / elementwiseGrain
	if blocks < least || Workers() == 1 {
		actBlock(x, a)
		return
	}
	runPooled(actTasks, blocks, actJob{x, a})
}

var actTasks = taskPool((*actJob).blocks)

// actJob is one in-place activation over the worker pool, in blocks of
// elementwiseGrain elements.
type actJob struct {
	x []float32
	a Activation
}

func (j *actJob) blocks(lo, hi int) {
	actBlock(j.x[lo*elementwiseGrain:min(hi*elementwiseGrain, len(j.x))], j.a)
}

// actBlock applies a to x in place on the calling goroutine, with the
// vector kernels of the selected tier.
func actBlock(x []float32, a Activation) {
	switch a {
	case ActReLU:
		reluF32(x, x)
	case ActGELU:
		activationF32(taskGelu, x, x)
	case ActReLU6:
		clampSlice(x, x, 0, 6)
	case ActSiLU:
		activationF32(taskSilu, x, x)
	}
}

// postAct reports whether the kernels apply a after their products, to
// each block of the result while it is in cache, rather than in their
// epilogue's registers as they do a ReLU.
func postAct(a Activation) bool { return a != ActNone && a != ActReLU }
