// This file holds the matrix-product kernels: linear and matmul.

package runtime

// Linear sets out = x·wᵀ + bias over the last dimension of x: x is
// [..., in], w is [outF, in], bias is [outF] or nil, out is [..., outF].
//
//	out[r, j] = bias[j] + Σp x[r, p]·w[j, p]
func Linear(out, x, w, bias *Array) {
	checkDType("Linear", "x", x, Float32)
	checkDType("Linear", "weight", w, Float32)
	if len(w.Shape) != 2 || len(x.Shape) == 0 {
		kernelPanic("Linear", "got x %v and weight %v, want [..., in] and [out, in]", x.Shape, w.Shape)
	}
	outF, in := w.Shape[0], w.Shape[1]
	if x.Shape[len(x.Shape)-1] != in {
		kernelPanic("Linear", "x %v has %d features, weight %v wants %d", x.Shape, x.Shape[len(x.Shape)-1], w.Shape, in)
	}
	rows := x.Len() / max(in, 1)
	if in == 0 {
		rows = NumElements(x.Shape[:len(x.Shape)-1])
	}
	if out.Len() != rows*outF || out.Shape[len(out.Shape)-1] != outF {
		kernelPanic("Linear", "out shape %v, want [..., %d] with %d rows", out.Shape, outF, rows)
	}
	beta := float32(0)
	if bias != nil {
		checkDType("Linear", "bias", bias, Float32)
		if bias.Len() != outF {
			kernelPanic("Linear", "bias shape %v, want [%d]", bias.Shape, outF)
		}
		for r := 0; r < rows; r++ {
			copy(out.F32[r*outF:(r+1)*outF], bias.F32)
		}
		beta = 1
	}
	Sgemm(false, true, rows, outF, in, 1, x.F32, in, w.F32, in, beta, out.F32, outF)
}

// Matmul sets out = a·b for arrays of rank ≥ 2 whose leading (batch)
// dimensions broadcast: a is [..., m, k], b is [..., k, n], out is
// [..., m, n].
//
//	out[..., i, j] = Σp a[..., i, p]·b[..., p, j]
func Matmul(out, a, b *Array) { matmul("Matmul", out, a, b, false) }

// matmul is Matmul, with b's last two dimensions swapped when transB (b
// is [..., n, k]).
func matmul(name string, out, a, b *Array, transB bool) {
	checkDType(name, "a", a, Float32)
	checkDType(name, "b", b, Float32)
	ra, rb := len(a.Shape), len(b.Shape)
	if ra < 2 || rb < 2 {
		kernelPanic(name, "got %v and %v, want rank ≥ 2", a.Shape, b.Shape)
	}
	m, k, n, bk := a.Shape[ra-2], a.Shape[ra-1], b.Shape[rb-1], b.Shape[rb-2]
	if transB {
		n, bk = bk, n
	}
	if bk != k {
		kernelPanic(name, "inner dimensions of %v and %v differ", a.Shape, b.Shape)
	}
	aBatch, bBatch := a.Shape[:ra-2], b.Shape[:rb-2]
	if !matmulOutOK(out.Shape, aBatch, bBatch, m, n) {
		batch, err := BroadcastShapes(aBatch, bBatch)
		if err != nil {
			kernelPanic(name, "batch dimensions: %v", err)
		}
		kernelPanic(name, "out shape %v, want %v", out.Shape, append(batch, m, n))
	}
	batch := out.Shape[:len(out.Shape)-2]
	j := matmulJob{a: a.F32, b: b.F32, out: out.F32, m: m, n: n, k: k, batch: batch, aBatch: aBatch, bBatch: bBatch, transB: transB}
	nb := NumElements(batch)
	// Spread the items of a batch over the workers, each product on one
	// goroutine, when they divide evenly enough: many small products then
	// cost one hand-off instead of one each. A product's result is the
	// same either way.
	if w := Workers(); w > 1 && nb > 1 && (nb%w == 0 || nb >= 4*w) &&
		2*float64(m)*float64(n)*float64(k)*float64(nb) >= float64(parallelMinFlops) {
		runPooled(matmulTasks, nb, j)
		return
	}
	j.items(0, nb, false)
}

// matmulOutOK reports whether out is the broadcast of the batch shapes
// aBatch and bBatch followed by m, n (checked without allocating).
func matmulOutOK(out, aBatch, bBatch []int, m, n int) bool {
	nb := max(len(aBatch), len(bBatch))
	if len(out) != nb+2 || out[nb] != m || out[nb+1] != n {
		return false
	}
	for i := range nb {
		if d, ok := broadcastDim(aBatch, bBatch, nb, i); !ok || out[i] != d {
			return false
		}
	}
	return true
}

// matmulJob is one batched Matmul call.
type matmulJob struct {
	a, b, out      []float32
	m, n, k        int
	batch          []int // the broadcast batch shape
	aBatch, bBatch []int // a's and b's own batch shapes
	transB         bool  // b's items are n×k, used transposed
}

var matmulTasks = taskPool(func(j *matmulJob, lo, hi int) { j.items(lo, hi, true) })

// items computes the products of batch items [lo, hi); serial keeps each
// product on the calling goroutine.
func (j *matmulJob) items(lo, hi int, serial bool) {
	m, n, k := j.m, j.n, j.k
	nb, offA, offB := len(j.batch), len(j.batch)-len(j.aBatch), len(j.batch)-len(j.bBatch)
	for t := lo; t < hi; t++ {
		// Unravel t over the batch dims, last fastest, and add up the
		// matching offsets of a and b (broadcast dims of size 1 add 0).
		oa, ob, sa, sb := 0, 0, 1, 1
		for d, r := nb-1, t; d >= 0; d-- {
			i := r % j.batch[d]
			r /= j.batch[d]
			if da := d - offA; da >= 0 {
				if j.aBatch[da] != 1 {
					oa += i * sa
				}
				sa *= j.aBatch[da]
			}
			if db := d - offB; db >= 0 {
				if j.bBatch[db] != 1 {
					ob += i * sb
				}
				sb *= j.bBatch[db]
			}
		}
		ldb := n
		if j.transB {
			ldb = k
		}
		g := gemmCall{
			transB: j.transB, m: m, n: n, k: k, alpha: 1, a: j.a[oa*m*k:], lda: k, b: j.b[ob*k*n:], ldb: ldb,
			c: j.out[t*m*n:], ldc: n, kern: selectedKernel, serial: serial,
		}
		g.run()
	}
}

// PackLinear packs the weight w [outF, in] of a linear layer once, as the
// in×outF matrix wᵀ in the GEMM's panel layout, for LinearPacked and
// LinearActPacked. The packed copy is a snapshot: later changes to w do not
// show in it.
func PackLinear(w *Array) *PackedB {
	checkDType("PackLinear", "weight", w, Float32)
	if len(w.Shape) != 2 {
		kernelPanic("PackLinear", "weight shape %v, want [out, in]", w.Shape)
	}
	outF, in := w.Shape[0], w.Shape[1]
	return PackB(true, in, outF, w.F32, max(in, 1))
}

// LinearPacked is Linear with the weight packed by PackLinear: out =
// x·wᵀ + bias over the last dimension of x, with the bias added in the
// GEMM's epilogue.
//
//	out[r, j] = bias[j] + Σp x[r, p]·w[j, p]
func LinearPacked(out, x *Array, w *PackedB, bias *Array) {
	linearPacked("LinearPacked", out, x, w, bias, ActNone)
}

// linearPacked checks the operands of a packed linear kernel and runs the
// GEMM with its epilogue.
func linearPacked(name string, out, x *Array, w *PackedB, bias *Array, act Activation) {
	checkDType(name, "x", x, Float32)
	checkDType(name, "out", out, Float32)
	if w == nil {
		kernelPanic(name, "nil packed weight")
	}
	in, outF := w.Dims()
	if len(x.Shape) == 0 || x.Shape[len(x.Shape)-1] != in {
		kernelPanic(name, "x %v, want [..., %d]", x.Shape, in)
	}
	rows := NumElements(x.Shape[:len(x.Shape)-1])
	if out.Len() != rows*outF || len(out.Shape) == 0 || out.Shape[len(out.Shape)-1] != outF {
		kernelPanic(name, "out shape %v, want [..., %d] with %d rows", out.Shape, outF, rows)
	}
	var b []float32
	if bias != nil {
		checkDType(name, "bias", bias, Float32)
		if bias.Len() != outF {
			kernelPanic(name, "bias shape %v, want [%d]", bias.Shape, outF)
		}
		b = bias.F32
	}
	if rows == 0 || outF == 0 {
		return
	}
	if in == 0 {
		// No product: the bias (or zero) through the activation.
		for r := 0; r < rows; r++ {
			row := out.F32[r*outF : (r+1)*outF]
			if b != nil {
				copy(row, b)
			} else {
				clear(row)
			}
		}
		applyAct(out.F32, act)
		return
	}
	if linearNarrow(rows, x.F32, w, b, out.F32, act) {
		return
	}
	SgemmPackedEpilogue(rows, 1, x.F32, in, w, 0, out.F32, outF, b, act)
}
