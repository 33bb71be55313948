package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// convRef is the reference loop of Conv2d's doc comment.
func convRef(x, w, bias *Array, sh, sw, ph, pw, groups int) *Array {
	n, c, h, wd := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	o, kh, kw := w.Shape[0], w.Shape[2], w.Shape[3]
	oh, ow := (h+2*ph-kh)/sh+1, (wd+2*pw-kw)/sw+1
	cg, og := c/groups, o/groups
	out := NewArray(Float32, n, o, oh, ow)
	for b := 0; b < n; b++ {
		for oc := 0; oc < o; oc++ {
			for i := 0; i < oh; i++ {
				for j := 0; j < ow; j++ {
					var s float64
					if bias != nil {
						s = float64(bias.F32[oc])
					}
					for ci := 0; ci < cg; ci++ {
						for p := 0; p < kh; p++ {
							for q := 0; q < kw; q++ {
								y, z := i*sh-ph+p, j*sw-pw+q
								if y >= 0 && y < h && z >= 0 && z < wd {
									xc := (oc/og)*cg + ci
									s += float64(x.F32[((b*c+xc)*h+y)*wd+z]) * float64(w.F32[((oc*cg+ci)*kh+p)*kw+q])
								}
							}
						}
					}
					out.F32[((b*o+oc)*oh+i)*ow+j] = float32(s)
				}
			}
		}
	}
	return out
}

// closeArrays returns an error naming the first element of got that differs
// from want: floats by more than tol·max(1, |want|) (NaN only matching
// NaN, an infinity only the same infinity), integers and bools at all.
func closeArrays(got, want *Array, tol float64) error {
	if got.DType != want.DType || !equalInts(got.Shape, want.Shape) {
		return fmt.Errorf("got %v%v, want %v%v", got.DType, got.Shape, want.DType, want.Shape)
	}
	for i := 0; i < want.Len(); i++ {
		switch want.DType {
		case Float32:
			g, w := float64(got.F32[i]), float64(want.F32[i])
			if math.IsNaN(g) != math.IsNaN(w) || math.IsInf(w, 0) && g != w || math.Abs(g-w) > tol*math.Max(1, math.Abs(w)) {
				return fmt.Errorf("element %d (index %v): got %v, want %v", i, unravel(i, want.Shape), g, w)
			}
		case Int64:
			if got.I64[i] != want.I64[i] {
				return fmt.Errorf("element %d (index %v): got %d, want %d", i, unravel(i, want.Shape), got.I64[i], want.I64[i])
			}
		case Bool:
			if got.B[i] != want.B[i] {
				return fmt.Errorf("element %d (index %v): got %v, want %v", i, unravel(i, want.Shape), got.B[i], want.B[i])
			}
		}
	}
	return nil
}

// nanArray returns an array of the shape filled with NaN, so that an
// element the kernel fails to write shows.
func nanArray(shape ...int) *Array {
	a := NewArray(Float32, shape...)
	for i := range a.F32 {
		a.F32[i] = float32(math.NaN())
	}
	return a
}

// poisonConvScratch leaves a NaN-filled patch buffer in the pool, so that
// an element im2col fails to write shows.
func poisonConvScratch() {
	p := getConvScratch(1 << 14)
	for i := range *p {
		(*p)[i] = float32(math.NaN())
	}
	convScratch.Put(p)
}

type convCase struct {
	n, c, h, w, o, kh, kw, sh, sw, ph, pw, groups int
	bias                                          bool
}

func (k convCase) String() string {
	return fmt.Sprintf("x[%d,%d,%d,%d] w[%d,%d,%d,%d] stride %d,%d pad %d,%d groups %d bias %v",
		k.n, k.c, k.h, k.w, k.o, k.c/k.groups, k.kh, k.kw, k.sh, k.sw, k.ph, k.pw, k.groups, k.bias)
}

func runConvCase(t *testing.T, r *rand.Rand, k convCase) {
	t.Helper()
	x := randArray(r, k.n, k.c, k.h, k.w)
	w := randArray(r, k.o, k.c/k.groups, k.kh, k.kw)
	var b *Array
	if k.bias {
		b = randArray(r, k.o)
	}
	want := convRef(x, w, b, k.sh, k.sw, k.ph, k.pw, k.groups)
	got := nanArray(want.Shape...)
	poisonConvScratch()
	Conv2d(got, x, w, b, []int{k.sh, k.sw}, []int{k.ph, k.pw}, k.groups)
	// float32 sums of K = C/groups·KH·KW terms against a float64 reference.
	tol := max(1e-5, 1e-7*float64(k.c/k.groups*k.kh*k.kw))
	if err := closeArrays(got, want, tol); err != nil {
		t.Fatalf("Conv2d %v: %v", k, err)
	}
}

func TestConv2dAgainstReference(t *testing.T) { forEachISA(t, testConv2dAgainstReference) }

func testConv2dAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	fixed := []convCase{
		{1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, false},   // smallest
		{2, 3, 5, 5, 4, 1, 1, 1, 1, 0, 0, 1, true},    // 1×1 direct path
		{2, 4, 6, 6, 6, 1, 1, 1, 1, 0, 0, 2, true},    // 1×1 direct path, grouped
		{2, 3, 7, 7, 4, 1, 1, 2, 2, 0, 0, 1, false},   // 1×1 stride 2 (a downsample)
		{1, 3, 8, 8, 5, 3, 3, 1, 1, 1, 1, 1, false},   // 3×3 same padding
		{3, 3, 9, 9, 5, 3, 3, 2, 2, 1, 1, 1, true},    // 3×3 stride 2, odd size
		{1, 3, 11, 13, 4, 7, 7, 2, 2, 3, 3, 1, false}, // a ResNet stem, small
		{1, 2, 4, 4, 3, 5, 5, 1, 1, 2, 2, 1, true},    // kernel larger than the input
		{1, 2, 3, 4, 2, 3, 3, 3, 2, 2, 1, 1, false},   // windows entirely in the padding
		{2, 4, 5, 6, 4, 3, 2, 1, 3, 0, 1, 4, true},    // depthwise, rectangular
		{1, 17, 15, 15, 33, 3, 3, 1, 1, 1, 1, 1, true},
		{1, 64, 16, 16, 16, 3, 3, 1, 1, 1, 1, 1, false}, // parallel im2col
	}
	for _, k := range fixed {
		runConvCase(t, r, k)
	}
	// Again with a kernel whose tiles cannot add a row bias (as the
	// AVX-512 one): out starts as the bias.
	noRowBias := *selectedKernel
	noRowBias.rowBias = false
	withKernel(&noRowBias, func() {
		for _, k := range fixed {
			runConvCase(t, r, k)
		}
	})
	// Again with one output row per chunk of the patch matrix.
	defer func(b int) { convColBudget = b }(convColBudget)
	convColBudget = 1
	for _, k := range fixed {
		runConvCase(t, r, k)
	}
	convColBudget = 1 << 9
	for range 150 {
		groups := 1 + r.IntN(3)
		k := convCase{
			n: 1 + r.IntN(3), c: groups * (1 + r.IntN(4)), h: 1 + r.IntN(10), w: 1 + r.IntN(10),
			o: groups * (1 + r.IntN(5)), kh: 1 + r.IntN(4), kw: 1 + r.IntN(4),
			sh: 1 + r.IntN(3), sw: 1 + r.IntN(3), ph: r.IntN(3), pw: r.IntN(3),
			groups: groups, bias: r.IntN(2) == 0,
		}
		if k.h+2*k.ph < k.kh || k.w+2*k.pw < k.kw {
			continue
		}
		runConvCase(t, r, k)
	}
}

func TestConv2dWorkersAgree(t *testing.T) { forEachISA(t, testConv2dWorkersAgree) }

func testConv2dWorkersAgree(t *testing.T) {
	splitSmallWork(t)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(5, 6))
	// Small images, spread over the workers; then images above
	// convImageParallelFlops, spread over 2 workers (a multiple of them)
	// and each split over 3.
	for _, c := range []struct {
		n, c, hw, o, stride int
		tol                 float64 // against the reference loop, which sums in another order
	}{{2, 32, 20, 48, 2, 1e-5}, {2, 64, 28, 64, 1, 1e-4}} {
		x, w, b := randArray(r, c.n, c.c, c.hw, c.hw), randArray(r, c.o, c.c, 3, 3), randArray(r, c.o)
		ohw := (c.hw+2-3)/c.stride + 1
		first := convOnWorkers(t, fmt.Sprintf("%+v", c), []int{c.n, c.o, ohw, ohw}, func(_ int, got *Array) {
			Conv2d(got, x, w, b, []int{c.stride}, []int{1}, 1)
		})
		if err := closeArrays(first, convRef(x, w, b, c.stride, c.stride, 1, 1, 1), c.tol); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
	}
}

// TestConv2dConcurrent runs convolutions of different sizes at once: the
// pooled patch buffers must not be shared between calls.
func TestConv2dConcurrent(t *testing.T) { forEachISA(t, testConv2dConcurrent) }

func testConv2dConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	type job struct{ x, w, want *Array }
	var jobs []job
	for i := range 8 {
		x, w := randArray(r, 1, 3+i, 9+i, 9), randArray(r, 4, 3+i, 3, 3)
		jobs = append(jobs, job{x, w, convRef(x, w, nil, 1, 1, 1, 1, 1)})
	}
	var wg sync.WaitGroup
	errs := make([]error, len(jobs))
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				got := NewArray(Float32, j.want.Shape...)
				Conv2d(got, j.x, j.w, nil, []int{1, 1}, []int{1, 1}, 1)
				if err := closeArrays(got, j.want, 1e-5); err != nil {
					errs[i] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("job %d: %v", i, err)
		}
	}
}

func TestConv2dChecks(t *testing.T) { forEachISA(t, testConv2dChecks) }

func testConv2dChecks(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	x, w := randArray(r, 1, 4, 5, 5), randArray(r, 6, 4, 3, 3)
	for _, c := range []struct {
		name string
		call func()
	}{
		{"bad out", func() { Conv2d(NewArray(Float32, 1, 6, 5, 5), x, w, nil, []int{1}, []int{0}, 1) }},
		{"bad groups", func() { Conv2d(NewArray(Float32, 1, 6, 3, 3), x, w, nil, []int{1}, []int{0}, 2) }},
		{"zero stride", func() { Conv2d(NewArray(Float32, 1, 6, 3, 3), x, w, nil, []int{0}, []int{0}, 1) }},
		{"three strides", func() { Conv2d(NewArray(Float32, 1, 6, 3, 3), x, w, nil, []int{1, 1, 1}, []int{0}, 1) }},
		{"bad bias", func() { Conv2d(NewArray(Float32, 1, 6, 3, 3), x, w, NewArray(Float32, 5), []int{1}, []int{0}, 1) }},
		{"kernel too big", func() { Conv2d(NewArray(Float32, 1, 6, 1, 1), randArray(r, 1, 4, 2, 2), w, nil, []int{1}, []int{0}, 1) }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Conv2d did not panic", c.name)
				}
			}()
			c.call()
		}()
	}
}

func TestConv2dAllocs(t *testing.T) { forEachISA(t, testConv2dAllocs) }

func testConv2dAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	r := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		name              string
		n, c, h, o, k, pd int
	}{
		{"one image", 1, 8, 12, 8, 3, 1},
		{"images in parallel", 4, 8, 12, 8, 3, 1},
		{"im2col in parallel", 1, 64, 40, 16, 3, 1},
		{"1x1", 2, 8, 12, 8, 1, 0},
	} {
		x, w := randArray(r, c.n, c.c, c.h, c.h), randArray(r, c.o, c.c, c.k, c.k)
		oh := c.h + 2*c.pd - c.k + 1
		out := NewArray(Float32, c.n, c.o, oh, oh)
		stride, pad := []int{1, 1}, []int{c.pd, c.pd}
		Conv2d(out, x, w, nil, stride, pad, 1) // warm up the pools
		// Conv2d makes one Sgemm call per chunk of output rows of each
		// image; only those may allocate.
		kk := c.c * c.k * c.k
		chunks := (kk*oh*oh + convColBudget - 1) / convColBudget
		chunk := (oh + chunks - 1) / chunks
		if c.k == 1 {
			chunk = oh
		}
		calls := float64(c.n * ((oh + chunk - 1) / chunk))
		p := chunk * oh
		col, cc := make([]float32, kk*p), make([]float32, c.o*p)
		gemm := testing.AllocsPerRun(20, func() { Sgemm(false, false, c.o, p, kk, 1, w.F32, kk, col, p, 0, cc, p) })
		if n := testing.AllocsPerRun(20, func() { Conv2d(out, x, w, nil, stride, pad, 1) }); n > calls*gemm {
			t.Errorf("%s: Conv2d allocates %v times per call after warm-up, want at most %v (its %v Sgemm calls)", c.name, n, calls*gemm, calls)
		}
	}
	// With prepared filters, the Winograd path (every tier) allocates
	// nothing once the filters are transformed: one image split over the
	// workers, and a batch, whole or a chunk of tile rows at a time.
	defer func(v int) { winoChunkBytes = v }(winoChunkBytes)
	for _, chunked := range []bool{false, true} {
		g := convGeom{c: 32, o: 16, h: 9, w: 9, kh: 3, kw: 3, sh: 1, sw: 1, oh: 9, ow: 9}
		wg := newWinoGeom(&g)
		if chunked {
			winoChunkBytes = 64 * (g.c + g.o) * wg.tw // a tile row a chunk
		}
		if (winoChunkRows(&g, &wg) > 0) != chunked {
			t.Fatalf("chunked %v: winoChunkRows = %d", chunked, winoChunkRows(&g, &wg))
		}
		for _, n := range []int{1, 4} {
			x, w, b := randArray(r, n, 32, 9, 9), PrepareConv2d(randArray(r, 16, 32, 3, 3), []int{1}, []int{1}, 1), randArray(r, 16)
			out := NewArray(Float32, n, 16, 9, 9)
			conv := func() { Conv2dActPrepared(out, x, w, b, []int{1}, []int{1}, 1, int(ActReLU)) }
			conv()
			least := leastAllocs(20, conv)
			if least != 0 {
				t.Errorf("prepared 3×3, %d images, chunked %v: allocates %v times per call after warm-up", n, chunked, least)
			}
		}
	}
	// Depthwise convolutions call no Sgemm and allocate nothing: small
	// planes (interleaved eight channels at a time on the AVX2 tier) and
	// larger ones, one image and several, stride 1 and 2 (the AVX-512
	// plane kernels' mask tables are made on the first call only). The least of three counts, as a
	// worker parking after a collection may allocate.
	for _, c := range []struct{ n, c, h, s int }{{1, 20, 7, 1}, {3, 16, 14, 1}, {2, 6, 40, 1}, {2, 16, 15, 2}, {2, 16, 32, 2}} {
		x, w, b := randArray(r, c.n, c.c, c.h, c.h), randArray(r, c.c, 1, 3, 3), randArray(r, c.c)
		oh := (c.h-1)/c.s + 1
		out := NewArray(Float32, c.n, c.c, oh, oh)
		conv := func() { Conv2dAct(out, x, w, b, []int{c.s}, []int{1}, c.c, int(ActReLU)) }
		conv()
		least := leastAllocs(20, conv)
		if least != 0 {
			t.Errorf("depthwise x %v stride %d: allocates %v times per call after warm-up", []int{c.n, c.c, c.h, c.h}, c.s, least)
		}
	}
}

func BenchmarkConv2d(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name                           string
		n, c, h, o, k, stride, padding int
		groups                         int // 0: 1
	}{
		{"resnet18-stem/N=1", 1, 3, 224, 64, 7, 2, 3, 0},
		{"resnet18-layer1/N=1", 1, 64, 56, 64, 3, 1, 1, 0},
		{"resnet18-layer4/N=1", 1, 512, 7, 512, 3, 1, 1, 0},
		{"resnet18-layer4/N=8", 8, 512, 7, 512, 3, 1, 1, 0},
		{"resnet20-layer1/N=64", 64, 16, 32, 16, 3, 1, 1, 0},
		{"1x1/N=8", 8, 256, 14, 512, 1, 1, 0, 0},
		// MobileNet-style depthwise 3×3 (the dwsep cells of
		// scripts/vs_pytorch -layers).
		{"depthwise-112/N=1", 1, 96, 112, 96, 3, 1, 1, 96},
		{"depthwise-14/N=8", 8, 576, 14, 576, 3, 1, 1, 576},
		{"depthwise-7/N=8", 8, 960, 7, 960, 3, 1, 1, 960},
	} {
		groups := max(1, c.groups)
		x, w := randArray(r, c.n, c.c, c.h, c.h), randArray(r, c.o, c.c/groups, c.k, c.k)
		oh := (c.h+2*c.padding-c.k)/c.stride + 1
		out := NewArray(Float32, c.n, c.o, oh, oh)
		flops := 2 * float64(c.n*c.o*oh*oh*c.c/groups*c.k*c.k)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Conv2d(out, x, w, nil, []int{c.stride}, []int{c.padding}, groups)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		// With the filters prepared, as compiled models call it: the
		// Winograd path for the 3×3 convolutions with stride 1 and at
		// least 32 channels.
		pw := PrepareConv2d(w, []int{c.stride}, []int{c.padding}, groups)
		b.Run(c.name+"/prepared", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Conv2dPrepared(out, x, pw, nil, []int{c.stride}, []int{c.padding}, groups)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// TestDepthwiseGeometries runs depthwise convolutions (groups = channels)
// over the widths and heights that exercise every store of the depthwise
// kernel (whole, half and partial vectors; 1 to 4 rows per block), with
// and without ReLU, on 1 and 2 workers, into an output followed by guard
// values that must survive.
func TestDepthwiseGeometries(t *testing.T) { forEachISA(t, testDepthwiseGeometries) }

func testDepthwiseGeometries(t *testing.T) {
	splitSmallWork(t)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(9, 10))
	const guard = 12345.5
	for _, ow := range []int{1, 7, 8, 9, 14, 16, 17, 24, 31} {
		for _, oh := range []int{1, 3, 4, 5, 9} {
			for _, geo := range []struct{ k, s, p int }{{3, 1, 1}, {3, 2, 1}, {5, 1, 2}, {3, 1, 0}} {
				h, w := (oh-1)*geo.s+geo.k-2*geo.p, (ow-1)*geo.s+geo.k-2*geo.p
				if h < 1 || w < 1 {
					continue
				}
				c := 2 + r.IntN(5)
				x, wt, b := randArray(r, 1, c, h, w), randArray(r, c, 1, geo.k, geo.k), randArray(r, c)
				want := convRef(x, wt, b, geo.s, geo.s, geo.p, geo.p, c)
				relu := r.IntN(2) == 0
				if relu {
					for i, v := range want.F32 {
						want.F32[i] = max(v, 0)
					}
				}
				SetWorkers(1 + r.IntN(2))
				buf := make([]float32, c*oh*ow+64)
				for i := range buf {
					buf[i] = float32(math.NaN())
				}
				for i := c * oh * ow; i < len(buf); i++ {
					buf[i] = guard
				}
				got := &Array{DType: Float32, Shape: []int{1, c, oh, ow}, F32: buf[:c*oh*ow]}
				act := ActNone
				if relu {
					act = ActReLU
				}
				Conv2dAct(got, x, wt, b, []int{geo.s}, []int{geo.p}, c, int(act))
				if err := closeArrays(got, want, 1e-5); err != nil {
					t.Fatalf("x[1,%d,%d,%d] k %d stride %d pad %d relu %v: %v", c, h, w, geo.k, geo.s, geo.p, relu, err)
				}
				for i := c * oh * ow; i < len(buf); i++ {
					if buf[i] != guard {
						t.Fatalf("x[1,%d,%d,%d] k %d stride %d pad %d: wrote past the output at +%d", c, h, w, geo.k, geo.s, geo.p, i-c*oh*ow)
					}
				}
			}
		}
	}
}
