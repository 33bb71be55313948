// This file holds the fused kernels: a matrix product or convolution
// followed by its activation in one call.

package runtime

// LinearAct sets out = act(x·wᵀ + bias), Linear followed by the activation
// act (an Activation: 0 none, 1 ReLU, 2 GELU) without a second array.
//
//	out[r, j] = act(bias[j] + Σp x[r, p]·w[j, p])
func LinearAct(out, x, w, bias *Array, act int) {
	a := checkAct("LinearAct", act)
	Linear(out, x, w, bias)
	applyAct(out.F32, a)
}

// LinearActPacked is LinearAct with the weight packed by PackLinear; the
// bias and a ReLU are applied in the GEMM's epilogue, while each tile of
// out is in cache (a GELU is applied after the product, over whole rows by
// Gelu's kernel: applied per tile in the epilogue it measured no faster on
// the transformer). Like Relu, the epilogue's ReLU keeps a NaN, as PyTorch
// does.
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
// in the GEMM's epilogue while each tile of out is in cache (keeping NaN,
// as Relu does), a GELU in place afterwards.
//
//	out[n, o, i, j] = act(conv2d(x, w, bias, stride, padding, groups)[n, o, i, j])
func Conv2dAct(out, x, w, bias *Array, stride, padding []int, groups, act int) {
	a := checkAct("Conv2dAct", act)
	if a == ActGELU {
		Conv2d(out, x, w, bias, stride, padding, groups)
		applyAct(out.F32, a)
		return
	}
	conv2d(out, x, w, bias, stride, padding, groups, a)
}

func checkAct(kernel string, act int) Activation {
	if act < int(ActNone) || act > int(ActGELU) {
		kernelPanic(kernel, "unknown activation %d (want 0 none, 1 ReLU, 2 GELU)", act)
	}
	return Activation(act)
}

// applyAct applies a to x in place, over the worker pool when x is large.
func applyAct(x []float32, a Activation) {
	switch a {
	case ActReLU:
		blocks := (len(x) + elementwiseGrain - 1) / elementwiseGrain
		if blocks < 4 || Workers() == 1 {
			reluF32(x, x)
			return
		}
		runPooled(reluTasks, blocks, reluJob{x})
	case ActGELU:
		parallelElementwise(x, x, taskGelu)
	}
}

var reluTasks = taskPool((*reluJob).blocks)

// reluJob is one in-place ReLU over the worker pool, in blocks of
// elementwiseGrain elements.
type reluJob struct{ x []float32 }

func (j *reluJob) blocks(lo, hi int) {
	x := j.x[lo*elementwiseGrain : min(hi*elementwiseGrain, len(j.x))]
	reluF32(x, x)
}
