// This file holds how Attention skips the keys a mask cuts: a causal
// mask's query rows attend only the keys up to their own, so a block of
// rows computes its scores, softmax and product over those keys alone; a
// padding mask's queries attend only their sample's unpadded keys.

package runtime

import (
	"math"
	"slices"
	"sync"
)

// The blocks of query rows that skip masked keys.
const (
	// maskedKeyRows is about the query rows of a block (rounded up to a
	// multiple of the micro-kernel's rows): fewer rows skip more keys but
	// make more, smaller products, each packing its keys again.
	maskedKeyRows = 24
	// maskedKeyMax is the largest share of the whole [L, S] scores the
	// blocks may cover for the skip to be taken.
	maskedKeyMax = 0.85
)

// maskedKeyBlocks describes one Attention call's blocks of query rows and
// the keys each attends, and holds the parts of the program's extras each
// block reads.
type maskedKeyBlocks struct {
	rows    int   // query rows of a block; the last may have fewer
	cols    []int // per block: its rows attend keys [0, cols[b])
	offs    []int // per block: the offset of its part in an extra's copy
	minCols int   // the fewest keys any block attends
	maxCols int   // the most keys any block attends
	// extraOff[x] is the offset in f32 or b of extra x's copy, each block's
	// rows × cols part after the other, or -1 for an extra of one element.
	extraOff [MaxElementwiseInputs - 1]int
	f32      []float32
	b        []bool
	// padX, when not -1, is the extra of a padding mask: keys[i] is then
	// the keys it leaves sample i (0: the sample is computed whole). After
	// a shared mask, each block attends the fewer of its own and those;
	// alone (see paddedKeys; cols is then empty), the sample's queries are
	// one block over those.
	padX int
	keys []int
	// keptRows, with no padding mask, says that every row of the shared
	// mask (extra maskX) cuts a run of last keys and that the program
	// ends in its masked_fill (ElementwiseProgram.maskedLast): the blocks
	// then run the program without it and a softmax over each query row's
	// kept[row] first keys alone (softmaxKeptRows).
	keptRows bool
	maskX    int
	kept     []int
}

// unreadInput stands for the mask Attention gives the program without
// its masked_fill, which reads it as a number it never reads.
var unreadInput = &Array{DType: Float32, Shape: []int{1}, F32: []float32{0}}

// paddedKeys returns the keys each sample's queries attend when the mask
// (extra mx) is a padding mask, one row of keys that all queries and
// heads of a sample share ([N, 1, 1, S], or [S] for all samples), and
// every other extra is one element; nil otherwise, or when the rows left
// cover more than maskedKeyMax of the keys. A sample whose mask cuts every
// key gets 0 and is computed whole (its softmax is NaN).
func paddedKeys(j *attentionJob, mx int) *maskedKeyBlocks {
	e := &j.extras[mx]
	if e.perHead != 0 || e.rank != 1 || e.a.DType != Bool {
		return nil
	}
	for x := range j.nExtras {
		if x != mx && j.extras[x].a.Len() != 1 {
			return nil
		}
	}
	m := maskedKeysPool.Get().(*maskedKeyBlocks)
	m.cols, m.padX, m.keys, m.keptRows = m.cols[:0], mx, m.keys[:0], false
	for x := range j.nExtras {
		m.extraOff[x] = -1 // one element, or the padding read in place
	}
	total := 0
	for i := range j.n {
		kept := keptKeys(e.a.B[i*e.per : i*e.per+j.s])
		m.keys = append(m.keys, kept)
		if kept == 0 {
			kept = j.s
		}
		total += kept
	}
	if float64(total) > maskedKeyMax*float64(j.n*j.s) {
		maskedKeysPool.Put(m)
		return nil
	}
	return m
}

var maskedKeysPool = sync.Pool{New: func() any { return new(maskedKeyBlocks) }}

// maskedKeys returns the blocks in which j's units skip masked keys, or
// nil when they compute every score. It skips when the score program's
// last step sets -Inf where a mask is true (masked_fill(mask, -Inf)), so
// that those scores and their probabilities (exactly 0 after the softmax)
// do not depend on the products (a padding mask there: see paddedKeys; a
// padding mask after such a step: each sample's blocks attend the fewer of
// their keys and its unpadded ones); when every other extra is shared by
// all samples and heads and is either one element or a whole [L, S]; when
// no query row is masked whole by the shared mask (its softmax is NaN, as
// PyTorch's; a sample the padding masks whole is computed whole); and when
// the blocks cover at most maskedKeyMax of the scores. Each block's results are those
// of the whole computation but for the rounding of a product over more
// keys than a k-block holds (units still check v: see unitSkips).
func maskedKeys(j *attentionJob) *maskedKeyBlocks {
	steps := j.program.steps
	if len(steps) == 0 {
		return nil
	}
	last := steps[len(steps)-1]
	if last.Op != ElemMaskedFill || !math.IsInf(float64(last.C), -1) || last.B < 1 {
		return nil
	}
	if m := paddedKeys(j, last.B-1); m != nil {
		return m
	}
	// A padding mask after the shared one: both cut keys.
	padX := -1
	if n := len(steps); n >= 2 {
		prev, pe := steps[n-2], &j.extras[last.B-1]
		if pe.perHead == 0 && pe.rank == 1 && last.A == j.program.inputs+n-2 &&
			prev.Op == ElemMaskedFill && math.IsInf(float64(prev.C), -1) && prev.B >= 1 && prev.B != last.B {
			padX, last = last.B-1, prev
		}
	}
	l, s := j.l, j.s
	for x := range j.nExtras {
		e := &j.extras[x]
		if x != padX && (e.per != 0 || e.perHead != 0 || e.a.Len() != 1 && e.a.Len() != l*s) {
			return nil
		}
	}
	// The shared mask (not the padding one: prev.B != last.B), which the
	// loop above checked is shared.
	mask := j.extras[last.B-1].a
	if mask.Len() != l*s || mask.DType != Bool {
		return nil
	}
	mr := selectedKernel.mr
	m := maskedKeysPool.Get().(*maskedKeyBlocks)
	m.padX, m.keys = padX, m.keys[:0]
	m.rows = (maskedKeyRows + mr - 1) / mr * mr
	m.cols, m.offs = m.cols[:0], m.offs[:0]
	m.keptRows, m.maskX, m.kept = padX < 0 && j.program.maskedLast, last.B-1, m.kept[:0]
	total := 0
	m.minCols, m.maxCols = s, 0
	for r0 := 0; r0 < l; r0 += m.rows {
		cols := 0
		for r := r0; r < min(l, r0+m.rows); r++ {
			row := mask.B[r*s : (r+1)*s]
			kept := keptKeys(row)
			if kept == 0 {
				maskedKeysPool.Put(m)
				return nil
			}
			cols = max(cols, kept)
			m.kept = append(m.kept, kept)
			m.keptRows = m.keptRows && noneMasked(row[:kept])
		}
		m.cols = append(m.cols, cols)
		m.offs = append(m.offs, total)
		m.minCols = min(m.minCols, cols)
		m.maxCols = max(m.maxCols, cols)
		total += (min(l, r0+m.rows) - r0) * cols
	}
	if float64(total) > maskedKeyMax*float64(l*s) {
		maskedKeysPool.Put(m)
		return nil
	}
	if padX >= 0 {
		e := &j.extras[padX]
		for i := range j.n {
			m.keys = append(m.keys, keptKeys(e.a.B[i*e.per:i*e.per+s]))
		}
	}
	nf, nb := 0, 0
	for x := range j.nExtras {
		a := j.extras[x].a
		switch {
		case x == padX:
			m.extraOff[x] = -1 // read from its row in place (unitSkips)
		case m.keptRows && x == m.maskX:
			m.extraOff[x] = -1 // not read: unreadInput stands for it
		case a.Len() == 1:
			m.extraOff[x] = -1
		case a.DType == Bool:
			m.extraOff[x], nb = nb, nb+total
		default:
			m.extraOff[x], nf = nf, nf+total
		}
	}
	m.f32 = gemmGrow(m.f32, nf)
	m.b = slices.Grow(m.b[:0], nb)[:nb]
	for x := range j.nExtras {
		a := j.extras[x].a
		if m.extraOff[x] < 0 {
			continue
		}
		for b, cols := range m.cols {
			r0 := b * m.rows
			for r := r0; r < min(l, r0+m.rows); r++ {
				at := m.extraOff[x] + m.offs[b] + (r-r0)*cols
				if a.DType == Bool {
					copy(m.b[at:at+cols], a.B[r*s:])
				} else {
					copy(m.f32[at:at+cols], a.F32[r*s:])
				}
			}
		}
	}
	return m
}

// keptKeys returns the keys a query row's mask leaves it, the index of its
// last false element plus 1.
func keptKeys(row []bool) int {
	n := len(row)
	for n >= 8 && boolWord(row[n-8:n]) == allTrueWord {
		n -= 8
	}
	for n > 0 && row[n-1] {
		n--
	}
	return n
}

// noneMasked reports whether row holds no true element.
func noneMasked(row []bool) bool {
	for len(row) >= 8 {
		if boolWord(row[:8]) != 0 {
			return false
		}
		row = row[8:]
	}
	return !slices.Contains(row, true)
}

// extra returns the input the program reads for extra x (a) in block b:
// a itself when it is one element, else view pointed at the block's part
// of its copy, with shape, the block's [rows, cols].
func (m *maskedKeyBlocks) extra(view *Array, shape *[2]int, a *Array, x, b int) *Array {
	if m.extraOff[x] < 0 {
		return a
	}
	at := m.extraOff[x] + m.offs[b]
	size := shape[0] * shape[1]
	*view = Array{DType: a.DType, Shape: shape[:]}
	if a.DType == Bool {
		view.B = m.b[at : at+size]
	} else {
		view.F32 = m.f32[at : at+size]
	}
	return view
}

// unitSkips computes unit (sample i, head h) of j a block of query rows at
// a time, each over the keys j.skip leaves it, and reports true; buf is
// the worker's scratch of 2·L·S + S + D floats. A skipped key's
// probability is 0, and 0·v is 0 only where v is finite: when any element
// of the head's v past the fewest keys a block attends is infinite or NaN
// (found as the NaNs of a product of zeros and those rows), it computes
// nothing and reports false, so that the unit is computed whole and gives
// the NaNs the whole product would.
func (j *attentionJob) unitSkips(w *attentionWorkspace, buf []float32, i, h int) bool {
	m := j.skip
	ls := j.l * j.s
	vBase := i*j.s*j.cv + j.vCol + h*j.d
	kept := j.s
	if m.padX >= 0 {
		if kept = m.keys[i]; kept == 0 {
			return false
		}
	}
	blocks, blockRows, minCols, maxCols := m.cols, m.rows, m.minCols, m.maxCols
	if len(m.cols) == 0 {
		// A padding mask alone: the sample's queries are one block.
		if kept == j.s {
			return false
		}
		w.oneBlock = [1]int{kept}
		blocks, blockRows, minCols, maxCols = w.oneBlock[:], j.l, kept, kept
	}
	if !j.finiteFrom(buf, vBase, min(minCols, kept)) {
		return false
	}
	// The head's keys, packed once for all the blocks' score products,
	// each of which reads the panels of its first cols keys.
	nr := selectedKernel.nr
	packed := min(maxCols, kept)
	w.keys = gemmGrow(w.keys, (packed+nr-1)/nr*nr*j.d)
	packB(w.keys, true, j.k[i*j.s*j.ck+j.kCol+h*j.d:], j.ck, 0, j.d, 0, packed, nr)
	hd := j.heads * j.d
	inputs := w.inputs[:1+j.nExtras]
	inputs[0] = &w.blockScores
	for b, cols := range blocks {
		r0 := b * blockRows
		rows := min(blockRows, j.l-r0)
		size := rows * cols
		w.blockShape = [2]int{rows, cols}
		w.blockScores = Array{DType: Float32, Shape: w.blockShape[:], F32: buf[:size]}
		w.blockProbs = Array{DType: Float32, Shape: w.blockShape[:], F32: buf[ls : ls+size]}
		// The keys past the padding's are left out of both products; the
		// program reads stale scores there and the padding sets them to
		// -Inf.
		attended := min(cols, kept)
		w.keyPanels = PackedB{k: j.d, n: attended, kern: selectedKernel, data: w.keys[:(attended+nr-1)/nr*nr*j.d]}
		g := gemmCall{m: rows, n: attended, k: j.d, alpha: 1,
			a: j.q[(i*j.l+r0)*j.cq+j.qCol+h*j.d:], lda: j.cq, pb: &w.keyPanels,
			c: w.blockScores.F32, ldc: cols, kern: selectedKernel, serial: true}
		g.run()
		for x := range j.nExtras {
			if m.keptRows && x == m.maskX {
				inputs[1+x] = unreadInput
				continue
			}
			if x == m.padX {
				e := &j.extras[x]
				w.viewShapes[x] = [2]int{cols}
				w.views[x] = Array{DType: Bool, Shape: w.viewShapes[x][:1], B: e.a.B[i*e.per : i*e.per+cols]}
				inputs[1+x] = &w.views[x]
				continue
			}
			inputs[1+x] = m.extra(&w.views[x], &w.blockShape, j.extras[x].a, x, b)
		}
		switch {
		case !m.keptRows:
			j.program.runSerial("Attention", &w.blockProbs, inputs, cols)
		case j.program.unmasked == nil:
			softmaxKeptRows(w.blockProbs.F32, w.blockScores.F32, cols, rows, m.kept[r0:r0+rows])
		default:
			j.program.unmasked.runSerial("Attention", &w.blockProbs, inputs, 0)
			softmaxKeptRows(w.blockProbs.F32, w.blockProbs.F32, cols, rows, m.kept[r0:r0+rows])
		}
		g = gemmCall{m: rows, n: j.d, k: attended, alpha: 1, a: w.blockProbs.F32, lda: cols,
			b: j.v[vBase:], ldb: j.cv,
			c: j.out[(i*j.l+r0)*hd+h*j.d:], ldc: hd, kern: selectedKernel, serial: true}
		g.run()
	}
	return true
}

// finiteFrom reports whether the head's v at vBase holds only finite
// values in its rows from first on, found as the NaNs of a product of
// zeros and those rows; buf is unitSkips'.
func (j *attentionJob) finiteFrom(buf []float32, vBase, first int) bool {
	if first >= j.s {
		return true
	}
	ls := j.l * j.s
	zeros, z := buf[2*ls:2*ls+j.s-first], buf[2*ls+j.s:2*ls+j.s+j.d]
	clear(zeros)
	g := gemmCall{m: 1, n: j.d, k: j.s - first, alpha: 1, a: zeros, lda: j.s - first,
		b: j.v[vBase+first*j.cv:], ldb: j.cv, c: z, ldc: j.d, kern: selectedKernel, serial: true}
	g.run()
	for _, x := range z {
		if x != x {
			return false
		}
	}
	return true
}
