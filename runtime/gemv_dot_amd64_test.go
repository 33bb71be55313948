//go:build amd64 && !noasm

package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDot8MatchesDot4 requires dot8x512's eight sums to have the bits of
// dot4x512's for the same rows (each row summed in the same two partial
// sums), over depths around the 16- and 32-float steps and the masked
// tail, with NaN, ±Inf and -0 among the values, and that it writes
// nothing past its eight sums.
func TestDot8MatchesDot4(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512")
	}
	r := rand.New(rand.NewPCG(91, 92))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1))}
	const guard = -4321.5
	for _, k := range []int{1, 7, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 100, 784} {
		for _, special := range []bool{false, true} {
			ldb := k + r.IntN(5)
			a := make([]float32, k)
			b := make([]float32, 8*ldb)
			for i := range a {
				a[i] = r.Float32()*2 - 1
			}
			for i := range b {
				b[i] = r.Float32()*2 - 1
			}
			if special {
				for range 3 {
					b[r.IntN(len(b))] = specials[r.IntN(len(specials))]
				}
				a[r.IntN(k)] = specials[3]
			}
			got := make([]float32, 9)
			got[8] = guard
			dot8x512(k, &a[0], &b[0], ldb, &got[0])
			if got[8] != guard {
				t.Fatalf("k %d: the guard after the sums is %v", k, got[8])
			}
			for g := range 2 {
				want := dot4AVX512(k, a, b[4*g*ldb:], ldb)
				for i, w := range want {
					if math.Float32bits(w) != math.Float32bits(got[4*g+i]) {
						t.Fatalf("k %d specials %v row %d: dot8 %v, dot4 %v", k, special, 4*g+i, got[4*g+i], w)
					}
				}
			}
		}
	}
}
