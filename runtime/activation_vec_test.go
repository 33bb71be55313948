package runtime

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// TestActivationVecMatchesPortable checks the vector activation kernels
// element by element against the portable loops they stand in for, on
// special values, a sweep of magnitudes and every tail length, with guard
// values after the output to catch stray writes.
func TestActivationVecMatchesPortable(t *testing.T) { forEachISA(t, testActivationVecMatchesPortable) }

func testActivationVecMatchesPortable(t *testing.T) {
	if !activationVec(taskGelu, nil, nil) {
		skipWithoutVec(t, "activation kernels")
	}
	xs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, -0.5, 1e-3, -1e-3, 0x1p-7, -0x1p-7, 0x1.01p-7,
		1e-30, -1e-30, 1e-45, 3, -3, 5.5, -5.5, 9, -9, 10, -10, 14, -14, 20, -20, 40, -40, 88, -88, 89, -89,
		100, -100, 400, -400, 1e6, -1e6, 3.4e38, -3.4e38,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 20000 {
		xs = append(xs, float32(rng.NormFloat64()*math.Pow(10, rng.Float64()*4-2)))
	}
	// Below -87 sigmoid and SiLU are subnormal; a sweep there and around
	// tanh's switch from polynomial to exponential at 0.625.
	for v := float32(-120); v < -80; v += 0.37 {
		xs = append(xs, v)
	}
	for v := float32(0.6); v < 0.65; v += 0.001 {
		xs = append(xs, v, -v)
	}
	kinds := []struct {
		name string
		kind int
		ulps int64 // how far the vector tiers may be from the portable loop
	}{{"gelu", taskGelu, maxULPGelu}, {"sigmoid", taskSigmoid, maxULPSigmoid}, {"tanh", taskTanh, maxULPTanh}, {"silu", taskSilu, maxULPSilu}, {"gelutanh", taskGeluTanh, maxULPGeluTanh}}
	for _, k := range kinds {
		ulps := k.ulps
		want := make([]float32, len(xs))
		mapF64(want, xs, activationF64[k.kind])
		got := make([]float32, len(xs)+1)
		got[len(xs)] = 12345
		if !activationVec(k.kind, got[:len(xs)], xs) {
			t.Fatalf("%s: no vector kernel", k.name)
		}
		if got[len(xs)] != 12345 {
			t.Errorf("%s: wrote past the output", k.name)
		}
		for i, x := range xs {
			if d := ulpDistance(got[i], want[i]); d > ulps {
				t.Errorf("%s(%v): vector %v, portable %v: %d units in the last place apart, at most %d allowed on %v", k.name, x, got[i], want[i], d, ulps, CurrentISA())
			}
		}
		// Every length up to two sixteen-lane vectors and a tail: the
		// masked tail computes what the full lanes compute, and stops
		// at n.
		for n := 0; n <= 40; n++ {
			out := make([]float32, n+8)
			for i := range out {
				out[i] = -7
			}
			activationVec(k.kind, out[:n], xs[:n])
			for i := range n {
				if math.Float32bits(out[i]) != math.Float32bits(got[i]) {
					t.Errorf("%s, n=%d: element %d is %v, want %v", k.name, n, i, out[i], got[i])
				}
			}
			for i := n; i < len(out); i++ {
				if out[i] != -7 {
					t.Errorf("%s, n=%d: wrote element %d", k.name, n, i)
				}
			}
		}
	}
}

// geluKinds are the two GELUs, each with the lowest x of its kernels'
// fast path, its ulp budget, and the fast path's own (tighter) budget.
var geluKinds = []struct {
	name     string
	kind     int
	fast     float32 // the fast path's lowest x
	ulps     int64
	fastULPs int64
}{{"gelu", taskGelu, -4, maxULPGelu, 5}, {"gelutanh", taskGeluTanh, -2.5, maxULPGeluTanh, 3}}

// TestGeluLanesIndependent checks that both GELUs' vector kernels give
// each element the result it gets alone, whatever its neighbours: elements
// at least -4 (-2.5 for the tanh GELU) take the fast polynomial, the
// others are gathered for the general kernel and put back in place. Rows
// of 40 (two sixteen-lane vectors and a tail) and of a thousand or so mix
// values on both sides of both limits with NaN and ±∞.
func TestGeluLanesIndependent(t *testing.T) { forEachISA(t, testGeluLanesIndependent) }

func testGeluLanesIndependent(t *testing.T) {
	if !activationVec(taskGelu, nil, nil) {
		skipWithoutVec(t, "activation kernels")
	}
	// The first eight are below one limit or both; the next eight in
	// both fast ranges.
	vals := []float32{-4, -3.9999998, -4.0000005, -2.5000002, -3.5, -5, -12, -20,
		-2.5, -2.4999998, -1, -0.01, 0, 0.3, 2.5, 11.5,
		7, 12, 1e30, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
	for _, k := range geluKinds {
		alone := make([]float32, len(vals))
		for i := range vals {
			activationVec(k.kind, alone[i:i+1], vals[i:i+1])
		}
		rng := rand.New(rand.NewPCG(3, 3))
		for r := range 2100 {
			// Rows of 40, mostly in the fast range; then long ones, a
			// half of whose elements are anywhere, which the kernels
			// gather in more than one batch.
			n, fast := 40, 3
			if r >= 2000 {
				n, fast = 1000+r, 1
			}
			xs, pick, got := make([]float32, n), make([]int, n), make([]float32, n)
			for i := range xs {
				pick[i] = rng.IntN(len(vals))
				if rng.IntN(fast+1) != 0 {
					pick[i] = 8 + rng.IntN(8)
				}
				xs[i] = vals[pick[i]]
			}
			activationVec(k.kind, got, xs)
			for i, p := range pick {
				if math.Float32bits(got[i]) != math.Float32bits(alone[p]) && !(got[i] != got[i] && alone[p] != alone[p]) {
					t.Fatalf("%s(%v) at %d of %d: %v, alone %v (%v)", k.name, xs[i], i, n, got[i], alone[p], CurrentISA())
				}
			}
		}
	}
}

// TestGeluAccuracyExhaustive measures both GELUs' vector kernels against
// the portable float64 loops on every float32 of magnitude up to 16 (one
// in 64 of those below 10⁻³), prints how many are 0, 1, 2, ... units in
// the last place off, at and above the fast path's lowest x and below it,
// and fails past their budgets: the fast paths' own (5 and 3) from their
// lowest x up, maxULPGelu and maxULPGeluTanh below. It takes about 20 s a tier and GELU and
// runs only with FXGEN_EXHAUSTIVE=1 in the environment.
func TestGeluAccuracyExhaustive(t *testing.T) {
	if os.Getenv("FXGEN_EXHAUSTIVE") != "1" {
		t.Skip("set FXGEN_EXHAUSTIVE=1 to measure every float32 input")
	}
	forEachISA(t, func(t *testing.T) {
		if !activationVec(taskGelu, nil, nil) {
			skipWithoutVec(t, "activation kernels")
		}
		for _, k := range geluKinds {
			const block = 1 << 16
			x := make([]float32, 0, block)
			got := make([]float32, block)
			var hist [2][8]int // fast range, below
			var worst [2]float32
			maxD := [2]int64{-1, -1}
			check := func() {
				activationVec(k.kind, got[:len(x)], x)
				for i, v := range x {
					want := float32(activationF64[k.kind](float64(v)))
					d := ulpDistance(got[i], want)
					r, budget := 0, k.fastULPs
					if v < k.fast {
						r, budget = 1, k.ulps
					}
					if d > budget {
						t.Errorf("%s(%v): %v, portable %v: %d units in the last place, at most %d allowed", k.name, v, got[i], want, d, budget)
					}
					if d > maxD[r] {
						maxD[r], worst[r] = d, v
					}
					hist[r][min(d, int64(len(hist[r])-1))]++
				}
				x = x[:0]
			}
			for bits := uint32(0); bits < 1<<32-1; bits++ {
				v := math.Float32frombits(bits)
				if a := math.Abs(float64(v)); a > 16 || a != a || (a < 1e-3 && bits%64 != 0) {
					continue
				}
				if x = append(x, v); len(x) == block {
					check()
				}
			}
			check()
			t.Logf("%v %s: by units in the last place, from %v up %v (one of the farthest %v), below %v (%v)",
				CurrentISA(), k.name, k.fast, hist[0], worst[0], hist[1], worst[1])
		}
	})
}

// How far the vector tiers' activations may be from the portable float64
// loops, in float32 units in the last place: both compute them in float32
// with the same steps and bits (activation_f32_avx2_amd64.s and
// activation_f32_avx512_amd64.s; on 2.4 million inputs sigmoid and tanh
// were at most 2 apart, SiLU 3 in 35 cases). The GELUs on every float32 of
// magnitude up to 16 (one in 64 of those below 10⁻³;
// TestGeluAccuracyExhaustive): the exact GELU 6 in 11 cases, all below -4,
// and 3 or more in 0.4 %; at least -4, where the fast polynomial runs, at
// most 5, in 39 cases. The tanh GELU 4 in 5 cases, all below -2.5, where
// the general kernel runs (2.4 million samples had found 3 at most); at
// least -2.5, at most 3, in 6 cases.
const (
	maxULPSigmoid  = 2
	maxULPTanh     = 2
	maxULPSilu     = 3
	maxULPGelu     = 6
	maxULPGeluTanh = 4
)

// ulpDistance is how many float32 values lie between a and b, counting b:
// 0 for equal numbers or two NaNs (and for 0 and -0), 1 for neighbours,
// huge for a NaN against a number.
func ulpDistance(a, b float32) int64 {
	if a != a || b != b {
		if a != a && b != b {
			return 0
		}
		return math.MaxInt64
	}
	// Map the sign-magnitude bits onto a line on which neighbours differ
	// by one and -0 meets 0.
	line := func(f float32) int64 {
		if u := int64(math.Float32bits(f)); u < 1<<31 {
			return u
		} else {
			return (1 << 31) - u
		}
	}
	d := line(a) - line(b)
	if d < 0 {
		d = -d
	}
	return d
}

// TestExpShiftVecMatchesPortable checks softmax's vector exp-and-sum
// against its portable loop, for every length up to 40 and with -Inf and
// +Inf entries; and, where no entry is above the shift (among them the
// shift by the maximum, softmax's), that the kernel for that case gives
// the same bits and sum.
func TestExpShiftVecMatchesPortable(t *testing.T) { forEachISA(t, testExpShiftVecMatchesPortable) }

func testExpShiftVecMatchesPortable(t *testing.T) {
	if _, ok := expShiftVec(nil, nil, 0, false); !ok {
		skipWithoutVec(t, "exp")
	}
	rng := rand.New(rand.NewPCG(8, 8))
	for n := 0; n <= 40; n++ {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64() * 30)
		}
		if n > 3 {
			x[1] = float32(math.Inf(-1))
		}
		if n == 40 {
			x[2] = float32(math.Inf(1))
		}
		shifts := []float64{0, 12.5, -800, 800}
		if n > 0 {
			shifts = append(shifts, float64(slices.Max(x)))
		}
		for _, shift := range shifts {
			want := make([]float32, n)
			wantSum := expShiftPortable(want, x, shift)
			got := make([]float32, n+1)
			got[n] = 99
			gotSum, _ := expShiftVec(got[:n], x, shift, false)
			if got[n] != 99 {
				t.Errorf("n=%d: wrote past the output", n)
			}
			if len(x) == 0 || float64(slices.Max(x)) <= shift {
				below := make([]float32, n+1)
				below[n] = 99
				belowSum, _ := expShiftVec(below[:n], x, shift, true)
				if !slices.EqualFunc(below, got, func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }) || belowSum != gotSum && !(math.IsNaN(belowSum) && math.IsNaN(gotSum)) {
					t.Errorf("n=%d shift=%v: with every entry at most the shift, %v (sum %v), not %v (sum %v)", n, shift, below[:n], belowSum, got[:n], gotSum)
				}
			}
			for i := range n {
				if ulpDistance(got[i], want[i]) > 1 {
					t.Errorf("n=%d shift=%v: e^(%v-shift) = %v, portable %v", n, shift, x[i], got[i], want[i])
				}
			}
			// The vector tiers sum their float32 results, each within
			// one float32 unit (2^-23 relative) of the portable loop's,
			// whose sum adds the unrounded float64 exps; a float32 result
			// that overflowed makes its sum +Inf.
			rel, overflowed := 0x1p-23, slices.Contains(want, float32(math.Inf(1)))
			if d := math.Abs(gotSum - wantSum); !(overflowed && math.IsInf(gotSum, 1)) && !(d <= rel*math.Abs(wantSum)+1e-300) && !(math.IsNaN(gotSum) && math.IsNaN(wantSum)) && gotSum != wantSum {
				t.Errorf("n=%d shift=%v: sum %v, portable %v", n, shift, gotSum, wantSum)
			}
		}
	}
}

// TestMaxVec checks softmax's vector row maximum against a plain loop for
// every length up to 40, with NaN, ±Inf and all-negative rows.
func TestMaxVec(t *testing.T) { forEachISA(t, testMaxVec) }

func testMaxVec(t *testing.T) {
	if _, _, ok := maxVec([]float32{1}); !ok {
		skipWithoutVec(t, "max")
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for n := 1; n <= 40; n++ {
		for variant := range 4 {
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(rng.NormFloat64()*10 - 50) // mostly negative
			}
			switch variant {
			case 1:
				x[rng.IntN(n)] = float32(math.NaN())
			case 2:
				x[rng.IntN(n)] = float32(math.Inf(1))
			case 3:
				for i := range x {
					x[i] = float32(math.Inf(-1))
				}
			}
			want, wantNaN := x[0], false
			for _, v := range x {
				if v != v {
					wantNaN = true
				} else if v > want || want != want {
					want = v
				}
			}
			m, nan, _ := maxVec(x)
			if nan != wantNaN || (!wantNaN && m != want) {
				t.Errorf("n=%d variant %d: max %v (NaN %v), want %v (NaN %v)", n, variant, m, nan, want, wantNaN)
			}
		}
	}
}

// TestReluVec checks the vector ReLU against the portable loop for every
// length up to 70, in place and not, with NaN, -0 and ±Inf, and guard
// values after the output.
func TestReluVec(t *testing.T) { forEachISA(t, testReluVec) }

func testReluVec(t *testing.T) {
	if !reluVec(nil, nil) {
		skipWithoutVec(t, "ReLU")
	}
	specials := []float32{float32(math.NaN()), float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), 0, -1e-40}
	rng := rand.New(rand.NewPCG(10, 10))
	for n := 0; n <= 70; n++ {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
			if rng.IntN(5) == 0 {
				x[i] = specials[rng.IntN(len(specials))]
			}
		}
		want := make([]float32, n)
		for i, v := range x {
			if v < 0 {
				v = 0
			}
			want[i] = v
		}
		out := make([]float32, n+1)
		out[n] = 5
		reluVec(out[:n], x)
		inPlace := append([]float32(nil), x...)
		reluVec(inPlace, inPlace)
		for i := range n {
			if math.Float32bits(out[i]) != math.Float32bits(want[i]) && !(want[i] != want[i] && out[i] != out[i]) {
				t.Errorf("n=%d: relu(%v) = %v, want %v", n, x[i], out[i], want[i])
			}
			if math.Float32bits(inPlace[i]) != math.Float32bits(out[i]) && !(out[i] != out[i] && inPlace[i] != inPlace[i]) {
				t.Errorf("n=%d: in place relu(%v) = %v, want %v", n, x[i], inPlace[i], out[i])
			}
		}
		if out[n] != 5 {
			t.Errorf("n=%d: wrote past the output", n)
		}
	}
}

// TestLayerNormRowVec checks the vector layer normalization of one row
// against the portable loop, for every length up to 40 and each of the
// four weight/bias combinations, with a guard value after the row.
func TestLayerNormRowVec(t *testing.T) { forEachISA(t, testLayerNormRowVec) }

func testLayerNormRowVec(t *testing.T) {
	if !layerNormRowVec([]float32{0}, []float32{1}, nil, nil, 1e-5) {
		skipWithoutVec(t, "layer norm")
	}
	rng := rand.New(rand.NewPCG(11, 11))
	for n := 1; n <= 40; n++ {
		x, w, b := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64()*3 + 100)
			w[i] = float32(rng.NormFloat64())
			b[i] = float32(rng.NormFloat64())
		}
		for mode := range 4 {
			var wm, bm []float32
			if mode&1 != 0 {
				wm = w
			}
			if mode&2 != 0 {
				bm = b
			}
			want := make([]float32, n)
			layerNormRowsPortable(want, x, wm, bm, n, 1e-5)
			got := make([]float32, n+1)
			got[n] = 77
			layerNormRowVec(got[:n], x, wm, bm, 1e-5)
			for i := range n {
				// The sums are added in another order: allow 2 ulp.
				if d := math.Abs(float64(got[i] - want[i])); d > 2*ulp32(want[i]) {
					t.Errorf("n=%d mode %d: out[%d] = %v, portable %v", n, mode, i, got[i], want[i])
				}
			}
			if got[n] != 77 {
				t.Errorf("n=%d mode %d: wrote past the row", n, mode)
			}
		}
	}
}

// ulp32 is the spacing of float32 values at v.
func ulp32(v float32) float64 {
	a := math.Abs(float64(v))
	return float64(math.Nextafter32(float32(a), float32(math.Inf(1)))) - float64(float32(a))
}
