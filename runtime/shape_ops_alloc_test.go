// This file checks that the sequence kernels allocate nothing on their
// common paths, as generated code needs.

package runtime

import "testing"

func TestSequenceKernelsAllocateNothing(t *testing.T) {
	forEachISA(t, testSequenceKernelsAllocateNothing)
}

func testSequenceKernelsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	x := seqIota(Float32, 2, 4, 8, 3)
	tr := NewArray(Float32, 2, 8, 4, 3)
	perm := NewArray(Float32, 3, 8, 2, 4)
	sel := NewArray(Float32, 2, 8, 3)
	sl := NewArray(Float32, 2, 2, 8, 3)
	parts := []*Array{NewArray(Float32, 2, 1, 8, 3), NewArray(Float32, 2, 3, 8, 3)}
	idx := FromInt64([]int64{3, 0, 3}, 3)
	is := NewArray(Float32, 2, 3, 8, 3)
	st := NewArray(Float32, 2, 2, 4, 8, 3)
	cat := NewArray(Float32, 2, 8, 8, 3)
	flat := seqIota(Float32, 2, 96)
	fidx := FromInt64([]int64{5, 7, 9}, 3)
	fout := NewArray(Float32, 2, 3)
	w := seqIota(Float32, 5, 3)
	emb := NewArray(Float32, 3, 3)
	mask := NewArray(Bool, 8, 3)
	mf := NewArray(Float32, 2, 4, 8, 3)
	act := NewArray(Float32, 2, 4, 8, 3)
	ln := NewArray(Float32, 2, 4, 8, 3)
	big := seqIota(Float32, 64, 256) // several grains: the parallel paths
	bigOut := NewArray(Float32, 64, 256)
	for name, f := range map[string]func(){
		"Transpose":     func() { Transpose(tr, x, 1, 2) },
		"Permute":       func() { Permute(perm, x, []int{3, 2, 0, 1}) },
		"Select":        func() { Select(sel, x, 1, 2) },
		"Slice":         func() { Slice(sl, x, 1, 1, 4, 2) },
		"Split":         func() { Split(parts, x, 1) },
		"IndexSelect":   func() { IndexSelect(is, x, idx, 1) },
		"gather":        func() { IndexSelect(fout, flat, fidx, 1) },
		"Stack":         func() { Stack(st, []*Array{x, x}, 1) },
		"Cat":           func() { Cat(cat, []*Array{x, x}, 1) },
		"Embedding":     func() { Embedding(emb, idx, w) },
		"MaskedFill":    func() { MaskedFill(mf, x, mask, -1) },
		"Softmax":       func() { Softmax(act, x, -1) },
		"Sigmoid":       func() { Sigmoid(act, x) },
		"Tanh":          func() { Tanh(act, x) },
		"Gelu":          func() { Gelu(act, x) },
		"LayerNorm":     func() { LayerNorm(ln, x, nil, nil, []int{8, 3}, 1e-5) },
		"big Sigmoid":   func() { Sigmoid(bigOut, big) },
		"big Softmax":   func() { Softmax(bigOut, big, 1) },
		"big LayerNorm": func() { LayerNorm(bigOut, big, nil, nil, []int{256}, 1e-5) },
	} {
		f() // warm up
		if n := testing.AllocsPerRun(10, f); n != 0 {
			t.Errorf("%s: got %v allocations per call, want 0", name, n)
		}
	}
}
