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

// TestPackBRowsMatchLayout checks packB of a B that is not transposed
// (packRows16 and packRows32 on the vector tiers) against the panel layout
// by definition, bit for bit: 16- and 32-column panels, 1 to 9 rows (groups
// of four and single rows), widths with and without a partial last panel,
// an offset block of a wider B, NaN payloads, zeros past the last column
// and a guard after the panels that must stay.
func TestPackBRowsMatchLayout(t *testing.T) { forEachISA(t, testPackBRowsMatchLayout) }

func testPackBRowsMatchLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 23))
	const guard = float32(-12345)
	for _, nr := range []int{16, 32} {
		for kb := 1; kb <= 9; kb++ {
			for _, nb := range []int{1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 64, 70} {
				const p0, j0 = 2, 3
				ldb := j0 + nb + 5
				b := make([]float32, (p0+kb)*ldb)
				for i := range b {
					b[i] = math.Float32frombits(rng.Uint32())
				}
				np := (nb + nr - 1) / nr
				got := make([]float32, np*kb*nr+4)
				for i := range got {
					got[i] = guard
				}
				packB(got, false, b, ldb, p0, kb, j0, nb, nr)
				for i, v := range got {
					want := guard
					if i < np*kb*nr {
						panel, p, jj := i/(kb*nr), i%(kb*nr)/nr, i%nr
						want = 0
						if j := panel*nr + jj; j < nb {
							want = b[(p0+p)*ldb+j0+j]
						}
					}
					if math.Float32bits(v) != math.Float32bits(want) {
						t.Fatalf("nr %d, %d×%d: dst[%d] is %#x, want %#x", nr, kb, nb, i, math.Float32bits(v), math.Float32bits(want))
					}
				}
			}
		}
	}
}
