// This file holds View, which gives an array another shape without copying.

package runtime

// View makes out an array of x's dtype and the given shape that shares x's
// backing slice: a write to either shows in the other. The shape must have
// as many elements as x. It reuses out's shape slice, so a warmed-up out
// allocates nothing. It is what a reshape of a dense array computes, and
// compiled code calls it where the memory plan makes a reshape a view.
func View(out, x *Array, shape ...int) {
	if NumElements(shape) != x.Len() {
		kernelPanic("View", "cannot view %v%v as %v", x.DType, x.Shape, append([]int(nil), shape...)) // a copy, so that shape does not escape
	}
	out.DType = x.DType
	out.Shape = append(out.Shape[:0], shape...)
	out.F32, out.I64, out.B = x.F32, x.I64, x.B
}
