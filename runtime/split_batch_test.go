package runtime

import (
	"fmt"
	"slices"
	"testing"
)

// TestSplitBatch checks SplitBatch against f on the whole batch: slices as
// equal as the chunk allows, in order (7 samples by 3 are 3, 2, 2), results
// stacked, Int64 and Float32; and its panics on bad slices and results.
func TestSplitBatch(t *testing.T) {
	x := NewArray(Float32, 7, 2, 3)
	for i := range x.F32 {
		x.F32[i] = float32(i)
	}
	// f: each sample's sum, as an int64, then its first element.
	f := func(a *Array) *Array {
		y := NewArray(Int64, a.Shape[0], 2)
		for s := range a.Shape[0] {
			var sum float32
			for _, v := range a.F32[s*6 : (s+1)*6] {
				sum += v
			}
			y.I64[2*s], y.I64[2*s+1] = int64(sum), int64(a.F32[s*6])
		}
		return y
	}
	for _, chunk := range []int{1, 3, 7, 9} {
		var sizes []int
		got := SplitBatch(x, chunk, func(a *Array) *Array {
			sizes = append(sizes, a.Shape[0])
			return f(a)
		})
		want := f(x)
		if !slices.Equal(got.Shape, want.Shape) || !slices.Equal(got.I64, want.I64) {
			t.Fatalf("chunk %d: %v %v, want %v %v", chunk, got.Shape, got.I64, want.Shape, want.I64)
		}
		wantSizes := map[int][]int{1: {1, 1, 1, 1, 1, 1, 1}, 3: {3, 2, 2}, 7: {7}, 9: {7}}[chunk]
		if !slices.Equal(sizes, wantSizes) {
			t.Errorf("chunk %d: slices of %v, want %v", chunk, sizes, wantSizes)
		}
	}
	for name, call := range map[string]func(){
		"chunk 0":      func() { SplitBatch(x, 0, f) },
		"no samples":   func() { SplitBatch(NewArray(Float32, 0, 2), 1, f) },
		"wrong rows":   func() { SplitBatch(x, 3, func(*Array) *Array { return NewArray(Float32, 1) }) },
		"shape change": func() { SplitBatch(x, 3, func(a *Array) *Array { return NewArray(Float32, a.Shape[0], a.Shape[0]) }) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			call()
		}()
	}
}

// ExampleSplitBatch runs a per-sample function on a batch of five, two
// samples at a time.
func ExampleSplitBatch() {
	x := FromFloat32([]float32{1, 2, 3, 4, 5}, 5, 1)
	double := func(a *Array) *Array {
		y := NewArray(Float32, a.Shape...)
		for i, v := range a.F32 {
			y.F32[i] = 2 * v
		}
		fmt.Println("slice of", a.Shape[0])
		return y
	}
	fmt.Println(SplitBatch(x, 2, double).F32)
	// Output:
	// slice of 2
	// slice of 2
	// slice of 1
	// [2 4 6 8 10]
}
