// This file holds Conv1d, the 1-D convolution, computed by Conv2d on a
// view of height 1.

package runtime

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
	var x4, w4, out4 Array
	View(&x4, x, x.Shape[0], x.Shape[1], 1, x.Shape[2])
	View(&w4, w, w.Shape[0], w.Shape[1], 1, w.Shape[2])
	View(&out4, out, out.Shape[0], out.Shape[1], 1, out.Shape[2])
	Conv2d(&out4, &x4, &w4, bias, []int{1, stride}, []int{0, padding}, groups)
}
