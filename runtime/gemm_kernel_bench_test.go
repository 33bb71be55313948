// Benchmark of the bare micro-kernel on cache-resident panels (peak check).

package runtime

import "testing"

// BenchmarkGemmMicroKernel times the selected micro-kernel on one packed A
// panel and one packed B panel that stay in L1, an upper bound for Sgemm.
func BenchmarkGemmMicroKernel(b *testing.B) {
	kern := selectedKernel
	const k = 128
	a := make([]float32, kern.mr*k)
	bp := make([]float32, kern.nr*k)
	c := make([]float32, kern.mr*kern.nr)
	for i := range a {
		a[i] = 1
	}
	for b.Loop() {
		kern.tile(kern.mr, kern.nr, k, a, bp, c, kern.nr, 1, nil, flagBeta, 0, nil)
	}
	b.ReportMetric(2*float64(kern.mr*kern.nr*k)*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GFLOP/s")
}
