package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// dwsepCase is one DepthwiseSeparable test: the block's sizes, its
// activations, and whether it has biases and a residual.
type dwsepCase struct {
	n, c, e, o, h, w int
	stride           int
	act1, act2       Activation
	bias, residual   bool
	band             int // dwsepBandBytes for the case (0: the default)
}

func (k dwsepCase) String() string {
	return fmt.Sprintf("x[%d,%d,%d,%d] %d→%d→%d stride %d act %d,%d bias %v residual %v band bytes %d",
		k.n, k.c, k.h, k.w, k.c, k.e, k.o, k.stride, k.act1, k.act2, k.bias, k.residual, k.band)
}

// dwsepArgs are a case's random operands.
type dwsepArgs struct{ x, w1, b1, wd, bd, w2, b2, res *Array }

func newDwsepArgs(r *rand.Rand, k dwsepCase) dwsepArgs {
	a := dwsepArgs{x: randArray(r, k.n, k.c, k.h, k.w), w1: randArray(r, k.e, k.c, 1, 1),
		wd: randArray(r, k.e, 1, 3, 3), w2: randArray(r, k.o, k.e, 1, 1)}
	if k.bias {
		a.b1, a.bd, a.b2 = randArray(r, k.e), randArray(r, k.e), randArray(r, k.o)
	}
	if k.residual {
		a.res = randArray(r, k.n, k.o, (k.h-1)/k.stride+1, (k.w-1)/k.stride+1)
	}
	return a
}

// ref is the block as three reference convolutions.
func (a dwsepArgs) ref(k dwsepCase) *Array {
	d := NewArray(Float32, k.n, k.e, (k.h-1)/k.stride+1, (k.w-1)/k.stride+1)
	if k.e > 0 { // groups = E
		e := actRef(convRef(a.x, a.w1, a.b1, 1, 1, 0, 0, 1), int(k.act1))
		d = actRef(convRef(e, a.wd, a.bd, k.stride, k.stride, 1, 1, k.e), int(k.act2))
	}
	out := convRef(d, a.w2, a.b2, 1, 1, 0, 0, 1)
	if a.res != nil {
		for i, v := range a.res.F32 {
			out.F32[i] += v
		}
	}
	return out
}

func (a dwsepArgs) run(out *Array, k dwsepCase) {
	DepthwiseSeparable(out, a.x, a.w1, a.b1, a.wd, a.bd, a.w2, a.b2, a.res, k.stride, int(k.act1), int(k.act2))
}

// dwsepCases cover rows narrower than the AVX2 kernel's eight floats and
// wider, bands of 2 and 3 rows with a short last band, one band for the
// whole image, images split in two parts at batch 1, every activation,
// and blocks with and without biases and a residual.
var dwsepCases = []dwsepCase{
	{1, 3, 16, 5, 9, 8, 1, ActReLU, ActReLU, true, false, 0},
	{2, 4, 24, 6, 13, 10, 1, ActReLU6, ActNone, true, true, 24 * 10 * 4 * 2},
	{1, 8, 16, 8, 17, 9, 1, ActSiLU, ActReLU6, false, true, 16 * 9 * 4 * 3},
	{3, 5, 12, 7, 7, 5, 1, ActNone, ActGELU, true, false, 12 * 5 * 4 * 2},
	{1, 6, 8, 4, 1, 16, 1, ActReLU, ActReLU, true, true, 0},
	{1, 2, 8, 3, 12, 1, 1, ActReLU, ActSiLU, true, false, 8 * 4 * 2},
	{2, 24, 40, 24, 11, 24, 1, ActReLU, ActReLU, true, true, 40 * 24 * 4 * 2},
	// Stride 2: rows of 16 and 20 (the AVX2 phase kernel) with bands of
	// one, two and three output rows, odd and even heights; rows of 9
	// and 14 (the Go loop); one row.
	{1, 4, 16, 6, 9, 16, 2, ActReLU, ActReLU, true, false, 16 * 16 * 4 * 2},
	{2, 5, 24, 8, 14, 20, 2, ActReLU6, ActSiLU, true, true, 24 * 20 * 4 * 4},
	{1, 3, 8, 5, 23, 16, 2, ActNone, ActReLU, false, true, 8 * 16 * 4 * 6},
	{2, 4, 12, 4, 10, 9, 2, ActSiLU, ActReLU6, true, false, 12 * 9 * 4 * 4},
	{1, 4, 12, 4, 11, 14, 2, ActReLU, ActNone, true, true, 0},
	{1, 4, 8, 4, 1, 32, 2, ActReLU, ActReLU, true, false, 0},
	// No input channels; no expanded channels (the convolutions' own
	// kernels).
	{2, 0, 8, 3, 5, 9, 1, ActReLU, ActSiLU, true, true, 0},
	{1, 4, 0, 3, 6, 8, 2, ActReLU, ActReLU, true, true, 0},
}

func withDwsepBand(bytes int, f func()) {
	if bytes == 0 {
		f()
		return
	}
	old := dwsepBandBytes
	dwsepBandBytes = bytes
	defer func() { dwsepBandBytes = old }()
	f()
}

// TestDepthwiseSeparableAgainstReference checks the banded block against
// the three reference convolutions, every element written (out starts as
// NaN, the band buffers too).
func TestDepthwiseSeparableAgainstReference(t *testing.T) {
	forEachISA(t, testDepthwiseSeparableAgainstReference)
}

func testDepthwiseSeparableAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, k := range dwsepCases {
		a := newDwsepArgs(r, k)
		want := a.ref(k)
		got := nanArray(want.Shape...)
		poisonConvScratch()
		withDwsepBand(k.band, func() { a.run(got, k) })
		// float32 sums of C, 9 and E terms against float64 references.
		if err := closeArrays(got, want, 1e-4); err != nil {
			t.Fatalf("%v: %v", k, err)
		}
	}
}

// TestDepthwiseSeparableNaNInf checks that a NaN and an Inf in the input
// reach the outputs they reach through the three convolutions.
func TestDepthwiseSeparableNaNInf(t *testing.T) { forEachISA(t, testDepthwiseSeparableNaNInf) }

func testDepthwiseSeparableNaNInf(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	k := dwsepCase{1, 4, 16, 4, 12, 12, 1, ActNone, ActNone, true, false, 16 * 12 * 4 * 3}
	a := newDwsepArgs(r, k)
	a.x.F32[3*12+5] = float32(math.NaN())
	a.x.F32[2*144+9*12+11] = float32(math.Inf(1))
	want := a.ref(k)
	got := nanArray(want.Shape...)
	withDwsepBand(k.band, func() { a.run(got, k) })
	if err := closeArrays(got, want, 1e-4); err != nil {
		t.Fatal(err)
	}
}

// TestDepthwiseSeparableWorkersAgree checks that the same bits come out
// for 1, 2 and 3 workers: a batch of images, and one image in two parts.
func TestDepthwiseSeparableWorkersAgree(t *testing.T) {
	forEachISA(t, testDepthwiseSeparableWorkersAgree)
}

func testDepthwiseSeparableWorkersAgree(t *testing.T) {
	splitSmallWork(t)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(15, 16))
	for _, k := range []dwsepCase{
		{3, 8, 24, 8, 10, 12, 1, ActReLU, ActReLU, true, true, 0},
		{1, 8, 24, 8, 21, 12, 1, ActReLU6, ActReLU, true, false, 24 * 12 * 4 * 2},
		{1, 8, 24, 8, 33, 16, 2, ActReLU, ActReLU6, true, true, 24 * 16 * 4 * 2},
	} {
		a := newDwsepArgs(r, k)
		withDwsepBand(k.band, func() {
			first := convOnWorkers(t, k.String(), []int{k.n, k.o, (k.h-1)/k.stride + 1, (k.w-1)/k.stride + 1}, func(_ int, out *Array) { a.run(out, k) })
			if err := closeArrays(first, a.ref(k), 1e-4); err != nil {
				t.Fatalf("%v: %v", k, err)
			}
		})
	}
}

// TestDepthwiseSeparablePanics checks the shape checks.
func TestDepthwiseSeparablePanics(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	k := dwsepCase{1, 4, 8, 2, 5, 5, 1, ActReLU, ActReLU, true, true, 0}
	a := newDwsepArgs(r, k)
	out := NewArray(Float32, 1, 2, 5, 5)
	for _, c := range []struct {
		what string
		call func()
	}{
		{"got shape [1 3 5 5], want [1 2 5 5]", func() {
			DepthwiseSeparable(NewArray(Float32, 1, 3, 5, 5), a.x, a.w1, a.b1, a.wd, a.bd, a.w2, a.b2, a.res, 1, 1, 1)
		}},
		{"weights", func() { DepthwiseSeparable(out, a.x, a.wd, a.b1, a.wd, a.bd, a.w2, a.b2, a.res, 1, 1, 1) }},
		{"weights", func() {
			DepthwiseSeparable(out, a.x, a.w1, a.b1, randArray(r, 8, 1, 5, 5), a.bd, a.w2, a.b2, a.res, 1, 1, 1)
		}},
		{"depthwise bias", func() { DepthwiseSeparable(out, a.x, a.w1, a.b1, a.wd, a.b2, a.w2, a.b2, a.res, 1, 1, 1) }},
		{"residual shape", func() { DepthwiseSeparable(out, a.x, a.w1, a.b1, a.wd, a.bd, a.w2, a.b2, a.x, 1, 1, 1) }},
		{"residual shares memory", func() { DepthwiseSeparable(out, a.x, a.w1, a.b1, a.wd, a.bd, a.w2, a.b2, out, 1, 1, 1) }},
		{"unknown activation", func() { DepthwiseSeparable(out, a.x, a.w1, a.b1, a.wd, a.bd, a.w2, a.b2, a.res, 1, 9, 1) }},
		{"stride 3", func() { DepthwiseSeparable(out, a.x, a.w1, a.b1, a.wd, a.bd, a.w2, a.b2, a.res, 3, 1, 1) }},
	} {
		func() {
			defer func() {
				msg := fmt.Sprint(recover())
				if !strings.Contains(msg, c.what) {
					t.Errorf("panic %q, want one saying %q", msg, c.what)
				}
			}()
			c.call()
		}()
	}
}

// BenchmarkDepthwiseSeparable times the block against its three
// convolutions, one worker, at MobileNetV2's narrow shapes.
func BenchmarkDepthwiseSeparable(b *testing.B) {
	SetWorkers(1)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(19, 20))
	for _, k := range []dwsepCase{
		{8, 32, 96, 24, 112, 112, 1, ActReLU, ActReLU, true, false, 0},
		{8, 24, 144, 24, 56, 56, 1, ActReLU, ActReLU, true, false, 0},
		{8, 32, 192, 32, 28, 28, 1, ActReLU, ActReLU, true, false, 0},
		{8, 16, 96, 24, 112, 112, 2, ActReLU, ActReLU, true, false, 0},
		{8, 24, 144, 32, 56, 56, 2, ActReLU, ActReLU, true, false, 0},
	} {
		a := newDwsepArgs(r, k)
		oh := (k.h-1)/k.stride + 1
		out := NewArray(Float32, k.n, k.o, oh, oh)
		name := fmt.Sprintf("%d→%d→%d@%d²s%d/N=%d", k.c, k.e, k.o, k.h, k.stride, k.n)
		flops := 2 * float64(k.n*k.e) * float64(k.h*k.w*k.c+oh*oh*(9+k.o))
		b.Run(name+"/banded", func(b *testing.B) {
			for b.Loop() {
				a.run(out, k)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		one, zero, st := []int{1}, []int{0}, []int{k.stride}
		p1, pd, p2 := PrepareConv2d(a.w1, one, zero, 1), PrepareConv2d(a.wd, st, one, k.e), PrepareConv2d(a.w2, one, zero, 1)
		e, d := NewArray(Float32, k.n, k.e, k.h, k.w), NewArray(Float32, k.n, k.e, oh, oh)
		b.Run(name+"/layers", func(b *testing.B) {
			for b.Loop() {
				Conv2dActPrepared(e, a.x, p1, a.b1, one, zero, 1, int(k.act1))
				Conv2dActPrepared(d, e, pd, a.bd, st, one, k.e, int(k.act2))
				Conv2dPrepared(out, d, p2, a.b2, one, zero, 1)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// TestDepthwiseSeparableAllocs checks that a call allocates nothing once
// the pools are warm on one worker; split over two, a pooled buffer may
// move between the workers' goroutines and be made again, once a call at
// most.
func TestDepthwiseSeparableAllocs(t *testing.T) { forEachISA(t, testDepthwiseSeparableAllocs) }

func testDepthwiseSeparableAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	splitSmallWork(t)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(27, 28))
	for _, workers := range []int{1, 2} {
		SetWorkers(workers)
		for _, k := range dwsepCases {
			if k.c == 0 || k.e == 0 {
				continue // the convolutions' own kernels, intermediates allocated
			}
			a := newDwsepArgs(r, k)
			out := NewArray(Float32, k.n, k.o, (k.h-1)/k.stride+1, (k.w-1)/k.stride+1)
			withDwsepBand(k.band, func() {
				a.run(out, k) // warm up the pools
				if n := leastAllocs(10, func() { a.run(out, k) }); n > float64(workers-1) {
					t.Errorf("%v, %d workers: %v allocations a call, want at most %d", k, workers, n, workers-1)
				}
			})
		}
	}
}
