// This file tests that the AVX-512 float32 activation kernels give the
// AVX2 kernels' bits.

//go:build amd64 && !noasm

package runtime

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// f32KernelPair is one activation with its AVX2 and AVX-512 kernels.
type f32KernelPair struct {
	name         string
	avx2, avx512 func(out, x *float32, n int)
}

var f32KernelPairs = []f32KernelPair{
	{"sigmoid", sigmoidAVX2, sigmoidAVX512},
	{"silu", siluAVX2, siluAVX512},
	{"tanh", tanhAVX2, tanhAVX512},
	{"gelu", geluVecAVX2, geluVecAVX512},
	{"gelu general", geluAVX2, geluAVX512}, // below -4 only, in geluVec
	{"gelutanh", geluTanhVecAVX2, geluTanhVecAVX512},
	{"gelutanh general", geluTanhAVX2, geluTanhAVX512}, // below -2.5 only, in geluVec
}

// expShiftShifts are the shifts the expShift comparisons use: float32
// values, the infinities among them (softmax shifts a row holding +Inf
// by +Inf).
var expShiftShifts = []float64{0, 12.5, -3.75, 88, -800, 800, math.Inf(1), math.Inf(-1)}

// activationSpecials are inputs at the kernels' special cases and
// switches: zeros, infinities, NaNs with both signs and other payloads,
// subnormals, the clamp bounds of the exponential, tanh's and GELU's
// switches to a polynomial and GELU's switch to x.
var activationSpecials = []float32{
	0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
	float32(math.NaN()), math.Float32frombits(0xffc00000), math.Float32frombits(0x7f800001), math.Float32frombits(0xff812345),
	1e-45, -1e-45, 0x1p-126, -0x1p-126, 1e-40, -1e-40, 1e-30, -1e-30,
	math.MaxFloat32, -math.MaxFloat32, 1, -1, 0.5, -0.5, 0.625, -0.625, 0.3125, -0.3125,
	14.9, -14.9, 14.900001, -14.900001, 88.72, -88.72, 88.8, -88.8, 89, -89, 112, -112, 112.5, -112.5,
	103.9, -103.9, 87.3, -87.3, 150, -150, 1e6, -1e6,
}

// randomActivationInput is a random float32 of random magnitude (10^-3 to
// 10^3, both signs), one of activationSpecials one time in eight.
func randomActivationInput(rng *rand.Rand) float32 {
	if rng.IntN(8) == 0 {
		return activationSpecials[rng.IntN(len(activationSpecials))]
	}
	return float32(rng.NormFloat64() * math.Pow(10, rng.Float64()*6-3))
}

// sameF32Bits reports whether a and b have the same bits: the two tiers
// agree even on the payloads of NaNs.
func sameF32Bits(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b)
}

// TestActivationAVX512MatchesAVX2 checks that the AVX-512 kernels give the
// AVX2 kernels' bits on the special values and on random inputs, at every
// length up to 40 (one and two full vectors and every tail) and four
// alignments, and that they write nothing past n.
func TestActivationAVX512MatchesAVX2(t *testing.T) {
	if !cpuHasAVX512 {
		t.Skip("the CPU has no AVX-512")
	}
	const guard = -7.25
	rng := rand.New(rand.NewPCG(12, 12))
	for _, k := range f32KernelPairs {
		check := func(x []float32) {
			t.Helper()
			n := len(x)
			want := make([]float32, n)
			if n > 0 {
				k.avx2(&want[0], &x[0], n)
			}
			for off := range 4 {
				buf := make([]float32, off+n+17)
				for i := range buf {
					buf[i] = guard
				}
				out := buf[off : off+n]
				if n > 0 {
					k.avx512(&out[0], &x[0], n)
				}
				for i := range n {
					if !sameF32Bits(out[i], want[i]) {
						t.Errorf("%s(%v) (n=%d, element %d, offset %d): AVX-512 %v (%#08x), AVX2 %v (%#08x)",
							k.name, x[i], n, i, off, out[i], math.Float32bits(out[i]), want[i], math.Float32bits(want[i]))
					}
				}
				for i, v := range buf {
					if (i < off || i >= off+n) && v != guard {
						t.Errorf("%s, n=%d offset %d: wrote element %d of the buffer", k.name, n, off, i)
					}
				}
			}
		}
		for i := 0; i < len(activationSpecials); i += 16 {
			check(activationSpecials[i:min(i+16, len(activationSpecials))])
		}
		for n := 0; n <= 40; n++ {
			for range 8 {
				x := make([]float32, n)
				for i := range x {
					x[i] = randomActivationInput(rng)
				}
				check(x)
			}
		}
	}
}

// TestExpShiftAVX512MatchesAVX2 checks that expShiftAVX512 gives
// expShiftAVX2's bits and, to 1e-12 relative, its sum, as
// TestActivationAVX512MatchesAVX2 does the activations.
func TestExpShiftAVX512MatchesAVX2(t *testing.T) {
	if !cpuHasAVX512 {
		t.Skip("the CPU has no AVX-512")
	}
	const guard = 3.5
	rng := rand.New(rand.NewPCG(13, 13))
	check := func(x []float32, shift float64) {
		t.Helper()
		n := len(x)
		want := make([]float32, n)
		var wantSum float64
		if n > 0 {
			wantSum = expShiftAVX2(&want[0], &x[0], n, shift)
		}
		for off := range 4 {
			buf := make([]float32, off+n+17)
			for i := range buf {
				buf[i] = guard
			}
			out := buf[off : off+n]
			var sum float64
			if n > 0 {
				sum = expShiftAVX512(&out[0], &x[0], n, shift)
			}
			for i := range n {
				if !sameF32Bits(out[i], want[i]) {
					t.Errorf("e^(%v - %v) (n=%d, element %d, offset %d): AVX-512 %v (%#08x), AVX2 %v (%#08x)",
						x[i], shift, n, i, off, out[i], math.Float32bits(out[i]), want[i], math.Float32bits(want[i]))
				}
			}
			if !(sum == wantSum || math.Abs(sum-wantSum) <= 1e-12*math.Abs(wantSum) || sum != sum && wantSum != wantSum) {
				t.Errorf("n=%d shift %v offset %d: sum %v, AVX2 %v", n, shift, off, sum, wantSum)
			}
			for i, v := range buf {
				if (i < off || i >= off+n) && v != guard {
					t.Errorf("n=%d shift %v offset %d: wrote element %d of the buffer", n, shift, off, i)
				}
			}
		}
	}
	for _, shift := range expShiftShifts {
		for i := 0; i < len(activationSpecials); i += 16 {
			check(activationSpecials[i:min(i+16, len(activationSpecials))], shift)
		}
		for n := 0; n <= 40; n++ {
			for range 4 {
				x := make([]float32, n)
				for i := range x {
					x[i] = randomActivationInput(rng)
				}
				check(x, shift)
			}
		}
	}
}

// TestActivationAVX512MatchesAVX2Exhaustive compares the AVX-512 and AVX2
// kernels on every float32 input (and expShift with each of a few shifts),
// which takes about 25 s per kernel on one Sapphire Rapids core, 3½
// minutes in all; it runs only with FXGEN_EXHAUSTIVE=1 in the
// environment.
func TestActivationAVX512MatchesAVX2Exhaustive(t *testing.T) {
	if os.Getenv("FXGEN_EXHAUSTIVE") != "1" {
		t.Skip("set FXGEN_EXHAUSTIVE=1 to compare every float32 input")
	}
	if !cpuHasAVX512 {
		t.Skip("the CPU has no AVX-512")
	}
	const block = 1 << 16
	x := make([]float32, block)
	want, got := make([]float32, block), make([]float32, block)
	// sweep calls f on x set to each block of 2^16 consecutive bit
	// patterns and reports the first few mismatches it finds.
	sweep := func(name string, f func()) {
		bad := 0
		for hi := uint32(0); hi < 1<<16; hi++ {
			for i := range x {
				x[i] = math.Float32frombits(hi<<16 | uint32(i))
			}
			f()
			for i := range x {
				if !sameF32Bits(got[i], want[i]) {
					if bad++; bad <= 10 {
						t.Errorf("%s(%v = %#08x): AVX-512 %v (%#08x), AVX2 %v (%#08x)", name, x[i], math.Float32bits(x[i]),
							got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
					}
				}
			}
		}
		t.Logf("%s: %d of 2^32 inputs differ", name, bad)
	}
	for _, k := range f32KernelPairs {
		sweep(k.name, func() {
			k.avx2(&want[0], &x[0], block)
			k.avx512(&got[0], &x[0], block)
		})
	}
	for _, shift := range []float64{0, 12.5, -3.75} {
		sweep("expShift", func() {
			expShiftAVX2(&want[0], &x[0], block, shift)
			expShiftAVX512(&got[0], &x[0], block, shift)
		})
	}
}
