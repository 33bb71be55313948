package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestWinogradWorkersAgree checks that a Winograd convolution gives the
// same bits for any number of workers, one image and a batch, and with
// filters transformed by PrepareConv2d or on their first call.
func TestWinogradWorkersAgree(t *testing.T) { forEachISA(t, testWinogradWorkersAgree) }

func testWinogradWorkersAgree(t *testing.T) {
	splitSmallWork(t)
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
		convOnWorkers(t, fmt.Sprintf("%d images", n), []int{n, 24, 11, 13}, func(workers int, got *Array) {
			f := w
			if workers == 3 {
				f = lazy
			}
			Conv2dActPrepared(got, x, f, b, []int{1}, []int{1}, 1, int(ActReLU))
		})
	}
}

// TestWinogradChunksSameBits checks that large images convolved a chunk
// of tile rows at a time (winoChunkRows, here with small chunks) give the
// bits of the whole-image path, on any number of workers, with a last
// chunk shorter than the others, odd output sizes, and an infinite input
// (whose image both paths compute again without Winograd).
func TestWinogradChunksSameBits(t *testing.T) { forEachISA(t, testWinogradChunksSameBits) }

func testWinogradChunksSameBits(t *testing.T) {
	splitSmallWork(t)
	defer SetWorkers(0)
	defer func(v int) { winoChunkBytes = v }(winoChunkBytes)
	r := rand.New(rand.NewPCG(45, 46))
	for _, s := range []struct{ c, o, h, w, n int }{{32, 24, 23, 17, 1}, {32, 40, 30, 30, 2}, {40, 32, 9, 41, 1}} {
		x, wt, b := randArray(r, s.n, s.c, s.h, s.w), randArray(r, s.o, s.c, 3, 3), randArray(r, s.o)
		if s.n == 1 {
			x.F32[len(x.F32)/3] = float32(math.Inf(-1))
		}
		f := PrepareConv2d(wt, []int{1}, []int{1}, 1)
		g := convGeom{c: s.c, o: s.o, h: s.h, w: s.w, kh: 3, kw: 3, sh: 1, sw: 1, ph: 1, pw: 1, oh: s.h, ow: s.w}
		wg := newWinoGeom(&g)
		var whole *Array
		for _, budget := range []int{1 << 40, 64 * (s.c + s.o) * wg.tw, 3 * 64 * (s.c + s.o) * wg.tw} {
			winoChunkBytes = budget
			rows := winoChunkRows(&g, &wg)
			if (budget == 1<<40) != (rows == 0) {
				t.Fatalf("%+v: budget %d gives chunks of %d tile rows", s, budget, rows)
			}
			for _, workers := range []int{1, 2, 3} {
				SetWorkers(workers)
				got := nanArray(s.n, s.o, s.h, s.w)
				Conv2dActPrepared(got, x, f, b, []int{1}, []int{1}, 1, int(ActReLU))
				if whole == nil {
					whole = got
					continue
				}
				if i := sameBits(got.F32, whole.F32); i >= 0 {
					t.Fatalf("%+v, chunks of %d tile rows, %d workers: element %d is %v, whole images %v", s, rows, workers, i, got.F32[i], whole.F32[i])
				}
			}
		}
	}
}

// TestWinogradPays checks where Winograd gives way to the direct kernel:
// only for few tiles against large filters, and only on the AVX-512 tier.
func TestWinogradPays(t *testing.T) { forEachISA(t, testWinogradPays) }

func testWinogradPays(t *testing.T) {
	geom := func(c, hw int) *convGeom {
		return &convGeom{c: c, o: c, h: hw, w: hw, kh: 3, kw: 3, sh: 1, sw: 1, ph: 1, pw: 1, oh: hw, ow: hw, p: hw * hw}
	}
	direct := convDirectOK(geom(512, 7), 1) && currentISA == ISAAVX512
	for _, c := range []struct {
		c, hw, n int
		want     bool
	}{
		{512, 7, 1, !direct}, // 16 tiles, 16.8 MB of filters
		{512, 7, 2, true},    // 32 tiles
		{256, 14, 1, true},   // 49 tiles
		{64, 8, 1, true},     // 16 tiles, 256 KB of filters
	} {
		if got := winogradPays(geom(c.c, c.hw), c.n); got != c.want {
			t.Errorf("%d channels at %d², %d images: winogradPays = %v, want %v", c.c, c.hw, c.n, got, c.want)
		}
	}
}
