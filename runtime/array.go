// This file defines Array, the dense value every kernel reads and writes.

package runtime

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
)

// DType is the element type of an Array.
type DType uint8

// The element types fxgen supports.
const (
	Invalid DType = iota
	Float32
	Int64
	Bool
)

// String returns the short name used in specs and printed graphs: f32, i64, bool.
func (d DType) String() string {
	switch d {
	case Float32:
		return "f32"
	case Int64:
		return "i64"
	case Bool:
		return "bool"
	}
	return "invalid"
}

// Size returns the bytes of one element of d (0 for Invalid).
func (d DType) Size() int {
	switch d {
	case Float32:
		return 4
	case Int64:
		return 8
	case Bool:
		return 1
	}
	return 0
}

// ParseDType parses the short name of a DType (f32, i64, bool).
func ParseDType(s string) (DType, error) {
	switch s {
	case "f32", "float32":
		return Float32, nil
	case "i64", "int64":
		return Int64, nil
	case "bool":
		return Bool, nil
	}
	return Invalid, fmt.Errorf("unknown dtype %q (want f32, i64 or bool)", s)
}

// Array is a dense row-major array: a dtype, a shape and exactly one non-nil
// backing slice of that dtype whose length is the product of the shape.
type Array struct {
	DType DType
	Shape []int
	F32   []float32
	I64   []int64
	B     []bool

	version atomic.Uint64 // advanced by MarkChanged; see Version
}

// NumElements returns the product of shape (1 for a scalar shape).
func NumElements(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// ShapeElements returns the number of elements of shape, or an error when
// a dimension is negative or the count does not fit in an int. Unlike
// NumElements it is safe on untrusted shapes: callers check it before they
// allocate.
func ShapeElements(shape []int) (int, error) {
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("shape %v has a negative dimension", slices.Clone(shape))
		}
		if d == 0 {
			return 0, nil
		}
	}
	n := 1
	for _, d := range shape {
		if n > math.MaxInt/d {
			return 0, fmt.Errorf("shape %v has more elements than an int can count", slices.Clone(shape))
		}
		n *= d
	}
	return n, nil
}

// maxArrayBytes is the most bytes an array may hold: Go's heap on 64-bit
// platforms ends at 2^48 bytes (2^47 here, for any element size up to 8).
const maxArrayBytes = 1 << 47

// NewArray returns a zeroed array of the given dtype and shape.
func NewArray(dt DType, shape ...int) *Array {
	return new(ShapedArray).Init(dt, shape...)
}

// ShapedArray is an Array with room for a shape of up to six dims, so
// that the array and its shape are one allocation: NewArray's, and with
// its Tensor tensor.NewResult's, which a compiled Forward makes its
// outputs with on every call.
type ShapedArray struct {
	Array
	dims [6]int
}

// Init gives the zero ShapedArray s dtype dt, the shape (kept in s when
// it has at most six dims) and new zeroed elements, and returns its
// Array.
func (s *ShapedArray) Init(dt DType, shape ...int) *Array {
	if len(shape) <= len(s.dims) {
		s.Shape = s.dims[:0:len(shape)]
	}
	s.Reset(dt, shape...)
	return &s.Array
}

// Reset gives a the dtype and shape, reusing its backing slice when it is
// large enough. The contents are unspecified afterwards.
func (a *Array) Reset(dt DType, shape ...int) {
	n, err := ShapeElements(shape)
	if err != nil {
		panic("runtime: Reset: " + err.Error())
	}
	if uint64(n) > maxArrayBytes/8 {
		// Go itself would refuse with "makeslice: len out of range".
		panic(fmt.Sprintf("runtime: Reset: shape %v has %d elements, more than a Go process can allocate", slices.Clone(shape), n))
	}
	a.DType = dt
	a.Shape = append(a.Shape[:0], shape...)
	switch dt {
	case Float32:
		a.I64, a.B = nil, nil
		if cap(a.F32) < n {
			a.F32 = make([]float32, n)
		}
		a.F32 = a.F32[:n]
	case Int64:
		a.F32, a.B = nil, nil
		if cap(a.I64) < n {
			a.I64 = make([]int64, n)
		}
		a.I64 = a.I64[:n]
	case Bool:
		a.F32, a.I64 = nil, nil
		if cap(a.B) < n {
			a.B = make([]bool, n)
		}
		a.B = a.B[:n]
	default:
		panic("runtime: Reset: invalid dtype")
	}
}

// Len returns the number of elements.
func (a *Array) Len() int { return NumElements(a.Shape) }

// Float32Scalar returns a 0-d float32 array holding v.
func Float32Scalar(v float32) *Array {
	return &Array{DType: Float32, Shape: []int{}, F32: []float32{v}}
}

// Int64Scalar returns a 0-d int64 array holding v.
func Int64Scalar(v int64) *Array { return &Array{DType: Int64, Shape: []int{}, I64: []int64{v}} }

// FromFloat32 wraps data (not copied) as a float32 array of the given shape.
func FromFloat32(data []float32, shape ...int) *Array {
	mustLen("FromFloat32", len(data), shape)
	return &Array{DType: Float32, Shape: append([]int{}, shape...), F32: data}
}

// FromInt64 wraps data (not copied) as an int64 array of the given shape.
func FromInt64(data []int64, shape ...int) *Array {
	mustLen("FromInt64", len(data), shape)
	return &Array{DType: Int64, Shape: append([]int{}, shape...), I64: data}
}

// FromBool wraps data (not copied) as a bool array of the given shape.
func FromBool(data []bool, shape ...int) *Array {
	mustLen("FromBool", len(data), shape)
	return &Array{DType: Bool, Shape: append([]int{}, shape...), B: data}
}

func mustLen(fn string, n int, shape []int) {
	want, err := ShapeElements(shape)
	if err != nil {
		panic(fmt.Sprintf("runtime: %s: %v", fn, err))
	}
	if n != want {
		panic(fmt.Sprintf("runtime: %s: %d elements for shape %v", fn, n, slices.Clone(shape)))
	}
}

// Clone returns a deep copy of a.
func (a *Array) Clone() *Array {
	c := &Array{DType: a.DType, Shape: append([]int{}, a.Shape...)}
	switch a.DType {
	case Float32:
		c.F32 = append([]float32{}, a.F32...)
	case Int64:
		c.I64 = append([]int64{}, a.I64...)
	case Bool:
		c.B = append([]bool{}, a.B...)
	}
	return c
}

// View returns an array sharing a's data with another shape of the same size.
func (a *Array) View(shape ...int) *Array {
	if NumElements(shape) != a.Len() {
		panic(fmt.Sprintf("runtime: View: cannot view %v as %v", a.Shape, shape))
	}
	return &Array{DType: a.DType, Shape: append([]int{}, shape...), F32: a.F32, I64: a.I64, B: a.B}
}

// At returns element i (row-major flat index) converted to float64.
func (a *Array) At(i int) float64 {
	switch a.DType {
	case Float32:
		return float64(a.F32[i])
	case Int64:
		return float64(a.I64[i])
	case Bool:
		if a.B[i] {
			return 1
		}
	}
	return 0
}

// String prints the dtype, shape and up to 8 leading elements.
func (a *Array) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v%v[", a.DType, a.Shape)
	n := a.Len()
	for i := 0; i < n && i < 8; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%.6g", a.At(i))
	}
	if n > 8 {
		b.WriteString(" ...")
	}
	b.WriteByte(']')
	return b.String()
}

func kernelPanic(kernel, format string, args ...any) {
	panic("runtime: " + kernel + ": " + fmt.Sprintf(format, args...))
}

func checkDType(kernel, what string, a *Array, dt DType) {
	if a.DType != dt {
		kernelPanic(kernel, "%s: got dtype %v, want %v", what, a.DType, dt)
	}
}

// checkShape panics unless a has the shape dims. (dims does not escape:
// the message gets a copy, so a call allocates nothing.)
func checkShape(kernel, what string, a *Array, dims ...int) {
	if !slices.Equal(a.Shape, dims) {
		kernelPanic(kernel, "%s: got shape %v, want %v", what, a.Shape, slices.Clone(dims))
	}
}
