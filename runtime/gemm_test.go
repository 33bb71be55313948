// Tests of Sgemm, PackB/SgemmPacked and the fused epilogue against a reference loop.

package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

const guardValue = float32(-7.8125e30) // written around every matrix; must survive

// matrix is a rows×cols row-major matrix stored with stride ld inside a
// larger buffer whose other elements hold guardValue.
type matrix struct {
	rows, cols, ld int
	buf            []float32 // buf[off:] is the matrix
	off            int
}

func newMatrix(rng *rand.Rand, rows, cols, pad int) *matrix {
	ld := cols + pad
	off := 5
	n := off + 7
	if rows > 0 {
		n += (rows-1)*ld + cols
	}
	m := &matrix{rows: rows, cols: cols, ld: ld, buf: make([]float32, n), off: off}
	for i := range m.buf {
		m.buf[i] = guardValue
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			m.set(i, j, float32(rng.NormFloat64()))
		}
	}
	return m
}

func (m *matrix) data() []float32         { return m.buf[m.off:] }
func (m *matrix) at(i, j int) float32     { return m.buf[m.off+i*m.ld+j] }
func (m *matrix) set(i, j int, v float32) { m.buf[m.off+i*m.ld+j] = v }

func (m *matrix) fill(v float32) {
	for i := 0; i < m.rows; i++ {
		for j := 0; j < m.cols; j++ {
			m.set(i, j, v)
		}
	}
}

func (m *matrix) clone() *matrix {
	c := *m
	c.buf = append([]float32(nil), m.buf...)
	return &c
}

// checkGuards reports any element outside the matrix that changed.
func (m *matrix) checkGuards(t *testing.T, what string) {
	t.Helper()
	inside := func(idx int) bool {
		idx -= m.off
		if idx < 0 || m.rows == 0 {
			return false
		}
		i, j := idx/m.ld, idx%m.ld
		return i < m.rows && j < m.cols
	}
	for idx, v := range m.buf {
		if !inside(idx) && v != guardValue {
			t.Fatalf("%s: stray write at buffer index %d (value %v)", what, idx, v)
		}
	}
}

type gemmCase struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float32
	bias           bool
	act            Activation
	lda            int // 0: a few floats more than a row of A
}

func (tc gemmCase) String() string {
	return fmt.Sprintf("tA=%v tB=%v m=%d n=%d k=%d alpha=%v beta=%v bias=%v act=%d",
		tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, tc.beta, tc.bias, tc.act)
}

// refGemm is the reference loop in float64; it also returns, per element, a
// bound on the rounding error a float32 computation may make.
func refGemm(tc gemmCase, a, b, c *matrix, bias []float32) (want, tol []float64) {
	opA := func(i, p int) float64 {
		if tc.transA {
			return float64(a.at(p, i))
		}
		return float64(a.at(i, p))
	}
	opB := func(p, j int) float64 {
		if tc.transB {
			return float64(b.at(j, p))
		}
		return float64(b.at(p, j))
	}
	want = make([]float64, tc.m*tc.n)
	tol = make([]float64, tc.m*tc.n)
	for i := 0; i < tc.m; i++ {
		for j := 0; j < tc.n; j++ {
			var s, sa float64
			for p := 0; p < tc.k; p++ {
				s += opA(i, p) * opB(p, j)
				sa += math.Abs(opA(i, p) * opB(p, j))
			}
			v := float64(tc.alpha) * s
			mag := math.Abs(float64(tc.alpha)) * sa
			if tc.beta != 0 {
				v += float64(tc.beta) * float64(c.at(i, j))
				mag += math.Abs(float64(tc.beta) * float64(c.at(i, j)))
			}
			if bias != nil {
				v += float64(bias[j])
				mag += math.Abs(float64(bias[j]))
			}
			switch tc.act {
			case ActReLU:
				v = math.Max(v, 0)
			case ActGELU:
				v = 0.5 * v * (1 + math.Erf(v/math.Sqrt2))
			}
			want[i*tc.n+j] = v
			tol[i*tc.n+j] = 1e-6 + 4*float64(tc.k+3)*0x1p-24*mag
		}
	}
	return want, tol
}

// runCase runs one case through Sgemm (or SgemmPackedEpilogue when packed)
// and checks it against refGemm and the guards.
func runCase(t *testing.T, rng *rand.Rand, tc gemmCase, packed bool) {
	t.Helper()
	ar, ac := tc.m, tc.k
	if tc.transA {
		ar, ac = ac, ar
	}
	br, bc := tc.k, tc.n
	if tc.transB {
		br, bc = bc, br
	}
	padA := 1 + rng.IntN(3)
	if tc.lda > 0 {
		padA = tc.lda - ac
	}
	a := newMatrix(rng, ar, ac, padA)
	b := newMatrix(rng, br, bc, rng.IntN(3))
	c := newMatrix(rng, tc.m, tc.n, 1+rng.IntN(5))
	if tc.beta == 0 {
		c.fill(float32(math.NaN())) // must not be read
	}
	var bias []float32
	if tc.bias {
		bias = make([]float32, tc.n)
		for j := range bias {
			bias[j] = float32(rng.NormFloat64())
		}
	}
	want, tol := refGemm(tc, a, b, c, bias)
	if packed {
		pb := PackB(tc.transB, tc.k, tc.n, b.data(), b.ld)
		SgemmPackedEpilogue(tc.m, tc.alpha, a.data(), a.ld, pb, tc.beta, c.data(), c.ld, bias, tc.act)
	} else {
		Sgemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a.data(), a.ld, b.data(), b.ld, tc.beta, c.data(), c.ld)
	}
	c.checkGuards(t, tc.String())
	for i := 0; i < tc.m; i++ {
		for j := 0; j < tc.n; j++ {
			got := float64(c.at(i, j))
			w := want[i*tc.n+j]
			if !(math.Abs(got-w) <= tol[i*tc.n+j]) {
				t.Fatalf("%v packed=%v: C[%d][%d] = %v, want %v (tol %.3g)", tc, packed, i, j, got, w, tol[i*tc.n+j])
			}
		}
	}
}

// kernelVariants returns each available micro-kernel with its own blocking
// and with tiny blocks, so that small tests cross every block boundary, and
// with tiny blocks and no direct tile, so that A is packed.
func kernelVariants() []*gemmKernel {
	var ks []*gemmKernel
	for _, k := range availableKernels() {
		tiny := *k
		tiny.name += "/tiny"
		tiny.kc, tiny.mc, tiny.nc = 9, 2*k.mr, 2*k.nr
		ks = append(ks, k, &tiny)
		if k.direct != nil {
			// Small products read A in place; cover A packed on the
			// fly and A packed by packA too.
			fly := tiny
			fly.name += "/packOnTheFly"
			fly.direct = nil
			packed := fly
			packed.name = tiny.name + "/packedA"
			packed.directPack = nil
			ks = append(ks, &fly, &packed)
		}
		if k.directPackB != nil {
			// Products that read A in place pack B on the fly; cover
			// B packed by packB too.
			packedB := tiny
			packedB.name += "/packedB"
			packedB.directPackB = nil
			ks = append(ks, &packedB)
		}
		if k.directNarrow != nil {
			// Narrow last columns read in place two tiles at a time;
			// cover them one tile at a time too.
			wide := tiny
			wide.name += "/wide"
			wide.directNarrow = nil
			ks = append(ks, &wide)
		}
	}
	return ks
}

// withKernel runs f with kern selected for Sgemm and PackB.
func withKernel(kern *gemmKernel, f func()) {
	saved := selectedKernel
	defer func() { selectedKernel = saved }()
	selectedKernel = kern
	f()
}

// shapes covers 0, 1, block-1, block, block+1 for both kernels' tiles
// (14×32, 6×16, 4×4) and tall, wide, m=1 and odd k.
var gemmShapes = [][3]int{ // m, n, k
	{0, 0, 0}, {0, 5, 3}, {5, 0, 3}, {5, 3, 0}, {1, 1, 1}, {2, 3, 4},
	{1, 33, 17}, {1, 7, 300}, {1, 100, 45}, {1, 64, 16}, {3, 5, 7},
	{13, 31, 7}, {14, 32, 16}, {15, 33, 17}, {5, 15, 9}, {6, 16, 8}, {7, 17, 10},
	{28, 64, 27}, {29, 65, 19}, {100, 3, 5}, {3, 100, 1}, {7, 1, 30},
	{43, 70, 37}, {17, 96, 33}, {90, 47, 11},
}

func TestSgemmShapes(t *testing.T) { forEachISA(t, testSgemmShapes) }

func testSgemmShapes(t *testing.T) {
	for _, kern := range kernelVariants() {
		t.Run(kern.name, func(t *testing.T) {
			withKernel(kern, func() {
				rng := rand.New(rand.NewPCG(1, 2))
				for _, s := range gemmShapes {
					for _, ta := range []bool{false, true} {
						for _, tb := range []bool{false, true} {
							runCase(t, rng, gemmCase{transA: ta, transB: tb, m: s[0], n: s[1], k: s[2], alpha: 1}, false)
						}
					}
				}
			})
		})
	}
}

// TestSgemmStrides covers narrow products (which may read A in place) with
// row strides that alias in the L1 cache and ones that do not.
func TestSgemmStrides(t *testing.T) { forEachISA(t, testSgemmStrides) }

func testSgemmStrides(t *testing.T) {
	for _, kern := range kernelVariants() {
		withKernel(kern, func() {
			rng := rand.New(rand.NewPCG(13, 14))
			for _, lda := range []int{64, 100, 512, 576, 1024} {
				// The last two: rows of B just under and over
				// packBFlyMaxLdb, B packed on the fly and in a pass of
				// its own under A read in place.
				for _, s := range [][3]int{{30, 40, 21}, {15, 64, 9}, {29, 65, 19}, {3, 1, 33}, {13, 1000, 24}, {20, 1500, 30}} {
					tc := gemmCase{m: s[0], n: s[1], k: s[2], alpha: -0.5, beta: 1.5, lda: lda}
					runCase(t, rng, tc, false)
					tc.bias, tc.act, tc.beta = true, ActReLU, 0
					runCase(t, rng, tc, true)
				}
			}
		})
	}
}

func TestSgemmAlphaBeta(t *testing.T) { forEachISA(t, testSgemmAlphaBeta) }

func testSgemmAlphaBeta(t *testing.T) {
	ab := [][2]float32{{1, 0}, {0.5, 0}, {1, 1}, {-1.5, 0.25}, {0, 2}, {0, 0}, {2, -1}}
	for _, kern := range kernelVariants() {
		t.Run(kern.name, func(t *testing.T) {
			withKernel(kern, func() {
				rng := rand.New(rand.NewPCG(3, 4))
				for _, s := range [][3]int{{1, 40, 23}, {15, 33, 17}, {29, 65, 19}, {4, 9, 0}} {
					for _, v := range ab {
						for _, tb := range []bool{false, true} {
							runCase(t, rng, gemmCase{transB: tb, transA: !tb, m: s[0], n: s[1], k: s[2], alpha: v[0], beta: v[1]}, false)
						}
					}
				}
			})
		})
	}
}

func TestSgemmLarge(t *testing.T) { forEachISA(t, testSgemmLarge) }

func testSgemmLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, s := range [][3]int{{1, 512, 784}, {70, 300, 513}, {130, 97, 260}} {
		for _, tb := range []bool{false, true} {
			runCase(t, rng, gemmCase{transB: tb, m: s[0], n: s[1], k: s[2], alpha: 1, beta: 0.5}, false)
		}
	}
}

func TestSgemmPackedEpilogue(t *testing.T) { forEachISA(t, testSgemmPackedEpilogue) }

func testSgemmPackedEpilogue(t *testing.T) {
	for _, kern := range kernelVariants() {
		t.Run(kern.name, func(t *testing.T) {
			withKernel(kern, func() {
				rng := rand.New(rand.NewPCG(7, 8))
				for _, s := range [][3]int{{1, 1, 1}, {1, 33, 17}, {1, 70, 300}, {2, 31, 5}, {15, 33, 17}, {29, 65, 40}, {3, 5, 0}, {0, 3, 3}} {
					for _, act := range []Activation{ActNone, ActReLU, ActGELU} {
						for _, bias := range []bool{false, true} {
							for _, tb := range []bool{false, true} {
								beta := float32(0)
								if bias {
									beta = 0.75
								}
								tc := gemmCase{transB: tb, m: s[0], n: s[1], k: s[2], alpha: 1.25, beta: beta, bias: bias, act: act}
								runCase(t, rng, tc, true)
							}
						}
					}
				}
			})
		})
	}
}

// TestSgemmPackedMatchesUnpacked checks that packing B ahead of time gives
// the bits Sgemm gives for the same product (m > 1 takes the same tiles).
func TestSgemmPackedMatchesUnpacked(t *testing.T) { forEachISA(t, testSgemmPackedMatchesUnpacked) }

func testSgemmPackedMatchesUnpacked(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, kern := range kernelVariants() {
		withKernel(kern, func() {
			m, n, k := 37, 70, 45
			a := newMatrix(rng, m, k, 0)
			w := newMatrix(rng, n, k, 2) // [out, in]
			c1 := newMatrix(rng, m, n, 0)
			c2 := c1.clone()
			Sgemm(false, true, m, n, k, 1, a.data(), a.ld, w.data(), w.ld, 0, c1.data(), c1.ld)
			SgemmPacked(m, 1, a.data(), a.ld, PackB(true, k, n, w.data(), w.ld), 0, c2.data(), c2.ld)
			for i := range c1.buf {
				if c1.buf[i] != c2.buf[i] {
					t.Fatalf("%s: packed and unpacked differ at %d: %v vs %v", kern.name, i, c1.buf[i], c2.buf[i])
				}
			}
		})
	}
}

// TestSgemmWorkersDeterministic checks that 1, 2 and 3 workers give
// bit-identical results, for splits by rows and by columns.
func TestSgemmWorkersDeterministic(t *testing.T) { forEachISA(t, testSgemmWorkersDeterministic) }

func testSgemmWorkersDeterministic(t *testing.T) {
	saved, savedMin, savedShared := Workers(), parallelMinFlops, sharedPackMax
	defer func() {
		SetWorkers(saved)
		parallelMinFlops, sharedPackMax = savedMin, savedShared
	}()
	parallelMinFlops = 0 // split even small products
	rng := rand.New(rand.NewPCG(11, 12))
	for _, kern := range kernelVariants() {
		withKernel(kern, func() {
			for _, s := range [][3]int{{300, 45, 160}, {30, 600, 130}, {128, 128, 128}, {47, 33, 20}, {2, 70, 9}} {
				m, n, k := s[0], s[1], s[2]
				a := newMatrix(rng, m, k, 1)
				b := newMatrix(rng, n, k, 3) // used as Bᵀ
				c0 := newMatrix(rng, m, n, 2)
				pb := PackB(true, k, n, b.data(), b.ld)
				var ref, refP *matrix
				for _, shared := range []int{savedShared, 0} { // B packed once, or per worker
					sharedPackMax = shared
					for _, w := range []int{1, 2, 3} {
						SetWorkers(w)
						c := c0.clone()
						Sgemm(false, true, m, n, k, 1, a.data(), a.ld, b.data(), b.ld, 0.5, c.data(), c.ld)
						cp := c0.clone()
						SgemmPackedEpilogue(m, 1, a.data(), a.ld, pb, 0, cp.data(), cp.ld, nil, ActReLU)
						c.checkGuards(t, "workers")
						cp.checkGuards(t, "workers packed")
						if ref == nil {
							ref, refP = c, cp
							continue
						}
						for i := range c.buf {
							if c.buf[i] != ref.buf[i] || cp.buf[i] != refP.buf[i] {
								t.Fatalf("%s %v: %d workers (shared pack %d) differ from 1 at %d", kern.name, s, w, shared, i)
							}
						}
					}
				}
			}
		})
	}
}

// TestSgemmDirectPathsAgree checks that packing B on the fly
// (directPackB) and narrow last columns two tiles at a time (directNarrow)
// give the bits of plain direct tiles, with 1, 2 and 3 workers: which tiles
// take them depends on where a worker's share of C starts.
func TestSgemmDirectPathsAgree(t *testing.T) { forEachISA(t, testSgemmDirectPathsAgree) }

func testSgemmDirectPathsAgree(t *testing.T) {
	saved, savedMin, savedShared := Workers(), parallelMinFlops, sharedPackMax
	defer func() {
		SetWorkers(saved)
		parallelMinFlops, sharedPackMax = savedMin, savedShared
	}()
	parallelMinFlops, sharedPackMax = 0, 0 // split even small products, each worker packing B
	rng := rand.New(rand.NewPCG(15, 16))
	for _, kern := range kernelVariants() {
		if kern.directPackB == nil && kern.directNarrow == nil {
			continue
		}
		plain := *kern
		plain.directPackB, plain.directNarrow = nil, nil
		for _, s := range [][3]int{{40, 70, 30}, {13, 48, 21}, {300, 50, 20}, {6, 16, 5}, {7, 100, 400}, {25, 9, 33}, {31, 8, 12}, {2, 1, 7}} {
			for _, tb := range []bool{false, true} {
				m, n, k := s[0], s[1], s[2]
				a := newMatrix(rng, m, k, 1)
				br, bc := k, n
				if tb {
					br, bc = n, k
				}
				b := newMatrix(rng, br, bc, 3)
				c0 := newMatrix(rng, m, n, 2)
				want := c0.clone()
				SetWorkers(1)
				withKernel(&plain, func() {
					Sgemm(false, tb, m, n, k, 1.5, a.data(), a.ld, b.data(), b.ld, 0.3, want.data(), want.ld)
				})
				for _, w := range []int{1, 2, 3} {
					SetWorkers(w)
					c := c0.clone()
					withKernel(kern, func() {
						Sgemm(false, tb, m, n, k, 1.5, a.data(), a.ld, b.data(), b.ld, 0.3, c.data(), c.ld)
					})
					c.checkGuards(t, "direct paths")
					for i := range c.buf {
						if c.buf[i] != want.buf[i] {
							t.Fatalf("%s %v transB=%v, %d workers: differs from plain direct tiles at %d: %v vs %v", kern.name, s, tb, w, i, c.buf[i], want.buf[i])
						}
					}
				}
			}
		}
	}
}

// TestSgemmRowBias checks the row-bias epilogue (sgemmRowBias, a
// convolution's bias) against the reference loop, with and without ReLU,
// and that it leaves the rest of C alone.
func TestSgemmRowBias(t *testing.T) { forEachISA(t, testSgemmRowBias) }

func testSgemmRowBias(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, kern := range kernelVariants() {
		if !kern.rowBias {
			continue
		}
		withKernel(kern, func() {
			for _, s := range [][3]int{{2, 3, 4}, {13, 31, 7}, {6, 16, 8}, {40, 70, 30}, {29, 65, 400}, {7, 100, 9}} {
				for _, act := range []Activation{ActNone, ActReLU} {
					m, n, k := s[0], s[1], s[2]
					a := newMatrix(rng, m, k, 1)
					b := newMatrix(rng, k, n, 2)
					c := newMatrix(rng, m, n, 3)
					c.fill(float32(math.NaN())) // must not be read
					bias := make([]float32, m)
					for i := range bias {
						bias[i] = float32(rng.NormFloat64())
					}
					sgemmRowBias(m, n, k, a.data(), a.ld, b.data(), b.ld, c.data(), c.ld, act, bias, false)
					c.checkGuards(t, "row bias")
					for i := 0; i < m; i++ {
						for j := 0; j < n; j++ {
							var sum, mag float64
							for p := 0; p < k; p++ {
								v := float64(a.at(i, p)) * float64(b.at(p, j))
								sum += v
								mag += math.Abs(v)
							}
							sum += float64(bias[i])
							mag += math.Abs(float64(bias[i]))
							if act == ActReLU {
								sum = math.Max(sum, 0)
							}
							if got := float64(c.at(i, j)); !(math.Abs(got-sum) <= 1e-6+4*float64(k+3)*0x1p-24*mag) {
								t.Fatalf("%s %v act %d: C[%d][%d] = %v, want %v", kern.name, s, act, i, j, got, sum)
							}
						}
					}
				}
			}
		})
	}
}

func TestSgemmPanics(t *testing.T) { forEachISA(t, testSgemmPanics) }

func testSgemmPanics(t *testing.T) {
	a := make([]float32, 6)
	for name, f := range map[string]func(){
		"negative":   func() { Sgemm(false, false, -1, 2, 2, 1, a, 2, a, 2, 0, a, 2) },
		"short A":    func() { Sgemm(false, false, 3, 2, 3, 1, a, 3, a, 2, 0, a, 2) },
		"small lda":  func() { Sgemm(false, false, 2, 2, 3, 1, a, 2, a, 2, 0, a, 2) },
		"short C":    func() { Sgemm(false, false, 4, 2, 1, 1, a, 1, a, 2, 0, a, 2) },
		"short bias": func() { SgemmPackedEpilogue(1, 1, a, 2, PackB(false, 2, 3, a, 3), 0, a, 3, a[:2], ActNone) },
		"nil packed": func() { SgemmPacked(1, 1, a, 2, nil, 0, a, 3) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestSgemmNoAllocs checks that Sgemm and SgemmPacked allocate nothing
// once their buffers are pooled, with A packed, packed on the fly and read
// in place, on one worker and split over two.
func TestSgemmNoAllocs(t *testing.T) { forEachISA(t, testSgemmNoAllocs) }

func testSgemmNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	saved := Workers()
	SetWorkers(1)
	defer SetWorkers(saved)
	rng := rand.New(rand.NewPCG(5, 5))
	const m, n, k = 60, 70, 40
	a, b, c := randSlice(rng, m*1024), randSlice(rng, k*n), make([]float32, m*n)
	pb := PackB(false, k, n, b, n)
	cases := map[string]func(){
		"packed A":    func() { Sgemm(false, false, m, n, k, 0.5, a, 1024, b, n, 0, c, n) },
		"on the fly":  func() { Sgemm(false, false, m, n, k, 1, a, 1024, b, n, 0, c, n) },
		"in place":    func() { Sgemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n) },
		"transA":      func() { Sgemm(true, false, m, n, k, 1, a, m, b, n, 0, c, n) },
		"SgemmPacked": func() { SgemmPacked(m, 1, a, k, pb, 0, c, n) },
		// m == 1 runs the GEMV kernels on the vector tiers.
		"m=1":             func() { Sgemm(false, false, 1, n, k, 1, a, k, b, n, 0.5, c, n) },
		"m=1, transB":     func() { Sgemm(false, true, 1, n, k, 1, a, k, b, k, 0.5, c, n) },
		"m=1, packed":     func() { SgemmPacked(1, 1, a, k, pb, 0, c, n) },
		"m=1, transA, tB": func() { Sgemm(true, true, 1, n, k, 1, a, 1, b, k, 0, c, n) },
	}
	for name, f := range cases {
		if got := leastAllocs(10, f); got != 0 {
			t.Errorf("%s: %v allocations per call, want 0", name, got)
		}
	}

	// Split over two workers: rows with B packed once for both, columns,
	// and packed weights.
	SetWorkers(2)
	defer func(v int) { parallelMinFlops = v }(parallelMinFlops)
	parallelMinFlops = 0
	wide := randSlice(rng, k*2048)
	parallel := map[string]func(){
		"2 workers, by rows":    func() { Sgemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n) },
		"2 workers, by columns": func() { Sgemm(false, false, 2, 2048, k, 1, a, k, wide, 2048, 0, c, 2048) },
		"2 workers, packed":     func() { SgemmPacked(m, 1, a, k, pb, 0, c, n) },
	}
	for name, f := range parallel {
		if byM, _ := (&gemmCall{m: 2, n: 2048, k: k, kern: selectedKernel}).split(2); name == "2 workers, by columns" && byM {
			t.Fatalf("%s: split chose rows", name)
		}
		// The least of three counts: a worker that parks on the pool's
		// channel right after a collection allocates a sudog, which is the
		// Go runtime's, not Sgemm's (on a busy machine it shows as one
		// allocation per call in an occasional count).
		least := leastAllocs(10, f)
		if least != 0 {
			t.Errorf("%s: %v allocations per call, want 0", name, least)
		}
	}
}

// TestGemvSplitAgrees checks m == 1 products large enough to split their
// columns over two workers against one worker, bit for bit: B plain,
// transposed and packed, with beta, bias and ReLU, and n not a multiple of
// the 32-column blocks.
func TestGemvSplitAgrees(t *testing.T) { forEachISA(t, testGemvSplitAgrees) }

func testGemvSplitAgrees(t *testing.T) {
	saved := Workers()
	defer SetWorkers(saved)
	rng := rand.New(rand.NewPCG(9, 9))
	const k, n = 512, 300
	x, b, bt := randSlice(rng, k), randSlice(rng, k*n), randSlice(rng, n*k)
	bias, c0 := randSlice(rng, n), randSlice(rng, n)
	pb := PackB(true, k, n, bt, k)
	cases := map[string]func(c []float32){
		"plain":             func(c []float32) { Sgemm(false, false, 1, n, k, 0.5, x, k, b, n, 0.25, c, n) },
		"transB":            func(c []float32) { Sgemm(false, true, 1, n, k, 1, x, k, bt, k, 0, c, n) },
		"packed, bias+relu": func(c []float32) { SgemmPackedEpilogue(1, 1, x, k, pb, 0, c, n, bias, ActReLU) },
	}
	for name, f := range cases {
		var got [2][]float32
		for w := 1; w <= 2; w++ {
			SetWorkers(w)
			c := append([]float32(nil), c0...)
			f(c)
			got[w-1] = c
		}
		for j := range got[0] {
			if math.Float32bits(got[0][j]) != math.Float32bits(got[1][j]) {
				t.Fatalf("%s: column %d is %v on 2 workers, %v on 1", name, j, got[1][j], got[0][j])
			}
		}
	}
}

// TestGemvSweepsBothWays checks that serial m == 1 products of a packed B
// large enough to alternate their direction (gemvSweepBack) give the same
// bits walking its panels either way, and the values of a reference loop:
// n is not a multiple of the panel width, so one walk starts on the
// partial panel.
func TestGemvSweepsBothWays(t *testing.T) { forEachISA(t, testGemvSweepsBothWays) }

func testGemvSweepsBothWays(t *testing.T) {
	saved := Workers()
	defer SetWorkers(saved)
	SetWorkers(1)
	rng := rand.New(rand.NewPCG(3, 7))
	const k, n = 300, 250
	if k*n < gemvSweepMin {
		t.Fatalf("%d×%d is under gemvSweepMin", k, n)
	}
	x, bt, bias := randSlice(rng, k), randSlice(rng, n*k), randSlice(rng, n)
	pb := PackB(true, k, n, bt, k)
	if pb.kern.gemv == nil {
		t.Skip("no GEMV kernel on this tier: nothing sweeps")
	}
	var first []float32
	for call := range 3 {
		before := pb.sweeps.Load()
		c := make([]float32, n)
		SgemmPackedEpilogue(1, 1, x, k, pb, 0, c, n, bias, ActReLU)
		if pb.sweeps.Load() != before+1 {
			t.Fatalf("call %d: sweeps went %d → %d, want one more", call, before, pb.sweeps.Load())
		}
		if first == nil {
			first = c
			for j := range n {
				want := float64(bias[j])
				for p := range k {
					want += float64(x[p]) * float64(bt[j*k+p])
				}
				want = max(want, 0)
				if math.Abs(float64(c[j])-want) > 1e-4*(1+math.Abs(want)) {
					t.Fatalf("column %d: %v, want %v", j, c[j], want)
				}
			}
			continue
		}
		for j := range n {
			if math.Float32bits(c[j]) != math.Float32bits(first[j]) {
				t.Fatalf("call %d, column %d: %v, first call %v", call, j, c[j], first[j])
			}
		}
	}
}

// TestRowTilingsAgree checks that how a block's rows are cut into tiles
// does not change a bit of C: one product whose last rows go as two tiles
// of about half (directRows), with A read in place and with A packed on
// the fly (rows 4 KB apart), against the same rows two (or three) at a
// time; B plain and packed, one block of k and two, with bias and ReLU.
func TestRowTilingsAgree(t *testing.T) { forEachISA(t, testRowTilingsAgree) }

func testRowTilingsAgree(t *testing.T) {
	saved := Workers()
	defer SetWorkers(saved)
	SetWorkers(1)
	mr := selectedKernel.mr
	rng := rand.New(rand.NewPCG(5, 11))
	const n = 70
	for _, k := range []int{96, 600} {
		for _, lda := range []int{k, 1024} {
			bt, bias := randSlice(rng, n*k), randSlice(rng, n)
			pb := PackB(true, k, n, bt, k)
			for _, m := range []int{mr + 1, mr + 2, mr + 3, 2*mr + 2} {
				a := randSlice(rng, m*lda)
				products := map[string]func(rows int, a, c []float32){
					"plain":  func(rows int, a, c []float32) { Sgemm(false, true, rows, n, k, 1, a, lda, bt, k, 0, c, n) },
					"packed": func(rows int, a, c []float32) { SgemmPackedEpilogue(rows, 1, a, lda, pb, 0, c, n, bias, ActReLU) },
				}
				for name, f := range products {
					whole := make([]float32, m*n)
					f(m, a, whole)
					pairs := make([]float32, m*n)
					for r, rows := 0, 2; r < m; r += rows {
						if rows = 2; m-r == 3 {
							rows = 3 // not 1: a single row is a GEMV
						}
						f(rows, a[r*lda:], pairs[r*n:])
					}
					for i := range whole {
						if math.Float32bits(whole[i]) != math.Float32bits(pairs[i]) {
							t.Fatalf("%s, k %d, lda %d, m %d: C[%d][%d] is %v in one product, %v two rows at a time", name, k, lda, m, i/n, i%n, whole[i], pairs[i])
						}
					}
				}
			}
		}
	}
}
