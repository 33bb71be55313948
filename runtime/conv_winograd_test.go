package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWinogradWorkersAgree checks that a Winograd convolution gives the
// same bits for any number of workers, one image and a batch, and with
// filters transformed by PrepareConv2d or on their first call.
func TestWinogradWorkersAgree(t *testing.T) { forEachISA(t, testWinogradWorkersAgree) }

func testWinogradWorkersAgree(t *testing.T) {
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
