// This file tests the data-movement kernels against index-by-index
// reference loops, for every dtype.

package runtime

import (
	"math/rand/v2"
	"testing"
)

// seqIota returns an array of the dtype whose element i encodes i (for
// bool, i%3 == 0), so a misplaced element shows.
func seqIota(dt DType, shape ...int) *Array {
	a := NewArray(dt, shape...)
	for i := 0; i < a.Len(); i++ {
		switch dt {
		case Float32:
			a.F32[i] = float32(i) + 0.5
		case Int64:
			a.I64[i] = int64(i)*7 + 1
		case Bool:
			a.B[i] = i%3 == 0
		}
	}
	return a
}

func ravel(idx, shape []int) int {
	off := 0
	for d, i := range idx {
		off = off*shape[d] + i
	}
	return off
}

// sameAt reports whether out[i] == x[j].
func sameAt(out *Array, i int, x *Array, j int) bool {
	switch x.DType {
	case Float32:
		return out.F32[i] == x.F32[j]
	case Int64:
		return out.I64[i] == x.I64[j]
	}
	return out.B[i] == x.B[j]
}

var allDTypes = []DType{Float32, Int64, Bool}

func TestPermuteAgainstReference(t *testing.T) { forEachISA(t, testPermuteAgainstReference) }

func testPermuteAgainstReference(t *testing.T) {
	for _, dt := range allDTypes {
		for _, c := range []struct {
			shape, perm []int
		}{
			{[]int{}, []int{}}, {[]int{5}, []int{0}}, {[]int{3, 5}, []int{1, 0}}, {[]int{2, 3, 4}, []int{2, 0, 1}},
			{[]int{2, 7, 3, 5}, []int{0, 2, 1, 3}}, {[]int{2, 3, 9, 5}, []int{0, 1, 3, 2}}, {[]int{1, 4, 1, 3}, []int{3, 1, 0, 2}},
			{[]int{0, 3}, []int{1, 0}},
		} {
			x := seqIota(dt, c.shape...)
			os := make([]int, len(c.perm))
			for i, p := range c.perm {
				os[i] = c.shape[p]
			}
			out := NewArray(dt, os...)
			Permute(out, x, c.perm)
			for i := 0; i < out.Len(); i++ {
				oi := unravel(i, os)
				xi := make([]int, len(oi))
				for k, p := range c.perm {
					xi[p] = oi[k]
				}
				if !sameAt(out, i, x, ravel(xi, c.shape)) {
					t.Fatalf("%v permute %v by %v: element %v differs", dt, c.shape, c.perm, oi)
				}
			}
		}
	}
}

func TestTransposeAgainstPermute(t *testing.T) { forEachISA(t, testTransposeAgainstPermute) }

func testTransposeAgainstPermute(t *testing.T) {
	x := seqIota(Float32, 2, 4, 6, 3)
	for _, d := range [][2]int{{-2, -1}, {1, 2}, {0, 3}, {2, 2}, {-1, 1}} {
		a, _ := NormalizeDim(d[0], 4)
		b, _ := NormalizeDim(d[1], 4)
		perm := []int{0, 1, 2, 3}
		perm[a], perm[b] = b, a
		shape := []int{x.Shape[perm[0]], x.Shape[perm[1]], x.Shape[perm[2]], x.Shape[perm[3]]}
		got, want := NewArray(Float32, shape...), NewArray(Float32, shape...)
		Transpose(got, x, d[0], d[1])
		Permute(want, x, perm)
		for i := range want.F32 {
			if got.F32[i] != want.F32[i] {
				t.Fatalf("transpose %v: element %d: got %v, want %v", d, i, got.F32[i], want.F32[i])
			}
		}
	}
}

func TestSplitAgainstReference(t *testing.T) { forEachISA(t, testSplitAgainstReference) }

func testSplitAgainstReference(t *testing.T) {
	for _, dt := range allDTypes {
		for _, c := range []struct {
			shape, sizes []int
			dim          int
		}{
			{[]int{3, 8}, []int{2, 2, 2, 2}, 1}, {[]int{7}, []int{3, 3, 1}, 0}, {[]int{2, 5, 3}, []int{1, 4}, -2},
			{[]int{4, 3}, []int{4}, 0}, {[]int{2, 3}, []int{0, 3}, 1},
		} {
			x := seqIota(dt, c.shape...)
			d, _ := NormalizeDim(c.dim, len(c.shape))
			var outs []*Array
			for _, s := range c.sizes {
				os := append([]int{}, c.shape...)
				os[d] = s
				outs = append(outs, NewArray(dt, os...))
			}
			Split(outs, x, c.dim)
			off := 0
			for k, o := range outs {
				for i := 0; i < o.Len(); i++ {
					xi := unravel(i, o.Shape)
					xi[d] += off
					if !sameAt(o, i, x, ravel(xi, c.shape)) {
						t.Fatalf("%v split %v by %v: piece %d element %d differs", dt, c.shape, c.sizes, k, i)
					}
				}
				off += o.Shape[d]
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Split accepted pieces that do not cover the dim")
		}
	}()
	Split([]*Array{NewArray(Float32, 2), NewArray(Float32, 2)}, NewArray(Float32, 5), 0)
}

func TestSelectAndSliceAgainstReference(t *testing.T) {
	forEachISA(t, testSelectAndSliceAgainstReference)
}

func testSelectAndSliceAgainstReference(t *testing.T) {
	for _, dt := range allDTypes {
		shape := []int{3, 5, 4}
		x := seqIota(dt, shape...)
		for d := 0; d < 3; d++ {
			for _, index := range []int{0, 2, -1} {
				os := append(append([]int{}, shape[:d]...), shape[d+1:]...)
				out := NewArray(dt, os...)
				Select(out, x, d, index)
				idx := index
				if idx < 0 {
					idx += shape[d]
				}
				for i := 0; i < out.Len(); i++ {
					oi := unravel(i, os)
					xi := append(append(append([]int{}, oi[:d]...), idx), oi[d:]...)
					if !sameAt(out, i, x, ravel(xi, shape)) {
						t.Fatalf("%v select dim %d index %d: element %v differs", dt, d, index, oi)
					}
				}
			}
			for _, s := range [][3]int{{0, 5, 1}, {1, 4, 2}, {-3, 100, 1}, {2, 1, 1}, {0, -1, 3}, {-100, 2, 1}} {
				first, count := SliceRange(shape[d], s[0], s[1], s[2])
				// The reference: Python's range over the clamped bounds.
				var want []int
				lo, hi := s[0], s[1]
				if lo < 0 {
					lo = max(lo+shape[d], 0)
				}
				if hi < 0 {
					hi += shape[d]
				}
				for j := min(lo, shape[d]); j < min(hi, shape[d]); j += s[2] {
					want = append(want, j)
				}
				if count != len(want) || count > 0 && first != want[0] {
					t.Fatalf("SliceRange(%d, %v): got first %d count %d, want %v", shape[d], s, first, count, want)
				}
				os := append([]int{}, shape...)
				os[d] = count
				out := NewArray(dt, os...)
				Slice(out, x, d, s[0], s[1], s[2])
				for i := 0; i < out.Len(); i++ {
					xi := unravel(i, os)
					xi[d] = want[xi[d]]
					if !sameAt(out, i, x, ravel(xi, shape)) {
						t.Fatalf("%v slice dim %d %v: element %d differs", dt, d, s, i)
					}
				}
			}
		}
	}
}

func TestIndexSelectAgainstReference(t *testing.T) { forEachISA(t, testIndexSelectAgainstReference) }

func testIndexSelectAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	for _, dt := range allDTypes {
		for _, c := range []struct {
			shape []int
			dim   int
		}{{[]int{3, 81}, 1}, {[]int{4, 5, 3}, 1}, {[]int{6}, 0}, {[]int{2, 3, 4}, -1}, {[]int{5, 2}, 0}} {
			x := seqIota(dt, c.shape...)
			d, _ := NormalizeDim(c.dim, len(c.shape))
			idx := NewArray(Int64, 2*c.shape[d]+1) // repeats
			for i := range idx.I64 {
				idx.I64[i] = r.Int64N(int64(c.shape[d]))
			}
			os := append([]int{}, c.shape...)
			os[d] = idx.Len()
			out := NewArray(dt, os...)
			IndexSelect(out, x, idx, c.dim)
			for i := 0; i < out.Len(); i++ {
				xi := unravel(i, os)
				xi[d] = int(idx.I64[xi[d]])
				if !sameAt(out, i, x, ravel(xi, c.shape)) {
					t.Fatalf("%v index_select %v dim %d: element %d differs", dt, c.shape, c.dim, i)
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Errorf("IndexSelect accepted index 3 for a dim of 3")
		}
	}()
	IndexSelect(NewArray(Float32, 2, 1), NewArray(Float32, 2, 3), FromInt64([]int64{3}, 1), 1)
}

func TestStackAndCatAgainstReference(t *testing.T) { forEachISA(t, testStackAndCatAgainstReference) }

func testStackAndCatAgainstReference(t *testing.T) {
	for _, dt := range allDTypes {
		s := []int{2, 3, 4}
		xs := []*Array{seqIota(dt, s...), seqIota(dt, s...), seqIota(dt, s...)}
		// Make the inputs differ.
		for i := 0; i < xs[1].Len(); i++ {
			switch dt {
			case Float32:
				xs[1].F32[i] = -xs[1].F32[i]
				xs[2].F32[i] += 1000
			case Int64:
				xs[1].I64[i] = -xs[1].I64[i]
				xs[2].I64[i] += 1000
			case Bool:
				xs[1].B[i] = !xs[1].B[i]
			}
		}
		for d := -4; d <= 3; d++ {
			nd, _ := NormalizeDim(d, 4)
			os := append(append(append([]int{}, s[:nd]...), 3), s[nd:]...)
			out := NewArray(dt, os...)
			Stack(out, xs, d)
			for i := 0; i < out.Len(); i++ {
				oi := unravel(i, os)
				k := oi[nd]
				xi := append(append([]int{}, oi[:nd]...), oi[nd+1:]...)
				if !sameAt(out, i, xs[k], ravel(xi, s)) {
					t.Fatalf("%v stack dim %d: element %v differs", dt, d, oi)
				}
			}
		}
		// Cat of different sizes along each dim.
		for d := 0; d < 3; d++ {
			var parts []*Array
			total := 0
			for k, n := range []int{2, 1, 3} {
				ps := append([]int{}, s...)
				ps[d] = n
				p := seqIota(dt, ps...)
				if dt == Float32 {
					for i := range p.F32 {
						p.F32[i] += float32(100 * k)
					}
				}
				parts = append(parts, p)
				total += n
			}
			os := append([]int{}, s...)
			os[d] = total
			out := NewArray(dt, os...)
			Cat(out, parts, d)
			for i := 0; i < out.Len(); i++ {
				oi := unravel(i, os)
				k, j := 0, oi[d]
				for j >= parts[k].Shape[d] {
					j -= parts[k].Shape[d]
					k++
				}
				xi := append([]int{}, oi...)
				xi[d] = j
				if !sameAt(out, i, parts[k], ravel(xi, parts[k].Shape)) {
					t.Fatalf("%v cat dim %d: element %v differs", dt, d, oi)
				}
			}
		}
	}
}
