package runtime

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkAttention times Attention on one worker for a sample of l
// queries over as many keys, 4 heads of 64 taken from one [l, 768]
// projection as in the zoo's transformer, with the scores divided by 8
// and, in the causal cases, masked above the diagonal. GFLOP/s counts
// both products over every key (4·l²·256), masked or not.
func BenchmarkAttention(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, l := range []int{128, 512} {
		for _, causal := range []bool{false, true} {
			c := attentionCase{n: 1, l: l, s: l, heads: 4, d: 64, cq: 768, ck: 768, cv: 768, kCol: 256, vCol: 512}
			if causal {
				c.extras = [][]int{{l, l}}
			}
			a := newAttentionArgs(r, c)
			out := NewArray(Float32, c.n, c.l, c.heads*c.d)
			b.Run(fmt.Sprintf("l=%d/causal=%v", l, causal), func(b *testing.B) {
				saved := Workers()
				SetWorkers(1)
				defer SetWorkers(saved)
				for b.Loop() {
					a.run(out, c)
				}
				flops := 4 * float64(l*l*c.heads*c.d)
				b.ReportMetric(flops*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GFLOP/s")
			})
		}
	}
}
