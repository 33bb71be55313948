//go:build amd64 && !noasm

package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWinogradTransformsMatchGo checks the AVX2 transforms against their
// reference loops bit for bit, on 1 to 9 tiles (pairs and a last single
// one) of 1 to 3 blocks of channels, of random values with NaN, ±Inf and
// −0 among them, with and without ReLU, and that they write nothing
// outside their tiles and report non-finite outputs.
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
		for blocks := 1; blocks <= 3; blocks++ {
			for _, special := range []bool{false, true} {
				testWinogradTiles(t, tiles, blocks, special, fill, same)
			}
		}
	}
}

// testWinogradTiles runs one case of TestWinogradTransformsMatchGo.

func testWinogradTiles(t *testing.T, tiles, blocks int, special bool, fill func([]float32, bool), same func(string, []float32, []float32)) {
	const guard = 777
	// Input: tiles side by side in rows of rowStride floats,
	// blocks 4·rowStride+16 apart; outputs every 8·blocks+16
	// floats (tileStride), planes tileStride·tiles+8 apart.
	rowStride := tiles*16 + 24
	inBlock := 4*rowStride + 16
	xb := make([]float32, blocks*inBlock)
	fill(xb, special)
	tileStride := 8*blocks + 16
	planeStride := tileStride*tiles + 8
	got, want := make([]float32, 16*planeStride), make([]float32, 16*planeStride)
	for i := range got {
		got[i], want[i] = guard, guard
	}
	winoInputAVX2(&xb[0], rowStride*4, &got[0], tileStride*4, planeStride*4, tiles, blocks, inBlock*4)
	winoInputGo(xb, rowStride, want, tileStride, planeStride, tiles, blocks, inBlock)
	same("winoInputAVX2", got, want)

	m := make([]float32, 16*planeStride)
	fill(m, special)
	bias := make([]float32, 8*blocks)
	fill(bias, false)
	for _, relu := range []bool{false, true} {
		obStride := tiles*16 + 8
		outBlock := 2*obStride + 8
		got, want := make([]float32, blocks*outBlock), make([]float32, blocks*outBlock)
		for i := range got {
			got[i], want[i] = guard, guard
		}
		flag := 0
		if relu {
			flag = 1
		}
		nonFinite := winoOutputAVX2(&m[0], planeStride*4, tileStride*4, &got[0], obStride*4, tiles, &bias[0], flag, blocks, outBlock*4)
		goNonFinite := winoOutputGo(m, planeStride, tileStride, want, obStride, tiles, bias, relu, blocks, outBlock)
		same("winoOutputAVX2", got, want)
		finite := true
		for i, v := range want {
			if r := i % outBlock; r < 2*obStride && r%obStride < tiles*16 && (math.IsNaN(float64(v)) || math.IsInf(float64(v), 0)) {
				finite = false
			}
		}
		if (nonFinite != 0) == finite || goNonFinite == finite {
			t.Fatalf("%d tiles, %d blocks, relu %v: winoOutputAVX2 nonFinite %d, winoOutputGo %v, but the outputs are finite: %v", tiles, blocks, relu, nonFinite, goNonFinite, finite)
		}
	}
}
