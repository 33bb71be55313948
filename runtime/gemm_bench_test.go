// Benchmarks of Sgemm and SgemmPacked reporting GFLOP/s.

package runtime

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchShapes are the inference shapes (M, K, N): C[M×N] = A[M×K]·Wᵀ with W
// stored [N, K] as in a linear layer.
var benchShapes = [][3]int{{1, 784, 512}, {64, 784, 512}, {128, 256, 1024}, {3136, 576, 64}}

func randSlice(rng *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.NormFloat64())
	}
	return s
}

// benchWorkers runs f as sub-benchmarks w1 and w2 with that many workers.
func benchWorkers(b *testing.B, flops float64, f func(b *testing.B)) {
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("w%d", w), func(b *testing.B) {
			saved := Workers()
			SetWorkers(w)
			defer SetWorkers(saved)
			b.ResetTimer()
			f(b)
			b.ReportMetric(flops*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GFLOP/s")
		})
	}
}

// BenchmarkSgemm times square C = A·B (names are the size) and the inference
// shapes as C = X·Wᵀ (names are MxKxN), with 1 and 2 workers.
func BenchmarkSgemm(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, s := range []int{64, 128, 256, 512, 1024, 2048} {
		x, y, c := randSlice(rng, s*s), randSlice(rng, s*s), make([]float32, s*s)
		b.Run(fmt.Sprint(s), func(b *testing.B) {
			benchWorkers(b, 2*float64(s)*float64(s)*float64(s), func(b *testing.B) {
				for b.Loop() {
					Sgemm(false, false, s, s, s, 1, x, s, y, s, 0, c, s)
				}
			})
		})
	}
	for _, sh := range benchShapes {
		m, k, n := sh[0], sh[1], sh[2]
		x, w, c := randSlice(rng, m*k), randSlice(rng, n*k), make([]float32, m*n)
		b.Run(fmt.Sprintf("%dx%dx%d", m, k, n), func(b *testing.B) {
			benchWorkers(b, 2*float64(m)*float64(n)*float64(k), func(b *testing.B) {
				for b.Loop() {
					Sgemm(false, true, m, n, k, 1, x, k, w, k, 0, c, n)
				}
			})
		})
	}
}

// BenchmarkSgemmPacked times the inference shapes (MxKxN) with W packed once
// by PackB, as a linear layer does.
func BenchmarkSgemmPacked(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, sh := range benchShapes {
		m, k, n := sh[0], sh[1], sh[2]
		x, w, c := randSlice(rng, m*k), randSlice(rng, n*k), make([]float32, m*n)
		pb := PackB(true, k, n, w, k)
		b.Run(fmt.Sprintf("%dx%dx%d", m, k, n), func(b *testing.B) {
			benchWorkers(b, 2*float64(m)*float64(n)*float64(k), func(b *testing.B) {
				for b.Loop() {
					SgemmPacked(m, 1, x, k, pb, 0, c, n)
				}
			})
		})
	}
}

// BenchmarkSgemmPackedZeros times a linear layer after a ReLU: W packed by
// PackB, the input rows a given share of zeros (names: MxKxN/zeros=share),
// so that the sparse rows (M > 1) and panels (M = 1) run where the tier
// takes them; GFLOP/s counts every term, zero or not.
func BenchmarkSgemmPackedZeros(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, sh := range [][3]int{{1, 512, 512}, {256, 512, 512}} {
		m, k, n := sh[0], sh[1], sh[2]
		w, c := randSlice(rng, n*k), make([]float32, m*n)
		pb := PackB(true, k, n, w, k)
		for _, zeros := range []float64{0, 0.5, 0.9} {
			x := randSlice(rng, m*k)
			for i := range x {
				if rng.Float64() < zeros {
					x[i] = 0
				}
			}
			b.Run(fmt.Sprintf("%dx%dx%d/zeros=%v", m, k, n, zeros), func(b *testing.B) {
				benchWorkers(b, 2*float64(m)*float64(n)*float64(k), func(b *testing.B) {
					for b.Loop() {
						SgemmPacked(m, 1, x, k, pb, 0, c, n)
					}
				})
			})
		}
	}
}
