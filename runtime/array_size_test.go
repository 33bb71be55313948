// This file tests that the array constructors refuse shapes whose element
// count is negative or overflows, with a message naming the constructor,
// instead of wrapping around or allocating absurd sizes.
// Its cases are 64-bit sizes, so it builds on 64-bit platforms only.

//go:build amd64 || arm64 || loong64 || mips64 || mips64le || ppc64 || ppc64le || riscv64 || s390x

package runtime

import (
	"math"
	"strings"
	"testing"
)

func TestShapeElements(t *testing.T) {
	for _, tc := range []struct {
		shape []int
		n     int
		err   string
	}{
		{[]int{}, 1, ""},
		{[]int{2, 3}, 6, ""},
		{[]int{0, math.MaxInt}, 0, ""},
		{[]int{math.MaxInt, 0}, 0, ""},
		{[]int{-1, 3}, 0, "negative"},
		{[]int{1 << 62, 3}, 0, "more elements"},
		{[]int{1 << 32, 1 << 32}, 0, "more elements"},
		{[]int{math.MaxInt, 1}, math.MaxInt, ""},
	} {
		n, err := ShapeElements(tc.shape)
		if tc.err == "" && (err != nil || n != tc.n) {
			t.Errorf("ShapeElements(%v) = %d, %v; want %d", tc.shape, n, err, tc.n)
		}
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ShapeElements(%v) = %d, %v; want an error containing %q", tc.shape, n, err, tc.err)
		}
	}
}

// Before ShapeElements, FromFloat32(make([]float32, 0), 1<<62, 4) was
// accepted: the product 2^64 wrapped to 0, which equals len(data).
func TestConstructorsRefuseOverflowingShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"FromFloat32 wraps to 0", func() { FromFloat32(nil, 1<<62, 4) }, "runtime: FromFloat32: shape"},
		{"FromInt64 wraps to 0", func() { FromInt64(nil, 1<<32, 1<<32) }, "runtime: FromInt64: shape"},
		{"FromBool negative", func() { FromBool([]bool{true}, -1, -1) }, "runtime: FromBool: shape"},
		{"NewArray overflow", func() { NewArray(Float32, 1<<62, 3) }, "runtime: Reset: shape"},
		{"NewArray negative", func() { NewArray(Int64, 2, -3) }, "runtime: Reset: shape"},
		{"NewArray past the heap", func() { NewArray(Int64, 1<<62) }, "runtime: Reset: shape [4611686018427387904] has"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				s, _ := r.(string)
				if !strings.HasPrefix(s, tc.want) {
					t.Errorf("panic %v, want one beginning %q", r, tc.want)
				}
			}()
			tc.f()
		})
	}
}
