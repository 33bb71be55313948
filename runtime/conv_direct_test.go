// This file tests the direct convolution path against the reference loop.

package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestConv2dDirectAgainstReference runs convolutions with one group and
// at least six output channels (the shapes the direct kernel takes on the
// AVX2 and AVX-512 tiers, in blocks of 6 channels by one row and of 8 by
// two rows or four half rows; im2col elsewhere) against the reference
// loop: narrow and
// wide images (blocks of two rows of 8 pixels and of 16 pixels of one
// row), strides 1 to 3 in each dimension, partial blocks of channels and
// pixels, padding wider than the kernel, ReLU fused or not, NaN and ±Inf
// inputs, and guard values after the output.
func TestConv2dDirectAgainstReference(t *testing.T) {
	forEachISA(t, testConv2dDirectAgainstReference)
}

func testConv2dDirectAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	cases := []convCase{
		{1, 16, 32, 32, 16, 3, 3, 1, 1, 1, 1, 1, true},  // resnet20, 16-pixel blocks
		{2, 64, 8, 8, 64, 3, 3, 1, 1, 1, 1, 1, false},   // resnet20, two rows of 8
		{1, 8, 7, 7, 12, 3, 3, 1, 1, 1, 1, 1, true},     // odd rows: a last row alone
		{1, 5, 14, 14, 7, 3, 3, 1, 1, 1, 1, 1, true},    // 14 wide: one partial block
		{1, 3, 9, 30, 6, 1, 1, 1, 1, 0, 0, 1, false},    // 1×1 with six channels
		{1, 2, 5, 40, 11, 5, 2, 1, 1, 3, 0, 1, true},    // padding beyond the kernel
		{1, 1, 1, 1, 6, 1, 1, 1, 1, 0, 0, 1, false},     // one pixel
		{1, 4, 12, 11, 9, 4, 3, 1, 1, 2, 1, 1, true},    // even kernel, 11 wide
		{1, 3, 45, 45, 8, 7, 7, 2, 2, 3, 3, 1, false},   // a ResNet stem
		{2, 16, 32, 32, 32, 3, 3, 2, 2, 1, 1, 1, true},  // a downsampling 3×3
		{1, 16, 32, 32, 32, 1, 1, 2, 2, 0, 0, 1, false}, // a 1×1 downsample of few channels (direct)
		{1, 40, 12, 12, 24, 1, 1, 2, 2, 0, 0, 1, true},  // a 1×1 downsample of more (im2col)
		{1, 6, 15, 17, 7, 3, 3, 3, 2, 1, 2, 1, true},    // unequal strides
		{1, 2, 5, 150, 6, 3, 3, 1, 1, 1, 2, 1, true},    // rows long enough to clear only their borders
		{1, 2, 6, 141, 7, 3, 5, 2, 2, 2, 3, 1, false},   // the same with two phases
		{1, 64, 45, 45, 13, 3, 3, 1, 1, 1, 1, 1, true},  // an image larger than L2
		{1, 512, 19, 11, 8, 3, 3, 1, 1, 1, 1, 1, false}, // pairs of rows, many channels
		{1, 5, 9, 21, 23, 3, 3, 1, 1, 1, 1, 1, true},    // blocks of 8 channels, the last shifted back
		{2, 7, 6, 7, 40, 3, 3, 2, 1, 1, 1, 1, false},    // the same in pairs of rows
		// Winograd with prepared filters (channels in multiples of 8):
		{1, 8, 7, 7, 8, 3, 3, 1, 1, 1, 1, 1, true},     // odd output: half tiles at the edges
		{3, 24, 9, 13, 40, 3, 3, 1, 1, 0, 2, 1, true},  // unequal padding, a batch
		{1, 8, 1, 1, 16, 3, 3, 1, 1, 1, 1, 1, false},   // one pixel
		{1, 16, 10, 21, 8, 3, 3, 1, 1, 2, 0, 1, false}, // padding 2 and 0
		{2, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1, 1, true}, // ResNet-18 layer 1
		{7, 32, 20, 20, 16, 3, 3, 1, 1, 1, 1, 1, true}, // groups of 2 images, the first and last with NaN or -Inf
		{9, 32, 6, 5, 8, 3, 3, 1, 1, 1, 1, 1, false},   // one group of 9 small images
	}
	for range 120 {
		cases = append(cases, convCase{
			n: 1 + r.IntN(2), c: 1 + r.IntN(12), h: 1 + r.IntN(20), w: 1 + r.IntN(40),
			o: 6 + r.IntN(30), kh: 1 + r.IntN(5), kw: 1 + r.IntN(5),
			sh: 1 + r.IntN(3), sw: 1 + r.IntN(3), ph: r.IntN(4), pw: r.IntN(4), groups: 1, bias: r.IntN(2) == 0,
		})
	}
	for _, k := range cases {
		if k.h+2*k.ph < k.kh || k.w+2*k.pw < k.kw {
			continue
		}
		x := randArray(r, k.n, k.c, k.h, k.w)
		if len(x.F32) > 3 {
			x.F32[1] = float32(math.NaN())
			x.F32[len(x.F32)-2] = float32(math.Inf(-1))
		}
		w := randArray(r, k.o, k.c, k.kh, k.kw)
		checkConvAct(t, r, k, x, w)
	}
}

// checkConvAct runs Conv2dAct on case k with input x and weights w (and a
// random bias if k says so), with no activation and with each one, against the
// reference loop, with guard values after the output that must stay; and
// Conv2dResidual likewise, with a random residual (a NaN in it) added
// before the activation.
func checkConvAct(t *testing.T, r *rand.Rand, k convCase, x, w *Array) {
	t.Helper()
	var b *Array
	if k.bias {
		b = randArray(r, k.o)
	}
	want := convRef(x, w, b, k.sh, k.sw, k.ph, k.pw, k.groups)
	res := randArray(r, want.Shape...)
	res.F32[len(res.F32)/2] = float32(math.NaN())
	wantRes := want.Clone()
	for i := range wantRes.F32 {
		wantRes.F32[i] += res.F32[i]
	}
	stride, pad := []int{k.sh, k.sw}, []int{k.ph, k.pw}
	for act := Activation(ActNone); act <= ActSiLU; act++ {
		const guard = 40
		store := make([]float32, len(want.F32)+guard)
		for i := range store {
			store[i] = 777
		}
		for call := range 4 {
			prepared, residual := call%2 == 1, call >= 2
			got := &Array{DType: Float32, Shape: want.Shape, F32: store[:len(want.F32)]}
			poisonConvScratch()
			ref := actRef(want, int(act))
			var name string
			switch {
			case residual && prepared:
				name, ref = "Conv2dResidualPrepared", actRef(wantRes, int(act))
				Conv2dResidualPrepared(got, x, PrepareConv2d(w, stride, pad, k.groups), b, res, stride, pad, k.groups, int(act))
			case residual:
				name, ref = "Conv2dResidual", actRef(wantRes, int(act))
				Conv2dResidual(got, x, w, b, res, stride, pad, k.groups, int(act))
			case prepared:
				name = "Conv2dActPrepared"
				Conv2dActPrepared(got, x, PrepareConv2d(w, stride, pad, k.groups), b, stride, pad, k.groups, int(act))
			default:
				name = "Conv2dAct"
				Conv2dAct(got, x, w, b, stride, pad, k.groups, int(act))
			}
			tol := max(1e-5, 1e-7*float64(k.c/k.groups*k.kh*k.kw))
			if err := closeArrays(got, ref, tol); err != nil {
				t.Fatalf("%s %v act %d: %v", name, k, act, err)
			}
			for i, v := range store[len(want.F32):] {
				if v != 777 {
					t.Fatalf("%s %v: guard value %d past the output is %v", name, k, i, v)
				}
			}
		}
	}
}

// convOnWorkers runs conv into a NaN-filled output of shape with 1, 2 and
// 3 workers and fails unless every run gives the bits of the first, which
// it returns; what names the case in a failure.
func convOnWorkers(t *testing.T, what string, shape []int, conv func(workers int, out *Array)) *Array {
	t.Helper()
	var first *Array
	for _, workers := range []int{1, 2, 3} {
		SetWorkers(workers)
		got := nanArray(shape...)
		conv(workers, got)
		if first == nil {
			first = got
			continue
		}
		if i := sameBits(got.F32, first.F32); i >= 0 {
			t.Fatalf("%s, workers %d: element %d is %v, with 1 worker %v", what, workers, i, got.F32[i], first.F32[i])
		}
	}
	return first
}

// TestConv2dDirectWorkersAgree checks that a stride-1 convolution of one
// image, split over the workers by blocks, gives the same bits for any
// number of workers.
func TestConv2dDirectWorkersAgree(t *testing.T) { forEachISA(t, testConv2dDirectWorkersAgree) }

func testConv2dDirectWorkersAgree(t *testing.T) {
	splitSmallWork(t)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(23, 24))
	for _, hw := range []int{9, 20} {
		x, w, b := randArray(r, 1, 24, hw, hw), randArray(r, 20, 24, 3, 3), randArray(r, 20)
		convOnWorkers(t, fmt.Sprintf("%d×%d", hw, hw), []int{1, 20, hw, hw}, func(_ int, got *Array) {
			Conv2d(got, x, w, b, []int{1}, []int{1}, 1)
		})
	}
}

// TestConv2dDepthwiseAgainstReference runs depthwise convolutions (groups
// = channels, one filter each; the depthwise kernel on the AVX2 tier)
// against the reference loop: MobileNet's 3×3 at strides 1 and 2, larger
// and rectangular kernels, partial blocks of rows and pixels, ReLU fused
// or not, NaN and ±Inf inputs, and guard values after the output.
func TestConv2dDepthwiseAgainstReference(t *testing.T) {
	forEachISA(t, testConv2dDepthwiseAgainstReference)
}

func testConv2dDepthwiseAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	cases := []convCase{
		{1, 32, 28, 28, 32, 3, 3, 1, 1, 1, 1, 32, true},
		{2, 16, 14, 14, 16, 3, 3, 2, 2, 1, 1, 16, false},
		{1, 8, 7, 7, 8, 3, 3, 1, 1, 1, 1, 8, true},
		{1, 4, 9, 33, 4, 5, 5, 1, 1, 2, 2, 4, false},
		{1, 3, 11, 6, 3, 2, 4, 1, 3, 0, 2, 3, true},
		{1, 2, 6, 147, 2, 3, 3, 2, 2, 1, 1, 2, true}, // rows long enough to clear only their borders
	}
	for range 80 {
		c := 2 + r.IntN(10)
		cases = append(cases, convCase{
			n: 1 + r.IntN(2), c: c, h: 1 + r.IntN(20), w: 1 + r.IntN(40), o: c,
			kh: 1 + r.IntN(5), kw: 1 + r.IntN(5), sh: 1 + r.IntN(3), sw: 1 + r.IntN(3),
			ph: r.IntN(3), pw: r.IntN(3), groups: c, bias: r.IntN(2) == 0,
		})
	}
	for _, k := range cases {
		if k.h+2*k.ph < k.kh || k.w+2*k.pw < k.kw {
			continue
		}
		x := randArray(r, k.n, k.c, k.h, k.w)
		x.F32[len(x.F32)/2] = float32(math.NaN())
		x.F32[0] = float32(math.Inf(1))
		w := randArray(r, k.o, 1, k.kh, k.kw)
		checkConvAct(t, r, k, x, w)
	}
	// The same bits on any number of workers.
	defer SetWorkers(0)
	x, w, b := randArray(r, 1, 24, 30, 30), randArray(r, 24, 1, 3, 3), randArray(r, 24)
	convOnWorkers(t, "depthwise 30×30", []int{1, 24, 30, 30}, func(_ int, got *Array) {
		Conv2d(got, x, w, b, []int{1}, []int{1}, 24)
	})
}
