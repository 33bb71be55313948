// This file holds Attention, multi-head attention computed one sample and
// head at a time with its scores in cache, reading the heads where they
// lie in their projections.

package runtime

import (
	"slices"
	"sync"
)

// Attention sets out [N, L, H·D] to multi-head attention over the H heads
// (heads) of D floats (headDim) of q [N, L, Cq], k [N, S, Ck] and
// v [N, S, Cv]: head h of q is its columns qCol + h·D … qCol + (h+1)·D − 1 (of k and v likewise, from kCol and
// vCol), and for each sample n and head h
//
//	scores = q[n, :, head h] · k[n, :, head h]ᵀ                [L, S]
//	p      = softmax over the last dim of program(scores, extras...)
//	out[n, :, h·D:(h+1)·D] = p · v[n, :, head h]
//
// where program is an ElementwiseProgram of 1 + len(extras) inputs whose
// first is the scores; each extra is one element or broadcasts to
// [N, H, L, S] from [N|1, H|1, L|1, S] (leading 1s aside): each sample and
// head reads its [L, S] block of it, or its [S] row where the query dim is
// 1 (a padding mask [N, 1, 1, S]). It computes what the graph's transposes,
// batched matmul, fused softmax and batched matmul would, but a sample and
// head at a time, its scores and probabilities in a buffer that stays in
// cache, and without copying the heads out of q, k and v or the result
// back into out's layout: the attention of a transformer whose q, k and v
// come from one projection (columns 0, H·D and 2·H·D of it). When the
// program ends in masked_fill(mask, -Inf) with a mask all samples and
// heads share (a causal mask), blocks of query rows compute their scores,
// softmax and product over the keys the mask leaves them alone; with a
// padding mask [N, 1, 1, S], each sample over its unpadded keys (see
// maskedKeys and paddedKeys). The result is the same for any number of
// workers.
func Attention(out, q, k, v *Array, extras []*Array, program *ElementwiseProgram, heads, headDim, qCol, kCol, vCol int) {
	const name = "Attention"
	for _, a := range []struct {
		what string
		a    *Array
	}{{"out", out}, {"q", q}, {"k", k}, {"v", v}} {
		checkDType(name, a.what, a.a, Float32)
		if len(a.a.Shape) != 3 {
			kernelPanic(name, "%s shape %v, want 3 dims", a.what, a.a.Shape)
		}
	}
	if program == nil || program.inputs != 1+len(extras) || len(extras) >= MaxElementwiseInputs {
		kernelPanic(name, "program for %d inputs, want the scores and %d extras", programInputs(program), len(extras))
	}
	n, l, s := q.Shape[0], q.Shape[1], k.Shape[1]
	if heads < 1 || headDim < 0 || out.Shape[2] != heads*headDim {
		kernelPanic(name, "%d heads of %d for out %v: want its last dim heads·headDim", heads, headDim, out.Shape)
	}
	d := headDim
	checkShape(name, "out", out, n, l, heads*d)
	if k.Shape[0] != n || v.Shape[0] != n || v.Shape[1] != s {
		kernelPanic(name, "q %v, k %v, v %v: want [N, L, ·], [N, S, ·], [N, S, ·]", q.Shape, k.Shape, v.Shape)
	}
	for _, c := range []struct {
		what string
		a    *Array
		col  int
	}{{"q", q, qCol}, {"k", k, kCol}, {"v", v, vCol}} {
		if c.col < 0 || c.col+heads*d > c.a.Shape[2] {
			kernelPanic(name, "%s %v: heads at columns %d … %d are not all in it", c.what, c.a.Shape, c.col, c.col+heads*d-1)
		}
	}
	for _, x := range []*Array{q, k, v} {
		if overlaps(out, x) {
			kernelPanic(name, "out shares memory with an operand")
		}
	}
	j := attentionJob{out: out.F32, q: q.F32, k: k.F32, v: v.F32, program: program,
		n: n, l: l, s: s, d: d, heads: heads, cq: q.Shape[2], ck: k.Shape[2], cv: v.Shape[2],
		qCol: qCol, kCol: kCol, vCol: vCol, nExtras: len(extras)}
	for i, x := range extras {
		// Checked here, as well as where the program runs: maskedKeys
		// reads the masks before that.
		checkDType(name, "extra", x, program.inputDType(1+i))
		j.extras[i] = newAttentionExtra(name, x, n, heads, l, s)
	}
	if n == 0 || l == 0 || d == 0 {
		return
	}
	if s == 0 {
		clear(out.F32) // no keys: each head's product is empty
		return
	}
	if m := maskedKeys(&j); m != nil {
		j.skip = m
		defer maskedKeysPool.Put(m)
	}
	units := n * heads
	flops := 4 * float64(units) * float64(l) * float64(s) * float64(d)
	if flops < convParallelFlops || Workers() == 1 || units == 1 {
		j.units(0, units)
		return
	}
	runPooled(attentionTasks, units, j)
}

func programInputs(p *ElementwiseProgram) int {
	if p == nil {
		return 0
	}
	return p.inputs
}

var attentionTasks = taskPool((*attentionJob).units)

// attentionJob is one Attention call.
type attentionJob struct {
	out, q, k, v      []float32
	program           *ElementwiseProgram
	extras            [MaxElementwiseInputs - 1]attentionExtra // the first nExtras
	nExtras           int
	n, l, s, d, heads int
	cq, ck, cv        int
	qCol, kCol, vCol  int
	skip              *maskedKeyBlocks // nil: every query row attends every key
}

// attentionExtra is an extra input of the score program and how a sample
// and head find their part of it.
type attentionExtra struct {
	a *Array
	// per is the elements of a sample (0 when the samples share them),
	// perHead of a head (0 when the heads share them).
	per, perHead int
	// block is the shape of one sample and head's part: [L, S], or [S]
	// (rank 1) for an extra whose query dim is 1, which the program
	// broadcasts over the query rows.
	block [2]int
	rank  int
}

// newAttentionExtra checks that x broadcasts to [n, heads, l, s] and
// describes its parts: x is one element, or (after leading 1s) [N|1,
// H|1, L|1, S], each of its first three dims the scores' or 1.
func newAttentionExtra(kernel string, x *Array, n, heads, l, s int) attentionExtra {
	e := attentionExtra{a: x, block: [2]int{l, s}, rank: 2}
	if x.Len() == 1 {
		return e
	}
	d, ok := attentionExtraDims(x.Shape, [4]int{n, heads, l, s})
	if !ok {
		kernelPanic(kernel, "extra %v does not broadcast to [N, H, L, S] = %v: want one element or [N|1, H|1, L|1, S]", x.Shape, []int{n, heads, l, s})
	}
	part := d[2] * s
	if d[2] != l || l == 1 {
		e.block, e.rank = [2]int{s}, 1
	}
	if d[1] == heads && heads > 1 {
		e.perHead = part
	}
	if d[0] == n && n > 1 {
		e.per = d[1] * part
	}
	return e
}

// attentionExtraDims returns extra as [N|1, H|1, L|1, S] for the scores
// [N, H, L, S], leading 1s dropped or added, or false when it is not
// that: each of its first three dims the scores' or 1, its last the
// scores'. Negative dims stand for unknown ones (see AttentionExtraFits).
func attentionExtraDims(extra []int, scores [4]int) (d [4]int, ok bool) {
	for len(extra) > 4 && extra[0] == 1 {
		extra = extra[1:]
	}
	if len(extra) == 0 || len(extra) > 4 {
		return d, false
	}
	d = [4]int{1, 1, 1, 1}
	copy(d[4-len(extra):], extra)
	for i, want := range scores {
		if d[i] != want && (d[i] != 1 || i == 3) {
			return d, false
		}
	}
	return d, true
}

// AttentionExtraFits reports whether Attention reads an extra of shape
// extra for the scores [N, H, L, S]: one element, or (leading 1s aside)
// [N|1, H|1, L|1, S], each of the first three dims the scores' or 1 (a
// padding mask [N, 1, 1, S], a per-head bias [H, L, S], a causal mask
// [L, S]). Negative dims stand for unknown ones, equal only to themselves
// (ir.SymbolicInts).
func AttentionExtraFits(extra, scores []int) bool {
	if !slices.ContainsFunc(extra, func(d int) bool { return d != 1 }) {
		return true // one element
	}
	if len(scores) != 4 {
		return false
	}
	_, ok := attentionExtraDims(extra, [4]int(scores))
	return ok
}

// part returns the extra's part for sample i and head h: the extra
// itself when all share it, else view (with its shape in shape) pointed
// at the part; view and shape are the calling worker's, so nothing is
// allocated.
func (e *attentionExtra) part(view *Array, shape *[2]int, i, h int) *Array {
	if e.per == 0 && e.perHead == 0 {
		return e.a
	}
	lo := i*e.per + h*e.perHead
	*shape = e.block
	*view = Array{DType: e.a.DType, Shape: shape[:e.rank]}
	size := view.Len()
	switch e.a.DType {
	case Float32:
		view.F32 = e.a.F32[lo : lo+size]
	case Bool:
		view.B = e.a.B[lo : lo+size]
	}
	return view
}

// units computes units [lo, hi): unit u is head u % heads of sample
// u / heads.
func (j *attentionJob) units(lo, hi int) {
	ls := j.l * j.s
	scratch := getConvScratch(2*ls + j.s + j.d)
	defer convScratch.Put(scratch)
	w := attentionWorkspaces.Get().(*attentionWorkspace)
	defer attentionWorkspaces.Put(w)
	w.shape = [2]int{j.l, j.s}
	w.scores = Array{DType: Float32, Shape: w.shape[:], F32: (*scratch)[:ls]}
	w.probs = Array{DType: Float32, Shape: w.shape[:], F32: (*scratch)[ls : 2*ls]}
	inputs := w.inputs[:1+j.nExtras]
	hd := j.heads * j.d
	for u := lo; u < hi; u++ {
		i, h := u/j.heads, u%j.heads
		if j.skip != nil && j.unitSkips(w, *scratch, i, h) {
			continue
		}
		inputs[0] = &w.scores
		g := gemmCall{transB: true, m: j.l, n: j.s, k: j.d, alpha: 1,
			a: j.q[i*j.l*j.cq+j.qCol+h*j.d:], lda: j.cq, b: j.k[i*j.s*j.ck+j.kCol+h*j.d:], ldb: j.ck,
			c: w.scores.F32, ldc: j.s, kern: selectedKernel, serial: true}
		g.run()
		for x := range j.nExtras {
			inputs[1+x] = j.extras[x].part(&w.views[x], &w.viewShapes[x], i, h)
		}
		j.program.runSerial("Attention", &w.probs, inputs, j.s)
		g = gemmCall{m: j.l, n: j.d, k: j.s, alpha: 1, a: w.probs.F32, lda: j.s,
			b: j.v[i*j.s*j.cv+j.vCol+h*j.d:], ldb: j.cv,
			c: j.out[i*j.l*hd+h*j.d:], ldc: hd, kern: selectedKernel, serial: true}
		g.run()
	}
	// Drop the references to the caller's arrays before the pool keeps w.
	clear(w.inputs[:])
	clear(w.views[:])
	w.scores, w.probs, w.blockScores, w.blockProbs = Array{}, Array{}, Array{}, Array{}
	w.keyPanels = PackedB{}
}

// attentionWorkspace is a worker's arrays for Attention's units: the
// scores and probabilities (over pooled scratch) and the program's inputs,
// kept in a pool so that a call allocates nothing.
type attentionWorkspace struct {
	shape         [2]int
	scores, probs Array
	// blockShape, blockScores and blockProbs are a block's (unitSkips).
	blockShape              [2]int
	blockScores, blockProbs Array
	keys                    []float32 // a head's keys packed (unitSkips)
	keyPanels               PackedB   // the panels of a block's keys
	oneBlock                [1]int    // a padded sample's one block (unitSkips)
	inputs                  [MaxElementwiseInputs]*Array
	views                   [MaxElementwiseInputs - 1]Array
	viewShapes              [MaxElementwiseInputs - 1][2]int
}

var attentionWorkspaces = sync.Pool{New: func() any { return new(attentionWorkspace) }}

// AttentionCode is Attention with the score program given as its code
// (DecodeElementwiseProgram's, for 1 + len(extras) inputs) and decoded on
// each call: the kernel of the attention op, whose compiled code calls
// Attention with the program its constructor decodes once (ir.Program).
func AttentionCode(out, q, k, v *Array, extras []*Array, code []int, heads, headDim, qCol, kCol, vCol int) {
	p, err := DecodeElementwiseProgram(1+len(extras), code)
	if err != nil {
		kernelPanic("Attention", "%v", err)
	}
	Attention(out, q, k, v, extras, p, heads, headDim, qCol, kCol, vCol)
}
