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
				winoOutputGo(m, planeStride, tileStride, want, obStride, tiles, bias, relu)
				same("winoOutputAVX2", got, want)
				finite := true
				for i, v := range want {
					if i%obStride < tiles*16 && (math.IsNaN(float64(v)) || math.IsInf(float64(v), 0)) {
						finite = false
					}
				}
				if (nonFinite != 0) == finite {
					t.Fatalf("winoOutputAVX2 %d tiles, relu %v: nonFinite %d, but the outputs are finite: %v", tiles, relu, nonFinite, finite)
				}
			}
		}
	}
}

// TestWinogradWorkersAgree checks that a Winograd convolution gives the
// same bits for any number of workers, one image and a batch, and with
// filters transformed by PrepareConv2d or on their first call.
func TestWinogradWorkersAgree(t *testing.T) {
	if !hasAVX2FMA || hasAVX512 {
		t.Skip("the Winograd path runs on the AVX2 tier")
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

// winoInputGo is the reference loop of winoInputAVX2 on float indices: for
// tiles t < tiles, with d[i][j] the eight floats at xb[t*16+i*rowStride+j*8:],
// it stores (Bᵀ d B)[a][b] at v[t*tileStride+(4a+b)*planeStride:].
func winoInputGo(xb []float32, rowStride int, v []float32, tileStride, planeStride, tiles int) {
	for t := 0; t < tiles; t++ {
		for l := 0; l < 8; l++ {
			var d, s [4][4]float32
			for i := range d {
				for j := range d[i] {
					d[i][j] = xb[t*16+i*rowStride+j*8+l]
				}
			}
			for i := range s {
				s[i] = [4]float32{d[i][0] - d[i][2], d[i][1] + d[i][2], d[i][2] - d[i][1], d[i][1] - d[i][3]}
			}
			for b := 0; b < 4; b++ {
				vs := [4]float32{s[0][b] - s[2][b], s[1][b] + s[2][b], s[2][b] - s[1][b], s[1][b] - s[3][b]}
				for a, x := range vs {
					v[t*tileStride+(4*a+b)*planeStride+l] = x
				}
			}
		}
	}
}

// winoOutputGo is the reference loop of winoOutputAVX2 on float indices: for
// tiles t < tiles, with m[a][b] the eight floats at
// m[t*tileStride+(4a+b)*planeStride:], it stores y = Aᵀ m A + bias, then
// max(0, ·) keeping NaN when relu, as y[i][j] at ob[t*16+i*rowStride+j*8:].
func winoOutputGo(m []float32, planeStride, tileStride int, ob []float32, rowStride, tiles int, bias []float32, relu bool) {
	for t := 0; t < tiles; t++ {
		for l := 0; l < 8; l++ {
			at := func(a, b int) float32 { return m[t*tileStride+(4*a+b)*planeStride+l] }
			var u [2][4]float32
			for b := 0; b < 4; b++ {
				u[0][b] = at(0, b) + at(1, b) + at(2, b)
				u[1][b] = at(1, b) - at(2, b) - at(3, b)
			}
			for i := 0; i < 2; i++ {
				y := [2]float32{u[i][0] + u[i][1] + u[i][2], u[i][1] - u[i][2] - u[i][3]}
				for j, x := range y {
					x += bias[l]
					if relu && x < 0 {
						x = 0
					}
					ob[t*16+i*rowStride+j*8+l] = x
				}
			}
		}
	}
}
