// This file holds the layer normalization kernel.

package runtime

import "math"

// LayerNorm normalizes x over its trailing dims normalizedShape (each row
// of D = Π normalizedShape elements) to zero mean and unit variance, then
// scales by weight and shifts by bias (each of shape normalizedShape, or
// nil for 1 and 0). The variance is the biased one, as in PyTorch.
//
//	mean = Σ_j x[r, j] / D
//	var  = Σ_j (x[r, j] - mean)² / D
//	out[r, j] = (x[r, j] - mean) / √(var + eps) · weight[j] + bias[j]
func LayerNorm(out, x, weight, bias *Array, normalizedShape []int, eps float64) {
	checkDType("LayerNorm", "x", x, Float32)
	checkDType("LayerNorm", "out", out, Float32)
	if !equalInts(out.Shape, x.Shape) {
		kernelPanic("LayerNorm", "out shape %v, want %v", out.Shape, x.Shape)
	}
	k := len(normalizedShape)
	if k > len(x.Shape) || !equalInts(x.Shape[len(x.Shape)-k:], normalizedShape) {
		kernelPanic("LayerNorm", "x %v does not end with normalized_shape %v", x.Shape, dupInts(normalizedShape))
	}
	d := NumElements(normalizedShape)
	var w, b []float32
	if weight != nil {
		checkDType("LayerNorm", "weight", weight, Float32)
		if !equalInts(weight.Shape, normalizedShape) {
			kernelPanic("LayerNorm", "weight %v, want %v", weight.Shape, dupInts(normalizedShape))
		}
		w = weight.F32
	}
	if bias != nil {
		checkDType("LayerNorm", "bias", bias, Float32)
		if !equalInts(bias.Shape, normalizedShape) {
			kernelPanic("LayerNorm", "bias %v, want %v", bias.Shape, dupInts(normalizedShape))
		}
		b = bias.F32
	}
	if d == 0 {
		return
	}
	rows := x.Len() / d
	grain := max(1, elementwiseGrain/d)
	if rows < 2*grain {
		layerNormRows(out.F32, x.F32, w, b, d, eps, 0, rows)
		return
	}
	seqJob{kind: taskLayerNorm, out: out.F32, x: x.F32, w: w, b: b, size: d, grain: grain, eps: eps}.run(rows)
}

// layerNormRows normalizes rows r0..r1 of length d; w and b may be nil.
// Where the CPU has AVX-512 a row goes through layerNormRowVec, which
// computes the same float64 sums eight lanes at a time.
func layerNormRows(out, x, w, b []float32, d int, eps float64, r0, r1 int) {
	for r := r0; r < r1; r++ {
		xs := x[r*d : (r+1)*d]
		os := out[r*d : (r+1)*d]
		if !layerNormRowVec(os, xs, w, b, eps) {
			layerNormRowsPortable(os, xs, w, b, d, eps)
		}
	}
}

// layerNormRowsPortable normalizes the rows of x (length d each) in plain
// Go.
func layerNormRowsPortable(out, x, w, b []float32, d int, eps float64) {
	for r := 0; r < len(x)/d; r++ {
		xs := x[r*d : (r+1)*d]
		os := out[r*d : (r+1)*d]
		var s float64
		for _, v := range xs {
			s += float64(v)
		}
		mean := s / float64(d)
		var ss float64
		for _, v := range xs {
			c := float64(v) - mean
			ss += c * c
		}
		// The centring is done in float64: float32(mean) is off by up to
		// half an ulp of the mean, which is large next to a small spread.
		rstd := 1 / math.Sqrt(ss/float64(d)+eps)
		switch {
		case w != nil && b != nil:
			w, b := w[:d], b[:d]
			for i, v := range xs {
				os[i] = float32((float64(v)-mean)*rstd)*w[i] + b[i]
			}
		case w != nil:
			w := w[:d]
			for i, v := range xs {
				os[i] = float32((float64(v)-mean)*rstd) * w[i]
			}
		case b != nil:
			b := b[:d]
			for i, v := range xs {
				os[i] = float32((float64(v)-mean)*rstd) + b[i]
			}
		default:
			for i, v := range xs {
				os[i] = float32((float64(v) - mean) * rstd)
			}
		}
	}
}
