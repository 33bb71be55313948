//go:build amd64 && !noasm

package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDepthwise8MatchesPerChannel runs the interleaved depthwise path and
// the per-channel kernel on the same images and requires the same bits:
// both sum the taps in order with FMA and add the bias last. The cases
// cover channel counts around multiples of eight (a last block of 1 to 7
// channels), rows under and over 8 pixels (up to 40) and not multiples
// of 8, strides 1 to 3, every kernel size up to 5×5 with and without
// padding, bias and ReLU, and NaN and ±Inf inputs; guard values after
// each image's output must survive. The kernels are the AVX2 and AVX-512
// tiers'; the portable tier's depthwise loops are held to the reference
// by TestConv2dDepthwiseAgainstReference.
func TestDepthwise8MatchesPerChannel(t *testing.T) {
	if !hasAVX2FMA {
		t.Skip("no AVX2")
	}
	r := rand.New(rand.NewPCG(81, 82))
	const guard = -6789.25
	for _, c := range []int{1, 3, 8, 9, 16, 21, 40} {
		for i := range 24 {
			// Half the cases with stride 1 (one kernel call over all the
			// rows), half with strides up to 3 (a call per row).
			sh, sw := 1, 1
			if i%2 == 1 {
				sh, sw = 1+r.IntN(3), 1+r.IntN(3)
			}
			g := convGeom{n: 1, c: c, o: c, h: 1 + r.IntN(14), w: 1 + r.IntN(40),
				kh: 1 + r.IntN(5), kw: 1 + r.IntN(5), sh: sh, sw: sw, ph: r.IntN(3), pw: r.IntN(3)}
			if g.h+2*g.ph < g.kh || g.w+2*g.pw < g.kw || g.kh < g.sh || g.kw < g.sw {
				continue
			}
			g.oh, g.ow = (g.h+2*g.ph-g.kh)/g.sh+1, (g.w+2*g.pw-g.kw)/g.sw+1
			g.p = g.oh * g.ow
			x := randArray(r, c*g.h*g.w).F32
			x[r.IntN(len(x))] = float32(math.NaN())
			x[r.IntN(len(x))] = float32(math.Inf(-1))
			w := randArray(r, c*g.kh*g.kw).F32
			bias, flags := randBiasFlags(r, c)
			run := func(interleaved bool) []float32 {
				buf := make([]float32, c*g.p+16)
				for i := range buf {
					buf[i] = guard
				}
				j := convDepthwiseJob{g: g, x: x, w: w, bias: bias, out: buf[:c*g.p], flags: flags}
				if interleaved {
					j.w8, j.bias8 = interleaveDepthwise8Params(make([]float32, depthwise8ParamSize(&g)), &g, w, bias)
					j.channels8(0, (c+7)/8)
				} else {
					j.channels(0, c)
				}
				for i := c * g.p; i < len(buf); i++ {
					if buf[i] != guard {
						t.Fatalf("c %d, %+v, interleaved %v: wrote past the output at +%d", c, g, interleaved, i-c*g.p)
					}
				}
				return buf[:c*g.p]
			}
			want, got := run(false), run(true)
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("c %d, x [%d %d] k [%d %d] stride [%d %d] pad [%d %d] flags %d: element %d (channel %d) is %v, per channel %v",
						c, g.h, g.w, g.kh, g.kw, g.sh, g.sw, g.ph, g.pw, flags, i, i/g.p, got[i], want[i])
				}
			}
		}
	}
}

// randBiasFlags returns, at random, a bias for c channels (or nil) and
// the kernel flags for it and for a ReLU or none.
func randBiasFlags(r *rand.Rand, c int) (bias []float32, flags int) {
	if r.IntN(2) == 0 {
		bias = randArray(r, c).F32
		flags |= flagBias
	}
	if r.IntN(2) == 0 {
		flags |= flagReLU
	}
	return bias, flags
}
