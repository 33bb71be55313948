package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestColumnProducts checks products of one column (columnFast) against
// the reference loop on every tier: B packed, stored transposed (a weight
// row) and as a column, row counts around the dot kernels' groups of 8
// and 4, C with a row stride, beta, bias and ReLU, and the guards around
// C.
func TestColumnProducts(t *testing.T) { forEachISA(t, testColumnProducts) }

func testColumnProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, m := range []int{4, 5, 7, 8, 9, 12, 13, 63, 64, 65, 200} {
		for _, k := range []int{1, 3, 16, 33, 256} {
			for _, tc := range []gemmCase{
				{m: m, n: 1, k: k, alpha: 1, transB: true},
				{m: m, n: 1, k: k, alpha: 1.5, beta: 0.3},
				{m: m, n: 1, k: k, alpha: 1, beta: 1, transB: true},
				{m: m, n: 1, k: k, alpha: 1, bias: true, act: ActReLU, transB: true},
				{m: m, n: 1, k: k, alpha: 1, bias: true, act: ActReLU, lda: k + 5},
			} {
				if !tc.bias { // Sgemm takes no bias
					runCase(t, rng, tc, false)
				}
				runCase(t, rng, tc, true)
			}
		}
	}
}

// TestColumnProductsTakeDots checks that a product of one column is
// computed by columnFast (each row the bits of the m = 1 product of that
// row, whose B is stored transposed: dot4's) whatever the worker count,
// and that NaN and ±Inf in A reach only their own rows.
func TestColumnProductsTakeDots(t *testing.T) { forEachISA(t, testColumnProductsTakeDots) }

func testColumnProductsTakeDots(t *testing.T) {
	saved, savedMin := Workers(), parallelMinFlops
	defer func() { SetWorkers(saved); parallelMinFlops = savedMin }()
	parallelMinFlops = 0 // split even small products
	rng := rand.New(rand.NewPCG(23, 24))
	const m, k = 300, 100
	a := randSlice(rng, m*k)
	a[17*k+3] = float32(math.NaN())
	a[40*k+9] = float32(math.Inf(1))
	w := randSlice(rng, k)
	pb := PackB(true, k, 1, w, k)
	bias := []float32{0.25}
	// Row i alone, as an m = 1 product of the weight row: the GEMV's dot
	// kernels, the bits columnFast must give.
	want := make([]float32, m)
	for i := range m {
		SetWorkers(1)
		Sgemm(false, true, 1, 1, k, 1, a[i*k:], k, w, k, 0, want[i:], 1)
		want[i] = want[i] + bias[0]
		if want[i] < 0 {
			want[i] = 0
		}
	}
	for _, workers := range []int{1, 2, 3} {
		SetWorkers(workers)
		got := make([]float32, m+1)
		got[m] = 7 // guard
		SgemmPackedEpilogue(m, 1, a, k, pb, 0, got, 1, bias, ActReLU)
		for i := range m {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%d workers: row %d = %v, want %v (the m = 1 product's)", workers, i, got[i], want[i])
			}
		}
		if got[m] != 7 {
			t.Fatalf("%d workers: guard after C overwritten: %v", workers, got[m])
		}
	}
}

// BenchmarkColumnProduct times DLRM's last layer, 2048 rows of 256 by one
// column of packed weights, with bias, on 1 and 2 workers.
func BenchmarkColumnProduct(b *testing.B) {
	rng := rand.New(rand.NewPCG(25, 26))
	const m, k = 2048, 256
	x, c := randSlice(rng, m*k), make([]float32, m)
	pb := PackB(true, k, 1, randSlice(rng, k), k)
	bias := []float32{0.5}
	benchWorkers(b, 2*m*k, func(b *testing.B) {
		for b.Loop() {
			SgemmPackedEpilogue(m, 1, x, k, pb, 0, c, 1, bias, ActNone)
		}
	})
}
