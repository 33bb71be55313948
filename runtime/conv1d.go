// This file holds Conv1d, the 1-D convolution, computed by Conv2d on a
// view of height 1.

package runtime

import "sync"

// Conv1d sets out [N, O, OL] to the 1-D convolution of x [N, C, L] with w
// [O, C/groups, K] and bias [O] (or nil), as torch.nn.functional.conv1d
// with dilation 1: OL = (L + 2·padding - K)/stride + 1. It is Conv2d on
// views of height 1, so it has the same kernels and parallelism.
//
//	out[n, o, j] = bias[o] + Σ c, q  x[n, (o/Og)*Cg+c, j*stride-padding+q] * w[o, c, q]
func Conv1d(out, x, w, bias *Array, stride, padding, groups int) {
	const name = "Conv1d"
	if len(x.Shape) != 3 || len(w.Shape) != 3 || len(out.Shape) != 3 {
		kernelPanic(name, "x %v, w %v and out %v, want [N, C, L], [O, C/groups, K] and [N, O, OL]", x.Shape, w.Shape, out.Shape)
	}
	v := conv1dViews.Get().(*conv1dView)
	View(&v.x, x, x.Shape[0], x.Shape[1], 1, x.Shape[2])
	View(&v.w, w, w.Shape[0], w.Shape[1], 1, w.Shape[2])
	View(&v.out, out, out.Shape[0], out.Shape[1], 1, out.Shape[2])
	v.stride[0], v.stride[1], v.pad[0], v.pad[1] = 1, stride, 0, padding
	Conv2d(&v.out, &v.x, &v.w, bias, v.stride[:], v.pad[:], groups)
	v.x, v.w, v.out = Array{Shape: v.x.Shape[:0]}, Array{Shape: v.w.Shape[:0]}, Array{Shape: v.out.Shape[:0]}
	conv1dViews.Put(v)
}

// conv1dView is Conv1d's height-1 views and pairs, pooled so that a call
// allocates nothing once warm.
type conv1dView struct {
	x, w, out   Array
	stride, pad [2]int
}

var conv1dViews = sync.Pool{New: func() any { return new(conv1dView) }}
