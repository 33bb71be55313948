//go:build amd64 && !noasm

package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWinogradTransformsMatchGo checks the AVX2 transforms against their
// reference loops bit for bit, on 1 to 9 tiles of random values with NaN,
// ±Inf and −0 among them, with and without ReLU, and that they write
// nothing outside their tiles and report non-finite outputs.
func TestWinogradTransformsMatchGo(t *testing.T) {
	if !hasAVX2FMA {
		t.Skip("no AVX2")
	}
	r := rand.New(rand.NewPCG(41, 42))
	fill := func(s []float32, special bool) {
		for i := range s {
			s[i] = r.Float32()*4 - 2
		}
		if special {
			s[r.IntN(len(s))] = float32(math.NaN())
			s[r.IntN(len(s))] = float32(math.Inf(1))
			s[r.IntN(len(s))] = float32(math.Inf(-1))
			s[r.IntN(len(s))] = float32(math.Copysign(0, -1))
		}
	}
	same := func(what string, got, want []float32) {
		t.Helper()
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%s: element %d is %v, want %v", what, i, got[i], want[i])
			}
		}
	}
	const guard = 777
	for tiles := 1; tiles <= 9; tiles++ {
		for _, special := range []bool{false, true} {
			// Input: tiles side by side in rows of rowStride floats;
			// outputs every 24 floats (tileStride), planes 24·tiles+8 apart.
			rowStride := tiles*16 + 24
			xb := make([]float32, 4*rowStride)
			fill(xb, special)
			tileStride, planeStride := 24, 24*tiles+8
			got, want := make([]float32, 16*planeStride), make([]float32, 16*planeStride)
			for i := range got {
				got[i], want[i] = guard, guard
			}
			winoInputAVX2(&xb[0], rowStride*4, &got[0], tileStride*4, planeStride*4, tiles)
			winoInputGo(xb, rowStride, want, tileStride, planeStride, tiles)
			same("winoInputAVX2", got, want)

			m := make([]float32, 16*planeStride)
			fill(m, special)
			bias := make([]float32, 8)
			fill(bias, false)
			for _, relu := range []bool{false, true} {
				obStride := tiles*16 + 8
				got, want := make([]float32, 2*obStride), make([]float32, 2*obStride)
				for i := range got {
					got[i], want[i] = guard, guard
				}
				flag := 0
				if relu {
					flag = 1
				}
				nonFinite := winoOutputAVX2(&m[0], planeStride*4, tileStride*4, &got[0], obStride*4, tiles, &bias[0], flag)
				goNonFinite := winoOutputGo(m, planeStride, tileStride, want, obStride, tiles, bias, relu)
				same("winoOutputAVX2", got, want)
				finite := true
				for i, v := range want {
					if i%obStride < tiles*16 && (math.IsNaN(float64(v)) || math.IsInf(float64(v), 0)) {
						finite = false
					}
				}
				if (nonFinite != 0) == finite || goNonFinite == finite {
					t.Fatalf("%d tiles, relu %v: winoOutputAVX2 nonFinite %d, winoOutputGo %v, but the outputs are finite: %v", tiles, relu, nonFinite, goNonFinite, finite)
				}
			}
		}
	}
}
