// This file holds the m = 1 product's sparse panels: where the row of A
// is mostly zeros (a ReLU's output at batch 1), each panel of the packed
// B is read only at the rows of the nonzero elements.

package runtime

// gemvLists are the indices of the nonzero elements (NaN included) of
// the row x of an m = 1 product, split by the chains of the kernels'
// gemv rows (four partial sums: p < k&^3 adds to chain p%4, the p past
// them to chain 0): chain r's n[r] indices, in increasing order, start
// at idx[r*stride].
type gemvLists struct {
	idx    []int32
	stride int
	n      [4]int
}

// split fills l with x's nonzero indices, with buf as its storage
// (grown as needed and returned).
func (l *gemvLists) split(x []float32, buf []int32) []int32 {
	k := len(x)
	l.stride = k/4 + 4
	if cap(buf) < 4*l.stride {
		buf = make([]int32, 4*l.stride)
	}
	l.idx = buf[:4*l.stride]
	l.n = [4]int{}
	k4 := k &^ 3
	for p := 0; p < k4; p += 4 {
		for r, v := range x[p : p+4 : p+4] {
			l.idx[r*l.stride+l.n[r]] = int32(p + r)
			if v != 0 {
				l.n[r]++
			}
		}
	}
	for p := k4; p < k; p++ {
		l.idx[l.n[0]] = int32(p)
		if v := x[p]; v != 0 {
			l.n[0]++
		}
	}
	return buf
}
