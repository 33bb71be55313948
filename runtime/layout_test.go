package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestPermuteChannels checks Permute between NCHW and NHWC ([0, 2, 3, 1]
// and [0, 3, 1, 2], a transpose of each image, in vector blocks on the
// vector tiers) against the general permutation loop, bit for bit
// (NaN, ±Inf and −0 among the values), on every tier: channel counts
// under, at and past a block of eight, images of one pixel, fewer than
// eight and many, and a round trip.
func TestPermuteChannels(t *testing.T) { forEachISA(t, testPermuteChannels) }

func testPermuteChannels(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1))}
	for _, c := range []int{3, 8, 13, 16, 24} {
		for _, hw := range [][2]int{{1, 1}, {2, 3}, {7, 7}, {5, 9}} {
			x := randArray(r, 2, c, hw[0], hw[1])
			for i := range specials {
				x.F32[r.IntN(len(x.F32))] = specials[i]
			}
			what := fmt.Sprintf("%d channels, %d×%d", c, hw[0], hw[1])
			last := NewArray(Float32, 2, hw[0], hw[1], c)
			Permute(last, x, []int{0, 2, 3, 1})
			want := NewArray(Float32, 2, hw[0], hw[1], c)
			permuteT(want.F32, x.F32, want.Shape, []int{c * hw[0] * hw[1], hw[1], 1, hw[0] * hw[1]})
			if i := sameBits(last.F32, want.F32); i >= 0 {
				t.Fatalf("%s, to NHWC: element %d is %v, want %v", what, i, last.F32[i], want.F32[i])
			}
			back := NewArray(Float32, 2, c, hw[0], hw[1])
			Permute(back, last, []int{0, 3, 1, 2})
			if i := sameBits(back.F32, x.F32); i >= 0 {
				t.Fatalf("%s, back to NCHW: element %d is %v, want %v", what, i, back.F32[i], x.F32[i])
			}
		}
	}
}
