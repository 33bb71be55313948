// This file holds Adopt, how compiled code takes the result of a Go call
// it makes (a leaf module's Forward, a wrapped function) without copying.

package runtime

import (
	"fmt"
	"unsafe"
)

// Adopt returns r, the result of the Go call what made from compiled
// code, for the compiled code to use as the value it traced: r itself
// when it shares no memory with the call's arguments args, else a copy,
// so that the value never changes when the compiled code reuses an
// argument's storage and a result is never an input. It panics, naming
// what, when r is nil or not of the traced dtype and shape. The call must
// return an array it does not keep (a fresh one, as Go's tensor ops give).
func Adopt(what string, r *Array, dt DType, shape []int, args ...*Array) *Array {
	if r == nil || r.DType != dt || !equalInts(r.Shape, shape) {
		adoptPanic(what, r, dt, append([]int(nil), shape...)) // a copy, so that shape does not escape
	}
	for _, a := range args {
		if a != nil && overlaps(r, a) {
			return r.Clone()
		}
	}
	return r
}

// overlaps reports whether a and b share any element of storage.
func overlaps(a, b *Array) bool {
	lo, hi := span(a)
	blo, bhi := span(b)
	return lo < bhi && blo < hi
}

// span returns the address range of a's elements (empty for no elements).
func span(a *Array) (lo, hi uintptr) {
	var p unsafe.Pointer
	var n, size int
	switch {
	case len(a.F32) > 0:
		p, n, size = unsafe.Pointer(unsafe.SliceData(a.F32)), len(a.F32), 4
	case len(a.I64) > 0:
		p, n, size = unsafe.Pointer(unsafe.SliceData(a.I64)), len(a.I64), 8
	case len(a.B) > 0:
		p, n, size = unsafe.Pointer(unsafe.SliceData(a.B)), len(a.B), 1
	default:
		return 0, 0
	}
	lo = uintptr(p)
	return lo, lo + uintptr(n*size)
}

// adoptPanic reports a result of the wrong type.
func adoptPanic(what string, r *Array, dt DType, shape []int) {
	if r == nil {
		panic(fmt.Sprintf("runtime: %s returned nil; it was traced to return %v%v", what, dt, shape))
	}
	panic(fmt.Sprintf("runtime: %s returned %v%v; it was traced to return %v%v (a result whose shape depends on more than the traced sizes cannot be compiled)", what, r.DType, r.Shape, dt, shape))
}
