//go:build amd64 && !noasm

package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDepthwisePlaneMatchesPerChannel runs the plane kernels (AVX-512:
// stride 1 or 2; AVX2: the row kernels, stride 1 with rows of 8 or more,
// stride 2 with even rows of 16 or more) and
// the per-channel kernel on the same 3×3 depthwise convolutions with
// padding 1 and requires the same bits: both sum the taps in order with
// FMA from +0 and add the bias last, the plane kernels leaving out (or
// reading as +0) the taps the other reads as padding zeros. Planes from
// 1×1 to 20×70 (rows shorter and longer than a vector or two, planes that
// end inside one, odd and even sizes), 2 to 21 channels from any first
// channel, bias and ReLU, NaN and ±Inf inputs. The input's planes lie
// between NaNs, which any read outside them would carry into the output;
// guard values after the output must survive.
func TestDepthwisePlaneMatchesPerChannel(t *testing.T) {
	for _, isa := range ISAs() {
		if isa == ISAGeneric {
			continue
		}
		t.Run(isa.String(), func(t *testing.T) {
			prev, _ := SetISA(isa)
			defer SetISA(prev)
			testDepthwisePlaneMatchesPerChannel(t, isa)
		})
	}
}

func testDepthwisePlaneMatchesPerChannel(t *testing.T, isa ISA) {
	r := rand.New(rand.NewPCG(91, 92))
	const guard = -6789.25
	nan := float32(math.NaN())
	for i := range 600 {
		c, s := 2+r.IntN(20), 1+i%2
		g := convGeom{n: 1, c: c, o: c, h: 1 + r.IntN(20), w: 1 + r.IntN(70), kh: 3, kw: 3, sh: s, sw: s, ph: 1, pw: 1}
		if i < 8 {
			g.h, g.w = []int{1, 1, 1, 1, 4, 4, 7, 7}[i], []int{1, 1, 16, 16, 4, 4, 7, 7}[i]
		}
		if isa == ISAAVX2 {
			// The row kernels: stride 1 with rows of 8 and more (8 and 9
			// first), stride 2 with even rows of 16 and more (16 and 18
			// first).
			g.w = 8 + max(0, g.w-8)
			if i < 8 {
				g.w = 8 + i%2 + 8*(s-1)
			}
			if s == 2 {
				g.w = max(16, g.w) &^ 1
			}
		}
		g.oh, g.ow = (g.h-1)/s+1, (g.w-1)/s+1
		g.p = g.oh * g.ow
		if !depthwisePlaneOK(&g, c) {
			t.Fatalf("%+v: the plane kernel does not take it", g)
		}
		in := g.h * g.w
		// The planes of channels [lo, hi), with a plane of NaN before and
		// after them.
		lo, hi := r.IntN(c), 0
		hi = lo + 1 + r.IntN(c-lo)
		buf := randArray(r, (c+2)*in).F32
		for i := range in {
			buf[i], buf[(c+1)*in+i] = nan, nan
		}
		x := buf[in : (c+1)*in]
		x[lo*in+r.IntN((hi-lo)*in)] = nan
		x[lo*in+r.IntN((hi-lo)*in)] = float32(math.Inf(-1))
		w := randArray(r, c*9).F32
		bias, flags := randBiasFlags(r, c)
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
				t.Fatalf("x [%d %d], stride %d, channels [%d, %d), flags %d: element %d (channel %d) is %v, per channel %v",
					g.h, g.w, s, lo, hi, flags, i, lo+i/g.p, got[i], want[i])
			}
		}
	}
}
