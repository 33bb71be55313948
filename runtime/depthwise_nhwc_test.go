package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestDepthwiseConv2dNHWC checks the channels-last depthwise convolution
// against Conv2d with groups = channels on the same images in NCHW,
// permuted, on every tier and 1–3 workers (the same bits on each): channel
// counts that fill groups of 8 and leave a tail, strides 1 and
// 2, paddings 0 to 2, 3×3, 5×5 and 1×3 filters, every activation, with
// and without bias, a NaN and an infinity in the input.
func TestDepthwiseConv2dNHWC(t *testing.T) { forEachISA(t, testDepthwiseConv2dNHWC) }

func testDepthwiseConv2dNHWC(t *testing.T) {
	splitSmallWork(t)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(81, 82))
	for _, tc := range []struct{ n, c, h, w, kh, kw, s, p int }{
		{2, 40, 7, 7, 3, 3, 1, 1},
		{1, 13, 9, 6, 3, 3, 2, 1},
		{1, 96, 14, 14, 3, 3, 2, 1},
		{3, 8, 5, 11, 5, 5, 1, 2},
		{1, 33, 4, 4, 1, 3, 1, 0},
		{1, 16, 1, 1, 3, 3, 1, 1},
	} {
		x := randArray(r, tc.n, tc.c, tc.h, tc.w)
		x.F32[3] = float32(math.NaN())
		x.F32[len(x.F32)/2] = float32(math.Inf(1))
		w, b := randArray(r, tc.c, 1, tc.kh, tc.kw), randArray(r, tc.c)
		oh, ow := (tc.h+2*tc.p-tc.kh)/tc.s+1, (tc.w+2*tc.p-tc.kw)/tc.s+1
		stride, padding := []int{tc.s}, []int{tc.p}
		xl := NewArray(Float32, tc.n, tc.h, tc.w, tc.c)
		Permute(xl, x, []int{0, 2, 3, 1})
		f := PrepareDepthwiseNHWC(w)
		for act := Activation(ActNone); act <= ActSiLU; act++ {
			for _, bias := range []*Array{nil, b} {
				ref := NewArray(Float32, tc.n, tc.c, oh, ow)
				Conv2dAct(ref, x, w, bias, stride, padding, tc.c, int(act))
				want := NewArray(Float32, tc.n, oh, ow, tc.c)
				Permute(want, ref, []int{0, 2, 3, 1})
				what := fmt.Sprintf("%+v act %d bias %v", tc, act, bias != nil)
				got := convOnWorkers(t, what, []int{tc.n, oh, ow, tc.c}, func(_ int, out *Array) {
					DepthwiseConv2dNHWCPrepared(out, xl, f, bias, stride, padding, int(act))
				})
				if err := closeArrays(got, want, 1e-5); err != nil {
					t.Fatalf("%s: %v (conv2d's)", what, err)
				}
			}
		}
	}
}
