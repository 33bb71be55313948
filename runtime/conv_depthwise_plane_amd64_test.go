//go:build amd64 && !noasm

package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDepthwisePlaneMatchesPerChannel runs the AVX-512 plane kernel and
// the per-channel kernel on the same 3×3 depthwise convolutions with
// stride 1 and padding 1 and requires the same bits: both sum the taps in
// order with FMA from +0 and add the bias last, the plane kernel leaving
// out the taps the other reads as padding zeros. Planes from 1×1 to
// 20×40 (rows shorter and longer than a vector, planes that end inside
// one), 2 to 21 channels from any first channel, bias and ReLU, NaN and
// ±Inf inputs. The input's planes lie between NaNs, which any read
// outside them would carry into the output; guard values after the
// output must survive.
func TestDepthwisePlaneMatchesPerChannel(t *testing.T) {
	if !cpuHasAVX512 {
		t.Skip("no AVX-512")
	}
	prev, _ := SetISA(ISAAVX512)
	defer SetISA(prev)
	r := rand.New(rand.NewPCG(91, 92))
	const guard = -6789.25
	nan := float32(math.NaN())
	for i := range 300 {
		c := 2 + r.IntN(20)
		g := convGeom{n: 1, c: c, o: c, h: 1 + r.IntN(20), w: 1 + r.IntN(40), kh: 3, kw: 3, sh: 1, sw: 1, ph: 1, pw: 1}
		if i < 4 {
			g.h, g.w = []int{1, 1, 4, 7}[i], []int{1, 16, 4, 7}[i]
		}
		g.oh, g.ow, g.p = g.h, g.w, g.h*g.w
		if !depthwisePlaneOK(&g, c) {
			t.Fatalf("%+v: the plane kernel does not take it", g)
		}
		// The planes of channels [lo, hi), with a plane of NaN before and
		// after them.
		lo, hi := r.IntN(c), 0
		hi = lo + 1 + r.IntN(c-lo)
		buf := randArray(r, (c+2)*g.p).F32
		for i := range g.p {
			buf[i], buf[(c+1)*g.p+i] = nan, nan
		}
		x := buf[g.p : (c+1)*g.p]
		x[lo*g.p+r.IntN((hi-lo)*g.p)] = nan
		x[lo*g.p+r.IntN((hi-lo)*g.p)] = float32(math.Inf(-1))
		w := randArray(r, c*9).F32
		var bias []float32
		flags := 0
		if r.IntN(2) == 0 {
			bias = randArray(r, c).F32
			flags |= flagBias
		}
		if r.IntN(2) == 0 {
			flags |= flagReLU
		}
		run := func(plane bool) []float32 {
			out := make([]float32, c*g.p+16)
			for i := range out {
				out[i] = guard
			}
			j := convDepthwiseJob{g: g, x: x, w: w, bias: bias, out: out[:hi*g.p], flags: flags}
			if plane {
				j.channelsPlane(lo, hi)
			} else {
				j.channels(lo, hi)
			}
			for i := hi * g.p; i < len(out); i++ {
				if out[i] != guard {
					t.Fatalf("%+v, channels [%d, %d), plane %v: wrote past the output at +%d", g, lo, hi, plane, i-hi*g.p)
				}
			}
			return out[lo*g.p : hi*g.p]
		}
		want, got := run(false), run(true)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("x [%d %d], channels [%d, %d), flags %d: element %d (channel %d) is %v, per channel %v",
					g.h, g.w, lo, hi, flags, i, lo+i/g.p, got[i], want[i])
			}
		}
	}
}
