// This file holds the residual linear kernels: a linear layer whose result
// is added to another array (a residual connection) by the GEMM itself.

package runtime

// LinearResidual sets out = res + (x·wᵀ + bias), a Linear followed by the
// add of a residual res of out's shape, without a second array: out starts
// as res + bias and the product is accumulated into it (beta = 1). The sum
// is formed in another order than the two kernels', so it may differ from
// them in the last bits.
//
//	out[r, j] = res[r, j] + bias[j] + Σp x[r, p]·w[j, p]
func LinearResidual(out, x, w, bias, res *Array) {
	checkDType("LinearResidual", "weight", w, Float32)
	if len(w.Shape) != 2 {
		kernelPanic("LinearResidual", "weight shape %v, want [out, in]", w.Shape)
	}
	outF, in := w.Shape[0], w.Shape[1]
	rows := linearResidualStart("LinearResidual", out, x, in, outF, bias, res)
	if rows == 0 || outF == 0 || in == 0 {
		return
	}
	Sgemm(false, true, rows, outF, in, 1, x.F32, in, w.F32, in, 1, out.F32, outF)
}

// LinearResidualPacked is LinearResidual with the weight packed by
// PackLinear: out is set to res (nothing to copy when out and res are the
// same array, which the memory plan arranges when res has no later use)
// and the GEMM adds the product and the bias in its epilogue.
//
//	out[r, j] = res[r, j] + bias[j] + Σp x[r, p]·w[j, p]
func LinearResidualPacked(out, x *Array, w *PackedB, bias, res *Array) {
	if w == nil {
		kernelPanic("LinearResidualPacked", "nil packed weight")
	}
	in, outF := w.Dims()
	if in == 0 {
		linearResidualStart("LinearResidualPacked", out, x, in, outF, bias, res)
		return
	}
	rows := linearResidualStart("LinearResidualPacked", out, x, in, outF, nil, res)
	if rows == 0 || outF == 0 {
		return
	}
	var b []float32
	if bias != nil {
		b = bias.F32
	}
	SgemmPackedEpilogue(rows, 1, x.F32, in, w, 1, out.F32, outF, b, ActNone)
}

// linearResidualStart checks the operands of a residual linear kernel,
// sets out to res plus bias (when bias is not nil) and returns the number
// of rows.
func linearResidualStart(name string, out, x *Array, in, outF int, bias, res *Array) int {
	checkDType(name, "x", x, Float32)
	checkDType(name, "out", out, Float32)
	checkDType(name, "residual", res, Float32)
	if len(x.Shape) == 0 || x.Shape[len(x.Shape)-1] != in {
		kernelPanic(name, "x %v, want [..., %d]", x.Shape, in)
	}
	rows := NumElements(x.Shape[:len(x.Shape)-1])
	if out.Len() != rows*outF || len(out.Shape) == 0 || out.Shape[len(out.Shape)-1] != outF {
		kernelPanic(name, "out shape %v, want [..., %d] with %d rows", out.Shape, outF, rows)
	}
	if res.Len() != out.Len() {
		kernelPanic(name, "residual shape %v, want %d elements like out %v", res.Shape, out.Len(), out.Shape)
	}
	if bias != nil {
		checkDType(name, "bias", bias, Float32)
		if bias.Len() != outF {
			kernelPanic(name, "bias shape %v, want [%d]", bias.Shape, outF)
		}
	}
	if out.Len() == 0 {
		return rows
	}
	if &out.F32[0] != &res.F32[0] {
		copy(out.F32, res.F32)
	}
	if bias != nil {
		for r := 0; r < rows; r++ {
			row := out.F32[r*outF : (r+1)*outF]
			for j, b := range bias.F32 {
				row[j] += b
			}
		}
	}
	return rows
}
