package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// TestDirectTileRuns checks that runs of whole tiles in one kernel call
// (gemmKernel.directRun) give the bits of one call per tile, on every
// tier that has them: row counts of two to seven tiles with and without
// partial tiles below, whole and partial last columns, one and several
// blocks of k, B packed beforehand (so that the tiles prefetch the next
// panel) or not, beta, a bias per column or per row, and ReLU; and that
// the runs ran.
func TestDirectTileRuns(t *testing.T) { forEachISA(t, testDirectTileRuns) }

func testDirectTileRuns(t *testing.T) {
	base := selectedKernel
	if base.directRun == nil {
		t.Skip("no runs of tiles on this tier")
	}
	var calls atomic.Int64
	withRuns := *base
	withRuns.directRun = func(tiles, k int, a []float32, lda int, b, c []float32, ldc int, alpha, beta float32, bias []float32, flags int, ahead []float32, aheadLines int) {
		calls.Add(1)
		base.directRun(tiles, k, a, lda, b, c, ldc, alpha, beta, bias, flags, ahead, aheadLines)
	}
	perTile := *base
	perTile.directRun = nil
	mr, nr := base.mr, base.nr
	rng := rand.New(rand.NewPCG(41, 42))
	var total int64
	defer SetWorkers(Workers())
	SetWorkers(1) // whole columns of tiles
	for _, m := range []int{2 * mr, 3*mr + 1, 4*mr + 5, 7 * mr} {
		for _, n := range []int{nr, 3*nr + 5, 160} {
			for _, k := range []int{9, 300, 700, 1024} {
				for _, packed := range []bool{false, true} {
					for _, rowBias := range []bool{false, true} {
						name := fmt.Sprintf("m=%d n=%d k=%d packed=%v rowBias=%v", m, n, k, packed, rowBias)
						a := randSlice(rng, m*k)
						b := randSlice(rng, k*n)
						bias := randSlice(rng, max(m, n))
						c0 := randSlice(rng, m*n)
						run := func(kern *gemmKernel) []float32 {
							c := append([]float32(nil), c0...)
							withKernel(kern, func() {
								switch {
								case rowBias:
									sgemmRowBias(m, n, k, a, k, b, n, c, n, ActReLU, bias, true)
								case packed:
									SgemmPackedEpilogue(m, 1, a, k, PackB(false, k, n, b, n), 0.5, c, n, bias[:n], ActReLU)
								default:
									Sgemm(false, false, m, n, k, 1.5, a, k, b, n, 0.25, c, n)
								}
							})
							return c
						}
						want := run(&perTile)
						calls.Store(0)
						got := run(&withRuns)
						// B packed beforehand and one block of k, A read
						// in place: every column of tiles starts with a
						// run (B packed on the fly, the top tile packs it).
						if packed && !rowBias && k <= 300 && calls.Load() == 0 {
							t.Fatalf("%s: no run of tiles", name)
						}
						total += calls.Load()
						for i, w := range want {
							if math.Float32bits(got[i]) != math.Float32bits(w) {
								t.Fatalf("%s: element %d = %v, one call a tile gives %v", name, i, got[i], w)
							}
						}
					}
				}
			}
		}
	}
	if total == 0 {
		t.Fatal("no run of tiles")
	}
}
