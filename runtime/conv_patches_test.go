// This file tests the patch-matrix GEMM path of convolutions.

package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestConvPatchesPack checks the panels pack writes (with the AVX-512
// kernel where the tier has it) against the patch matrix read pixel by
// pixel: output rows of 7 (a panel in two rows), 8 (three), 3 (more than
// three, packed in Go) and 40 (one or two), strides 1 and 2, panels cut
// short at the last pixel, and depths that start mid-way through the taps.
func TestConvPatchesPack(t *testing.T) { forEachISA(t, testConvPatchesPack) }

func testConvPatchesPack(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for _, c := range []struct{ ow, oh, rowStep, taps, mr, i0, mb, p0, kb int }{
		{7, 7, 9, 36, 14, 0, 49, 0, 36},
		{8, 8, 20, 27, 14, 14, 42, 5, 20},
		{3, 9, 5, 18, 14, 0, 27, 0, 18},
		{40, 3, 42, 9, 14, 28, 92, 2, 7},
		{13, 5, 15, 10, 6, 6, 59, 1, 9},
		{4, 9, 6, 12, 6, 0, 36, 0, 12}, // rows of 4 in panels of 6: one, two and three runs
	} {
		xp := make([]float32, (c.oh+3)*c.rowStep+c.taps+64)
		for i := range xp {
			xp[i] = r.Float32()
		}
		offs := make([]int32, c.taps)
		for i := range offs {
			offs[i] = int32(4 * r.IntN(len(xp)-(c.oh-1)*c.rowStep-c.ow))
		}
		pt := convPatches{xp: xp, offs: offs, ow: c.ow, rowStep: c.rowStep}
		panels := (c.mb + c.mr - 1) / c.mr
		got := make([]float32, panels*c.mr*c.kb+8)
		for i := range got {
			got[i] = float32(math.NaN())
		}
		pt.pack(got, c.i0, c.mb, c.p0, c.kb, c.mr)
		for i := 0; i < panels*c.mr; i++ {
			for p := 0; p < c.kb; p++ {
				want := float32(0)
				if i < c.mb {
					q := c.i0 + i
					want = xp[int(offs[c.p0+p])/4+q/c.ow*c.rowStep+q%c.ow]
				}
				if v := got[i/c.mr*c.kb*c.mr+p*c.mr+i%c.mr]; math.Float32bits(v) != math.Float32bits(want) {
					t.Fatalf("%+v: row %d tap %d is %v, want %v", c, i, p, v, want)
				}
			}
		}
		for i, v := range got[panels*c.mr*c.kb:] {
			if !math.IsNaN(float64(v)) {
				t.Fatalf("%+v: guard %d past the panels is %v", c, i, v)
			}
		}
	}
}

// TestConv2dPatchGemmAgainstReference runs the convolutions the patch
// GEMMs take on the AVX2 and AVX-512 tiers (the direct kernel or im2col
// on the portable tier) against the reference loop: output rows of 7, 8, 5 and 28
// pixels, strides 1, 2 and unequal, channels not a multiple of the
// tile's 32, pixels not a multiple of its 14, a batch, 1×1 convolutions
// of small images (one product for the batch), NaN and ±Inf inputs, every
// activation, guard values after the output.
func TestConv2dPatchGemmAgainstReference(t *testing.T) {
	forEachISA(t, testConv2dPatchGemmAgainstReference)
}

func testConv2dPatchGemmAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	for _, k := range []convCase{
		{1, 64, 7, 7, 64, 3, 3, 1, 1, 1, 1, 1, true},    // ResNet-18 layer 4, smaller
		{2, 32, 15, 16, 70, 3, 3, 2, 2, 1, 1, 1, true},  // a downsampling 3×3: rows of 8
		{1, 40, 10, 10, 96, 3, 3, 2, 2, 1, 1, 1, false}, // rows of 5: panels over four rows
		{1, 29, 56, 56, 65, 3, 3, 2, 2, 1, 1, 1, true},  // rows of 28, a last partial channel
		{1, 30, 12, 17, 64, 3, 3, 1, 2, 0, 1, 1, true},  // unequal strides and padding
		{1, 260, 4, 4, 128, 1, 1, 1, 1, 1, 1, 1, false}, // 1×1 with padding, 260 taps
		{1, 8, 20, 20, 64, 5, 7, 1, 1, 2, 3, 1, true},   // a wide kernel
		// 1×1, the pixels of all the images in one product:
		{3, 20, 7, 7, 70, 1, 1, 1, 1, 0, 0, 1, true},   // 7², a last partial channel
		{2, 160, 2, 7, 96, 1, 1, 1, 1, 0, 0, 1, false}, // 14 pixels an image
		{9, 33, 9, 7, 64, 1, 1, 1, 1, 0, 0, 1, true},   // 63 pixels, panels across images
		{9, 8, 7, 7, 1200, 1, 1, 1, 1, 0, 0, 1, true},  // products of 4, 4 and 1 images
	} {
		g := convGeom{c: k.c, o: k.o, kh: k.kh, kw: k.kw, sh: k.sh, sw: k.sw, ph: k.ph, pw: k.pw,
			h: k.h, w: k.w, oh: (k.h+2*k.ph-k.kh)/k.sh + 1, ow: (k.w+2*k.pw-k.kw)/k.sw + 1}
		g.p = g.oh * g.ow
		if isa := CurrentISA(); isa != ISAGeneric && !convPatchGemmOK(&g, 1) && !convPointwisePatchOK(&g, 1) {
			t.Fatalf("%v: the patch GEMM does not take it on the %v tier", k, isa)
		}
		x := randArray(r, k.n, k.c, k.h, k.w)
		x.F32[3] = float32(math.NaN())
		x.F32[len(x.F32)-5] = float32(math.Inf(1))
		checkConvAct(t, r, k, x, randArray(r, k.o, k.c, k.kh, k.kw))
	}
}

// TestConv2dPatchGemmWorkersAgree checks that a patch GEMM split over the
// workers gives the same bits for any number of them.
func TestConv2dPatchGemmWorkersAgree(t *testing.T) {
	forEachISA(t, testConv2dPatchGemmWorkersAgree)
}

func testConv2dPatchGemmWorkersAgree(t *testing.T) {
	splitSmallWork(t)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(35, 36))
	x, w, b := randArray(r, 1, 64, 14, 14), randArray(r, 96, 64, 3, 3), randArray(r, 96)
	f := PrepareConv2d(w, []int{2}, []int{1}, 1)
	convOnWorkers(t, "64→96 stride 2", []int{1, 96, 7, 7}, func(_ int, got *Array) {
		Conv2dActPrepared(got, x, f, b, []int{2}, []int{1}, 1, int(ActReLU))
	})
}

// TestConv2dPatchGemmAllocs checks that the patch GEMMs (and, on the
// portable tier, the paths that stand in for them) allocate nothing once
// warm (a 3×3 stride-2 and a 1×1 convolution), on every tier, for one
// image and a batch (the least of three counts, as a worker parking after a
// collection may allocate).
func TestConv2dPatchGemmAllocs(t *testing.T) { forEachISA(t, testConv2dPatchGemmAllocs) }

func testConv2dPatchGemmAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	r := rand.New(rand.NewPCG(37, 38))
	for _, c := range []struct{ k, s, hw, ohw int }{{3, 2, 14, 7}, {1, 1, 7, 7}} {
		for _, n := range []int{1, 3} {
			x, b := randArray(r, n, 64, c.hw, c.hw), randArray(r, 96)
			stride, pad := []int{c.s}, []int{c.k / 2}
			w := PrepareConv2d(randArray(r, 96, 64, c.k, c.k), stride, pad, 1)
			out := NewArray(Float32, n, 96, c.ohw, c.ohw)
			conv := func() { Conv2dActPrepared(out, x, w, b, stride, pad, 1, int(ActReLU)) }
			conv()
			least := leastAllocs(20, conv)
			if least != 0 {
				t.Errorf("%d×%d kernel, %d images: allocates %v times per call after warm-up", c.k, c.k, n, least)
			}
		}
	}
}
