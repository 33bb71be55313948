// This file holds the EmbeddingBag kernel: sums, means or maxima of bags
// of embedding rows.

package runtime

// The reductions of EmbeddingBag, as torch.nn.EmbeddingBag's mode.
const (
	EmbeddingBagSum  = 0 // mode="sum"
	EmbeddingBagMean = 1 // mode="mean"
	EmbeddingBagMax  = 2 // mode="max"
)

// EmbeddingBag sets out [B, dim] to the sum, mean or maximum (mode) of the
// rows of weight [num, dim] picked by each bag of int64 indices, as
// torch.nn.functional.embedding_bag without per-sample weights: with
// offsets nil, indices is [B, L] and each row is a bag; else indices is
// 1-D and bag b is indices[offsets[b]:offsets[b+1]] (the last one runs to
// the end). An empty bag gives zeros. Offsets must start at 0 and not
// decrease, and every index must be in [0, num); a violation panics.
//
//	out[b, :] = reduce over k in bag b of weight[indices[k], :]
func EmbeddingBag(out, indices, weight, offsets *Array, mode int) {
	const name = "EmbeddingBag"
	checkDType(name, "indices", indices, Int64)
	checkDType(name, "weight", weight, Float32)
	checkDType(name, "out", out, Float32)
	if len(weight.Shape) != 2 {
		kernelPanic(name, "weight %v, want [num, dim]", weight.Shape)
	}
	if mode < EmbeddingBagSum || mode > EmbeddingBagMax {
		kernelPanic(name, "mode %d, want EmbeddingBagSum, EmbeddingBagMean or EmbeddingBagMax", mode)
	}
	num, dim := weight.Shape[0], weight.Shape[1]
	var bags int
	var bounds func(b int) (int, int)
	if offsets == nil {
		if len(indices.Shape) != 2 {
			kernelPanic(name, "indices %v without offsets, want [bags, length]", indices.Shape)
		}
		bags = indices.Shape[0]
		l := indices.Shape[1]
		bounds = func(b int) (int, int) { return b * l, (b + 1) * l }
	} else {
		checkDType(name, "offsets", offsets, Int64)
		if len(indices.Shape) != 1 || len(offsets.Shape) != 1 {
			kernelPanic(name, "indices %v and offsets %v, want both 1-D", indices.Shape, offsets.Shape)
		}
		bags = offsets.Shape[0]
		n := int64(indices.Len())
		for b, o := range offsets.I64 {
			if b == 0 && o != 0 || o < 0 || o > n || b > 0 && o < offsets.I64[b-1] {
				kernelPanic(name, "offsets %v: want 0 first, non-decreasing, at most %d", offsets.I64, n)
			}
		}
		bounds = func(b int) (int, int) {
			end := indices.Len()
			if b+1 < bags {
				end = int(offsets.I64[b+1])
			}
			return int(offsets.I64[b]), end
		}
	}
	if len(out.Shape) != 2 || out.Shape[0] != bags || out.Shape[1] != dim {
		kernelPanic(name, "out shape %v, want [%d, %d]", out.Shape, bags, dim)
	}
	for k, ix := range indices.I64 {
		if ix < 0 || ix >= int64(num) {
			kernelPanic(name, "index %d at position %d of indices %v is out of range [0, %d)", ix, k, indices.Shape, num)
		}
	}
	for b := 0; b < bags; b++ {
		lo, hi := bounds(b)
		o := out.F32[b*dim : (b+1)*dim]
		if lo == hi {
			clear(o)
			continue
		}
		copy(o, weight.F32[int(indices.I64[lo])*dim:])
		for _, ix := range indices.I64[lo+1 : hi] {
			row := weight.F32[int(ix)*dim : (int(ix)+1)*dim]
			if mode == EmbeddingBagMax {
				for j, v := range row {
					if v > o[j] || v != v {
						o[j] = v
					}
				}
				continue
			}
			for j, v := range row {
				o[j] += v
			}
		}
		if mode == EmbeddingBagMean {
			inv := 1 / float32(hi-lo)
			for j := range o {
				o[j] *= inv
			}
		}
	}
}
