// This file holds the moves between channels-first (NCHW) and
// channels-last (NHWC) images that Permute takes for the layout pass.

package runtime

// permuteChannels runs a permutation of a float32 image batch between
// NCHW and NHWC ([0, 2, 3, 1] or [0, 3, 1, 2]) as a transpose of each
// image (packTranspose: vector blocks on the vector tiers), and reports
// whether perm was one of them.
func permuteChannels(out, x *Array, perm []int) bool {
	if x.DType != Float32 || len(perm) != 4 || perm[0] != 0 {
		return false
	}
	n := x.Shape[0]
	var rows, cols int // of each image as x holds it
	switch {
	case perm[1] == 2 && perm[2] == 3 && perm[3] == 1:
		rows, cols = x.Shape[1], x.Shape[2]*x.Shape[3] // [C, H·W] to [H·W, C]
	case perm[1] == 3 && perm[2] == 1 && perm[3] == 2:
		rows, cols = x.Shape[1]*x.Shape[2], x.Shape[3] // [H·W, C] to [C, H·W]
	default:
		return false
	}
	size := rows * cols
	for i := range n {
		packTranspose(out.F32[i*size:(i+1)*size], rows, x.F32[i*size:(i+1)*size], cols, rows, cols, 1)
	}
	return true
}
