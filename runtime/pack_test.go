package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPackTransposeMatchesLoop checks the vector transposes used to pack a
// transposed GEMM operand against packTransposeGo for every block shape
// and edge up to 19×19 and a few larger ones, with padded strides whose
// gaps must stay untouched, special values, and alpha 1 and ½.
func TestPackTransposeMatchesLoop(t *testing.T) { forEachISA(t, testPackTransposeMatchesLoop) }

func testPackTransposeMatchesLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	specials := []float32{float32(math.NaN()), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 1e-40}
	sizes := [][2]int{{33, 17}, {64, 64}, {40, 24}, {7, 65}}
	for r := 1; r <= 19; r++ {
		for c := 1; c <= 19; c++ {
			sizes = append(sizes, [2]int{r, c})
		}
	}
	const guard = float32(-12345)
	for _, sz := range sizes {
		rows, cols := sz[0], sz[1]
		ld, stride := cols+3, rows+5
		src := make([]float32, rows*ld)
		for i := range src {
			src[i] = float32(rng.NormFloat64())
			if rng.IntN(20) == 0 {
				src[i] = specials[rng.IntN(len(specials))]
			}
		}
		for _, alpha := range []float32{1, 0.5} {
			want := make([]float32, cols*stride)
			got := make([]float32, cols*stride)
			for i := range want {
				want[i], got[i] = guard, guard
			}
			packTransposeGo(want, stride, src, ld, rows, cols, alpha)
			packTranspose(got, stride, src, ld, rows, cols, alpha)
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
					t.Fatalf("%d×%d alpha %v: dst[%d] = %v, want %v", rows, cols, alpha, i, got[i], want[i])
				}
			}
		}
	}
}
