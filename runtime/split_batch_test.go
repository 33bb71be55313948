package runtime

import (
	"fmt"
	"slices"
	"testing"
)

// TestSplitBatch checks SplitBatch against f on the whole batch: slices as
// equal as the chunk allows, in order (7 samples by 3 are 3, 2, 2), each
// written into the matching rows of out, Int64 and Float32; and its
// panics on bad batches.
func TestSplitBatch(t *testing.T) {
	x := NewArray(Float32, 7, 2, 3)
	for i := range x.F32 {
		x.F32[i] = float32(i)
	}
	// f: each sample's sum, as an int64, then its first element.
	f := func(y, a *Array) {
		if y.Shape[0] != a.Shape[0] {
			t.Fatalf("out rows %v for x rows %v", y.Shape, a.Shape)
		}
		for s := range a.Shape[0] {
			var sum float32
			for _, v := range a.F32[s*6 : (s+1)*6] {
				sum += v
			}
			y.I64[2*s], y.I64[2*s+1] = int64(sum), int64(a.F32[s*6])
		}
	}
	want := NewArray(Int64, 7, 2)
	f(want, x)
	for _, chunk := range []int{1, 3, 7, 9} {
		var sizes []int
		got := NewArray(Int64, 7, 2)
		SplitBatch(got, x, chunk, func(y, a *Array) {
			sizes = append(sizes, a.Shape[0])
			f(y, a)
		})
		if !slices.Equal(got.I64, want.I64) {
			t.Fatalf("chunk %d: %v, want %v", chunk, got.I64, want.I64)
		}
		wantSizes := map[int][]int{1: {1, 1, 1, 1, 1, 1, 1}, 3: {3, 2, 2}, 7: {7}, 9: {7}}[chunk]
		if !slices.Equal(sizes, wantSizes) {
			t.Errorf("chunk %d: slices of %v, want %v", chunk, sizes, wantSizes)
		}
	}
	out := NewArray(Int64, 7, 2)
	for name, call := range map[string]func(){
		"chunk 0":       func() { SplitBatch(out, x, 0, f) },
		"no samples":    func() { SplitBatch(NewArray(Int64, 0, 2), NewArray(Float32, 0, 2), 1, f) },
		"out too short": func() { SplitBatch(NewArray(Int64, 6, 2), x, 3, f) },
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
	y := NewArray(Float32, 5, 1)
	SplitBatch(y, x, 2, func(out, in *Array) {
		for i, v := range in.F32 {
			out.F32[i] = 2 * v
		}
		fmt.Println("slice of", in.Shape[0])
	})
	fmt.Println(y.F32)
	// Output:
	// slice of 2
	// slice of 2
	// slice of 1
	// [2 4 6 8 10]
}
