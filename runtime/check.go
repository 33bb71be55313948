// This file holds the input checks that generated code runs on entry.

package runtime

import (
	"fmt"
	"slices"
)

// CheckInput panics with a message naming fn and the input unless a has
// dtype dt and the given dims, where -1 accepts any size.
func CheckInput(fn, name string, a *Array, dt DType, dims ...int) {
	ok := a != nil && a.DType == dt && len(a.Shape) == len(dims)
	for i := 0; ok && i < len(dims); i++ {
		ok = dims[i] < 0 || dims[i] == a.Shape[i]
	}
	if !ok {
		// A copy of dims, so that they do not escape: a call that passes
		// its inputs' checks allocates nothing.
		panic(fmt.Sprintf("%s: %s: got %v, want %v%v (-1: any size)", fn, name, describe(a), dt, slices.Clone(dims)))
	}
}

// CheckDim panics unless dimension i of a is want; sym names the symbolic
// size it stands for.
func CheckDim(fn, name string, a *Array, i, want int, sym string) {
	if a.Shape[i] != want {
		panic(fmt.Sprintf("%s: %s: dim %d is %d, but %s = %d from an earlier input", fn, name, i, a.Shape[i], sym, want))
	}
}

func describe(a *Array) string {
	if a == nil {
		return "nil"
	}
	return fmt.Sprintf("%v%v", a.DType, a.Shape)
}
