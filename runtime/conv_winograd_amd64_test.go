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

// TestWinogradWorkersAgree checks that a Winograd convolution gives the
// same bits for any number of workers, one image and a batch, and with
// filters transformed by PrepareConv2d or on their first call.
func TestWinogradWorkersAgree(t *testing.T) { forEachISA(t, testWinogradWorkersAgree) }

func testWinogradWorkersAgree(t *testing.T) {
	if winoKernelsFor() == nil {
		t.Skip("no Winograd path on this tier")
	}
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(43, 44))
	for _, n := range []int{1, 3} {
		x, wt, b := randArray(r, n, 32, 11, 13), randArray(r, 24, 32, 3, 3), randArray(r, 24)
		w := PrepareConv2d(wt, []int{1}, []int{1}, 1)
		if !convWinogradOK(&convGeom{c: 32, o: 24, kh: 3, kw: 3, sh: 1, sw: 1}, 1) || w.wino == nil {
			t.Fatal("the Winograd path does not take 32→24 channels, or PrepareConv2d did not transform them")
		}
		// Filters prepared for stride 2 are transformed on their first
		// call with stride 1, to the same bits.
		lazy := PrepareConv2d(wt, []int{2}, []int{1}, 1)
		if lazy.wino != nil {
			t.Fatal("PrepareConv2d transformed filters for stride 2")
		}
		var first *Array
		for i, workers := range []int{1, 2, 3} {
			SetWorkers(workers)
			got := nanArray(n, 24, 11, 13)
			if i == 2 {
				w = lazy
			}
			Conv2dActPrepared(got, x, w, b, []int{1}, []int{1}, 1, int(ActReLU))
			if first == nil {
				first = got
				continue
			}
			for i := range got.F32 {
				if math.Float32bits(got.F32[i]) != math.Float32bits(first.F32[i]) {
					t.Fatalf("%d images, workers %d: element %d is %v, with 1 worker %v", n, workers, i, got.F32[i], first.F32[i])
				}
			}
		}
	}
}
