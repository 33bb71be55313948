package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// TestDotProducts checks narrow products (B packed with 2 to 16 columns)
// against the reference loop on every tier: depths around whole vectors
// of both widths, row counts odd and even around the workers' blocks,
// beta, bias, ReLU, A and C with row strides, and the guards around C
// (which runCase fills with NaN where beta is 0, so that reading it
// shows).
func TestDotProducts(t *testing.T) { forEachISA(t, testDotProducts) }

func testDotProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for n := 2; n <= 16; n++ {
		for _, k := range []int{64, 71, 100, 512} {
			for _, m := range []int{2, 3, 5, 64, 67} {
				for _, tc := range []gemmCase{
					{m: m, n: n, k: k, alpha: 1, transB: true},
					{m: m, n: n, k: k, alpha: 1, beta: 0.3},
					{m: m, n: n, k: k, alpha: 1, beta: 1, bias: true, transB: true},
					{m: m, n: n, k: k, alpha: 1, bias: true, act: ActReLU, transB: true, lda: k + 5},
				} {
					runCase(t, rng, tc, true)
				}
			}
		}
	}
}

// TestDotProductsTakeDots checks that narrow products take the tier's
// dot kernels where PackB stores dot panels, that each row's bits depend
// on that row alone (the same in any position among the rows, so whether
// the AVX-512 kernel pairs it with the one before or after, and for any
// worker count), and that NaN and ±Inf in A reach only their own rows.
func TestDotProductsTakeDots(t *testing.T) { forEachISA(t, testDotProductsTakeDots) }

func testDotProductsTakeDots(t *testing.T) {
	base := selectedKernel
	if base.dots == nil {
		t.Skip("no dot kernels on this tier")
	}
	kern := *base
	dk := *base.dots
	var calls atomic.Int64
	dk.rows = func(n, k int, a []float32, lda, rows int, w, c []float32, ldc int, beta float32, bias []float32, flags int) {
		calls.Add(1)
		base.dots.rows(n, k, a, lda, rows, w, c, ldc, beta, bias, flags)
	}
	kern.dots = &dk
	saved, savedMin := Workers(), parallelMinFlops
	defer func() { SetWorkers(saved); parallelMinFlops = savedMin }()
	parallelMinFlops = 0 // split even small products
	rng := rand.New(rand.NewPCG(33, 34))
	const m, k = 201, 100
	for _, n := range []int{2, 3, dk.maxCols, dk.maxCols + 1} {
		name := fmt.Sprintf("n=%d", n)
		a := randSlice(rng, m*k)
		a[17*k+3] = float32(math.NaN())
		a[40*k+9] = float32(math.Inf(1))
		w := randSlice(rng, n*k)
		bias := randSlice(rng, n)
		var pb *PackedB
		withKernel(&kern, func() { pb = PackB(true, k, n, w, k) })
		product := func(rows int, a []float32, workers int) []float32 {
			SetWorkers(workers)
			c := make([]float32, rows*n+1)
			c[rows*n] = 7 // guard
			calls.Store(0)
			withKernel(&kern, func() { SgemmPackedEpilogue(rows, 1, a, k, pb, 0, c, n, bias, ActReLU) })
			if want := n <= dk.maxCols; (calls.Load() > 0) != want {
				t.Fatalf("%s: %d dot kernel calls, want them: %v", name, calls.Load(), want)
			}
			if c[rows*n] != 7 {
				t.Fatalf("%s: guard after C overwritten: %v", name, c[rows*n])
			}
			return c[:rows*n]
		}
		if n > dk.maxCols {
			product(m, a, 1)
			continue
		}
		want := product(m, a, 1)
		for i := range m {
			for j := range n {
				v := want[i*n+j]
				if nan := i == 17; nan != (v != v) {
					t.Fatalf("%s: C[%d][%d] = %v", name, i, j, v)
				}
			}
		}
		for _, workers := range []int{2, 3} {
			got := product(m, a, workers)
			for i, v := range got {
				if math.Float32bits(v) != math.Float32bits(want[i]) {
					t.Fatalf("%s, %d workers: element %d = %v, one worker gives %v", name, workers, i, v, want[i])
				}
			}
		}
		// The rows from the second on, each one place earlier.
		got := product(m-1, a[k:], 1)
		for i, v := range got {
			if math.Float32bits(v) != math.Float32bits(want[n+i]) {
				t.Fatalf("%s: row %d computed one place earlier: element %d = %v, want %v", name, 1+i/n, i%n, v, want[n+i])
			}
		}
	}
}

// BenchmarkDotProduct times the zoo MLP's classifier, 256 rows of 512
// (half zeros, a ReLU's output) by ten columns of packed weights, with
// bias, on 1 and 2 workers.
func BenchmarkDotProduct(b *testing.B) {
	rng := rand.New(rand.NewPCG(35, 36))
	const m, k, n = 256, 512, 10
	x, c := randSlice(rng, m*k), make([]float32, m*n)
	for i, v := range x {
		x[i] = max(v, 0)
	}
	pb := PackB(true, k, n, randSlice(rng, n*k), k)
	bias := randSlice(rng, n)
	benchWorkers(b, 2*m*k*n, func(b *testing.B) {
		for b.Loop() {
			SgemmPackedEpilogue(m, 1, x, k, pb, 0, c, n, bias, ActNone)
		}
	})
}
