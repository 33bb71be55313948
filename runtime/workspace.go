// This file holds Workspace, the storage of a compiled module's
// intermediate values.

package runtime

import "fmt"

// Workspace is one slice per dtype from which a compiled module's
// intermediate arrays are carved at planned offsets, so that values whose
// lifetimes do not overlap share memory. Growing it reallocates; once it
// is large enough, Reserve and Bind allocate nothing.
type Workspace struct {
	F32 []float32
	I64 []int64
	B   []bool
}

// SlotAlign is the element count every workspace slot size is rounded up
// to (64 bytes of float32), so that slots start on a cache line relative
// to the slice.
const SlotAlign = 16

// SlotSize returns n rounded up to a multiple of SlotAlign.
func SlotSize(n int) int { return (n + SlotAlign - 1) / SlotAlign * SlotAlign }

// Reserve makes the workspace hold at least f32, i64 and b elements of
// each dtype. Contents are unspecified afterwards.
func (w *Workspace) Reserve(f32, i64, b int) {
	if cap(w.F32) < f32 {
		w.F32 = make([]float32, f32)
	}
	w.F32 = w.F32[:cap(w.F32)]
	if cap(w.I64) < i64 {
		w.I64 = make([]int64, i64)
	}
	w.I64 = w.I64[:cap(w.I64)]
	if cap(w.B) < b {
		w.B = make([]bool, b)
	}
	w.B = w.B[:cap(w.B)]
}

// Bind makes a the array of dtype dt and the given shape stored in the
// workspace's elements [off, off+NumElements(shape)) of that dtype,
// reusing a's shape slice. It panics if the range is outside the
// workspace.
func (w *Workspace) Bind(a *Array, dt DType, off int, shape ...int) {
	n := NumElements(shape)
	var have int
	switch dt {
	case Float32:
		have = len(w.F32)
	case Int64:
		have = len(w.I64)
	case Bool:
		have = len(w.B)
	default:
		panic("runtime: Workspace.Bind: invalid dtype")
	}
	if off < 0 || off+n > have {
		panic(fmt.Sprintf("runtime: Workspace.Bind: elements [%d, %d) of a %v workspace of %d", off, off+n, dt, have))
	}
	a.DType = dt
	a.Shape = append(a.Shape[:0], shape...)
	a.F32, a.I64, a.B = nil, nil, nil
	switch dt {
	case Float32:
		a.F32 = w.F32[off : off+n : off+n]
	case Int64:
		a.I64 = w.I64[off : off+n : off+n]
	case Bool:
		a.B = w.B[off : off+n : off+n]
	}
}
