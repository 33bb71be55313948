package runtime

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSoftmax times a softmax over the last dim of attention scores
// (batch 8, 4 heads, 128×128) on one worker, on each tier.
func BenchmarkSoftmax(b *testing.B) {
	x := NewArray(Float32, 8, 4, 128, 128)
	rng := rand.New(rand.NewPCG(3, 3))
	for i := range x.F32 {
		x.F32[i] = float32(rng.NormFloat64() * 4)
	}
	out := NewArray(Float32, x.Shape...)
	saved := Workers()
	SetWorkers(1)
	defer SetWorkers(saved)
	forEachISABench(b, func(b *testing.B) {
		b.SetBytes(int64(8 * len(x.F32)))
		for b.Loop() {
			Softmax(out, x, -1)
		}
	})
}
