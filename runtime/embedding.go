// This file holds the embedding lookup kernel.

package runtime

// Embedding sets out to the rows of the table weight [num, dim] picked by
// the int64 indices: indices has any shape S and out is S + [dim]. An
// index outside [0, num) panics, naming the index and its position.
//
//	out[i.., :] = weight[indices[i..], :]
func Embedding(out, indices, weight *Array) {
	checkDType("Embedding", "indices", indices, Int64)
	checkDType("Embedding", "weight", weight, Float32)
	checkDType("Embedding", "out", out, Float32)
	if len(weight.Shape) != 2 {
		kernelPanic("Embedding", "weight %v, want [num, dim]", weight.Shape)
	}
	num, dim := weight.Shape[0], weight.Shape[1]
	if !shapeInserted(out.Shape, indices.Shape, len(indices.Shape), dim) {
		kernelPanic("Embedding", "out shape %v, want %v + [%d]", out.Shape, indices.Shape, dim)
	}
	w, o := weight.F32, out.F32
	for i, ix := range indices.I64 {
		if ix < 0 || ix >= int64(num) {
			kernelPanic("Embedding", "index %d at position %d of indices %v is out of range [0, %d)", ix, i, indices.Shape, num)
		}
		copy(o[i*dim:(i+1)*dim], w[int(ix)*dim:(int(ix)+1)*dim])
	}
}
