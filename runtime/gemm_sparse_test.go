package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// TestSparseRowsMatchTiles checks that the sparse rows give the bits the
// tiles give, for every share of zeros, with NaN, ±Inf and -0 among A's
// elements, every epilogue, depths of several blocks and sub-blocks, and
// columns past the last whole group; and that B holding a non-finite
// element keeps the tiles (0·Inf is NaN).
func TestSparseRowsMatchTiles(t *testing.T) { forEachISA(t, testSparseRowsMatchTiles) }

func testSparseRowsMatchTiles(t *testing.T) {
	base := selectedKernel
	kern := *base
	var calls atomic.Int64     // the kernel's calls, from any worker
	var pairCalls atomic.Int64 // those for pairs of rows
	if base.sparse != nil {
		sk := *base.sparse
		rows := sk.rows
		sk.rows = func(a []float32, lda, m, n int, b []float32, pstride int, acc []float32, idx []int32, idxStride int, counts []int32, countStride int, c []float32, ldc int, beta float32, bias []float32, flags int) {
			calls.Add(1)
			rows(a, lda, m, n, b, pstride, acc, idx, idxStride, counts, countStride, c, ldc, beta, bias, flags)
		}
		if pairs := sk.rowsPairs; pairs != nil {
			sk.rowsPairs = func(a []float32, lda, m, n int, b []float32, pstride int, acc []float32, idx []int32, idxStride int, counts []int32, countStride int, c []float32, ldc int, beta float32, bias []float32, flags int) {
				calls.Add(1)
				pairCalls.Add(1)
				pairs(a, lda, m, n, b, pstride, acc, idx, idxStride, counts, countStride, c, ldc, beta, bias, flags)
			}
		}
		kern.sparse = &sk
	}
	// The same product with the sparse rows forced and forbidden.
	// On one worker, or on two (which split the columns, so fewer of
	// each worker's are whole groups); with the kernel's depth of the
	// sub-blocks, and with 16, so that every block has several and the
	// sums go through acc (sparseAccIn, sparseAccOut) on every tier.
	depth := 0
	if kern.sparse != nil {
		depth = kern.sparse.depth
	}
	run := func(minZeros float64, workers int, pb *PackedB, a *matrix, c *matrix, bias []float32, beta float32, act Activation) *matrix {
		saved := Workers()
		defer SetWorkers(saved)
		SetWorkers(workers)
		if kern.sparse != nil {
			kern.sparse.minZeros = minZeros
			kern.sparse.depth = depth
		}
		out := c.clone()
		withKernel(&kern, func() {
			SgemmPackedEpilogue(a.rows, 1, a.data(), a.ld, pb, beta, out.data(), out.ld, bias, act)
		})
		return out
	}
	rng := rand.New(rand.NewPCG(21, 22))
	for _, s := range [][3]int{{7, 64, 96}, {13, 200, 200}, {40, 800, 300}, {5, 70, 192}, {150, 130, 97}, {3, 1, 96}, {2, 9, 500}, {9, 100, 95}, {40, 300, 600}, {30, 64, 512}} {
		m, k, n := s[0], s[1], s[2]
		for _, zeros := range []float64{0.5, 0.95, 1} {
			for _, special := range []bool{false, true} {
				for _, act := range []Activation{ActNone, ActReLU, ActGELU} {
					for _, beta := range []float32{0, 0.75} {
						name := fmt.Sprintf("%dx%dx%d/zeros=%v/special=%v/act=%d/beta=%v", m, k, n, zeros, special, act, beta)
						a := newMatrix(rng, m, k, 3)
						for i := range m {
							for p := range k {
								if rng.Float64() < zeros {
									a.set(i, p, float32(math.Copysign(0, rng.Float64()-0.5)))
								}
							}
						}
						if special {
							for _, v := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
								a.set(rng.IntN(m), rng.IntN(k), v)
							}
						}
						b := newMatrix(rng, k, n, 0)
						var pb *PackedB
						withKernel(&kern, func() { pb = PackB(false, k, n, b.data(), b.ld) })
						c := newMatrix(rng, m, n, 2)
						var bias []float32
						if beta != 0 {
							bias = randSlice(rng, n)
						}
						calls.Store(0)
						want := run(2, 1, pb, a, c, bias, beta, act)
						if calls.Load() != 0 {
							t.Fatalf("%s: %d sparse row calls with the sparse rows forbidden", name, calls.Load())
						}
						for _, workers := range []int{1, 2, -16} {
							// -16: one worker, sub-blocks 16 deep.
							if workers < 0 {
								depth, workers = -workers, 1
							}
							calls.Store(0)
							pairCalls.Store(0)
							got := run(0, workers, pb, a, c, bias, beta, act)
							ranDepth := depth
							if kern.sparse != nil {
								depth = base.sparse.depth
							}
							if kern.sparse != nil && n >= kern.sparse.cols && workers == 1 && calls.Load() == 0 &&
								!(special && kern.sparse.finiteA) {
								t.Fatalf("%s: the sparse rows did not run", name)
							}
							if kern.sparse != nil && kern.sparse.rowsPairs != nil && n >= kern.sparse.cols && workers == 1 && m >= 2 && pairCalls.Load() == 0 {
								t.Fatalf("%s: no pairs of rows ran", name)
							}
							got.checkGuards(t, name)
							for idx, w := range want.buf {
								if math.Float32bits(got.buf[idx]) != math.Float32bits(w) {
									t.Fatalf("%s, %d workers, depth %d: element %d = %v, the tiles give %v", name, workers, ranDepth, idx, got.buf[idx], w)
								}
							}
						}
					}
				}
			}
		}
	}
	// B with an infinity: 0·Inf is NaN, so the zeros of A count.
	a := newMatrix(rng, 8, 64, 0)
	for p := range 64 {
		a.set(3, p, 0)
	}
	b := newMatrix(rng, 64, 96, 0)
	b.set(10, 5, float32(math.Inf(1)))
	var pb *PackedB
	withKernel(&kern, func() { pb = PackB(false, 64, 96, b.data(), b.ld) })
	c := newMatrix(rng, 8, 96, 0)
	calls.Store(0)
	got := run(0, 1, pb, a, c, nil, 0, ActNone)
	if calls.Load() != 0 {
		t.Errorf("B with an infinity: %d sparse row calls, want 0", calls.Load())
	}
	if v := got.at(3, 5); v == v {
		t.Errorf("B with an infinity: C[3, 5] = %v, want NaN (0·Inf)", v)
	}
}

// TestSparseCountZeros checks each kernel's zero count against a loop,
// over lengths with every tail, with -0, NaN and ±Inf among the values.
func TestSparseCountZeros(t *testing.T) {
	for _, k := range availableKernels() {
		if k.sparse == nil {
			continue
		}
		rng := rand.New(rand.NewPCG(5, 6))
		for n := 0; n < 70; n++ {
			x := make([]float32, n+1)
			for i := range x {
				switch rng.IntN(6) {
				case 0:
					x[i] = 0
				case 1:
					x[i] = float32(math.Copysign(0, -1))
				case 2:
					x[i] = float32(math.NaN())
				case 3:
					x[i] = float32(math.Inf(rng.IntN(2)*2 - 1))
				default:
					x[i] = float32(rng.NormFloat64())
				}
			}
			x[n] = 0 // past the end: not counted
			want := 0
			for _, v := range x[:n] {
				if v == 0 {
					want++
				}
			}
			if got := k.sparse.countZeros(x[:n]); got != want {
				t.Errorf("%s: countZeros of %d elements = %d, want %d", k.name, n, got, want)
			}
		}
	}
}

// TestGemvSparseMatchesRow checks that the m = 1 product's sparse panels
// give the bits of the kernels' gemv rows, for every share of zeros, with
// NaN, ±Inf and -0 in x, depths with every remainder of four, partial last
// panels, every epilogue, and 1 and 2 workers.
func TestGemvSparseMatchesRow(t *testing.T) { forEachISA(t, testGemvSparseMatchesRow) }

func testGemvSparseMatchesRow(t *testing.T) {
	kern := *selectedKernel
	if kern.gemv == nil {
		return
	}
	gv := *kern.gemv
	kern.gemv = &gv
	var calls atomic.Int64 // the kernel's calls, from any worker
	if gv.sparse != nil {
		sparse := gv.sparse
		gv.sparse = func(x []float32, l *gemvLists, b, c []float32, alpha, beta float32, bias []float32, flags int) {
			calls.Add(1)
			sparse(x, l, b, c, alpha, beta, bias, flags)
		}
	}
	run := func(minZeros float64, workers int, pb *PackedB, x []float32, c *matrix, bias []float32, alpha, beta float32, act Activation) *matrix {
		saved := Workers()
		defer SetWorkers(saved)
		SetWorkers(workers)
		gv.sparseMinZeros = minZeros
		out := c.clone()
		withKernel(&kern, func() {
			SgemmPackedEpilogue(1, alpha, x, len(x), pb, beta, out.data(), out.ld, bias, act)
		})
		return out
	}
	rng := rand.New(rand.NewPCG(31, 32))
	for _, k := range []int{1, 2, 3, 4, 5, 7, 9, 64, 101, 512} {
		for _, n := range []int{16, 32, 100, 512} {
			for _, zeros := range []float64{0.5, 0.95, 1} {
				for _, act := range []Activation{ActNone, ActReLU, ActGELU} {
					for _, beta := range []float32{0, 0.75} {
						name := fmt.Sprintf("k=%d/n=%d/zeros=%v/act=%d/beta=%v", k, n, zeros, act, beta)
						x := randSlice(rng, k)
						for p := range x {
							if rng.Float64() < zeros {
								x[p] = float32(math.Copysign(0, rng.Float64()-0.5))
							}
						}
						if k > 8 && zeros < 1 {
							x[rng.IntN(k)] = float32(math.NaN())
							x[rng.IntN(k)] = float32(math.Inf(1))
						}
						b := newMatrix(rng, k, n, 0)
						var pb *PackedB
						withKernel(&kern, func() { pb = PackB(false, k, n, b.data(), b.ld) })
						c := newMatrix(rng, 1, n, 3)
						var bias []float32
						if beta != 0 {
							bias = randSlice(rng, n)
						}
						calls.Store(0)
						want := run(2, 1, pb, x, c, bias, 1.5, beta, act)
						if calls.Load() != 0 {
							t.Fatalf("%s: %d sparse panels with them forbidden", name, calls.Load())
						}
						for _, workers := range []int{1, 2} {
							got := run(0, workers, pb, x, c, bias, 1.5, beta, act)
							if gv.sparse != nil && n >= kern.nr && workers == 1 && calls.Load() == 0 {
								t.Fatalf("%s: the sparse panels did not run", name)
							}
							got.checkGuards(t, name)
							for idx, w := range want.buf {
								if math.Float32bits(got.buf[idx]) != math.Float32bits(w) {
									t.Fatalf("%s, %d workers: element %d = %v, the gemv rows give %v", name, workers, idx, got.buf[idx], w)
								}
							}
						}
					}
				}
			}
		}
	}
}
