package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

func randArray(r *rand.Rand, shape ...int) *Array {
	a := NewArray(Float32, shape...)
	for i := range a.F32 {
		a.F32[i] = r.Float32()*2 - 1
	}
	return a
}

// refIndex returns the flat index into shape of the broadcast multi-index
// idx of outShape.
func refIndex(idx, shape, outShape []int) int {
	off, stride := 0, 1
	for i := len(shape) - 1; i >= 0; i-- {
		j := len(outShape) - len(shape) + i
		if shape[i] != 1 {
			off += idx[j] * stride
		}
		stride *= shape[i]
	}
	return off
}

func unravel(i int, shape []int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = i % shape[d]
		i /= shape[d]
	}
	return idx
}

func TestBinaryBroadcastAgainstReference(t *testing.T) {
	forEachISA(t, testBinaryBroadcastAgainstReference)
}

func testBinaryBroadcastAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := [][2][]int{
		{{3, 4}, {3, 4}}, {{3, 4}, {4}}, {{3, 1}, {1, 4}}, {{2, 3, 4}, {3, 1}}, {{5}, {}}, {{}, {5}}, {{2, 1, 4}, {2, 3, 1}}, {{0, 4}, {4}},
		// One value per channel: a filter bank's scale, NCHW channels,
		// a squeeze-and-excitation gate, runs of 8 and of 9 elements.
		{{6, 3, 3, 3}, {6, 1, 1, 1}}, {{2, 5, 4, 2}, {5, 1, 1}}, {{2, 5, 3, 3}, {2, 5, 1, 1}}, {{2, 5, 3, 3}, {1, 5, 1, 1}},
		{{3, 2, 7}, {3, 2, 1}}, {{0, 5, 3, 3}, {5, 1, 1}}, {{2, 5, 3, 3}, {2, 1, 3, 1}},
	}
	ops := []struct {
		name string
		fn   func(out, a, b *Array)
		ref  func(x, y float32) float32
	}{
		{"Add", Add, func(x, y float32) float32 { return x + y }},
		{"Sub", Sub, func(x, y float32) float32 { return x - y }},
		{"Mul", Mul, func(x, y float32) float32 { return x * y }},
		{"Div", Div, func(x, y float32) float32 { return x / y }},
	}
	for _, c := range cases {
		a, b := randArray(r, c[0]...), randArray(r, c[1]...)
		shape, err := BroadcastShapes(a.Shape, b.Shape)
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range ops {
			out := NewArray(Float32, shape...)
			op.fn(out, a, b)
			for i := range out.F32 {
				idx := unravel(i, shape)
				want := op.ref(a.F32[refIndex(idx, a.Shape, shape)], b.F32[refIndex(idx, b.Shape, shape)])
				if math.Abs(float64(out.F32[i]-want)) > 1e-6*math.Max(1, math.Abs(float64(want))) {
					t.Fatalf("%s %v %v: element %d got %v, want %v", op.name, a.Shape, b.Shape, i, out.F32[i], want)
				}
			}
		}
		gt := NewArray(Bool, shape...)
		Gt(gt, a, b)
		for i := range gt.B {
			idx := unravel(i, shape)
			if want := a.F32[refIndex(idx, a.Shape, shape)] > b.F32[refIndex(idx, b.Shape, shape)]; gt.B[i] != want {
				t.Fatalf("Gt %v %v: element %d got %v, want %v", a.Shape, b.Shape, i, gt.B[i], want)
			}
		}
	}
	if _, err := BroadcastShapes([]int{3, 4}, []int{5}); err == nil {
		t.Errorf("[3 4] and [5] broadcast without error")
	}
}

func TestMixedDTypes(t *testing.T) { forEachISA(t, testMixedDTypes) }

func testMixedDTypes(t *testing.T) {
	mask := FromBool([]bool{true, false, true}, 3)
	x := FromFloat32([]float32{-1, 2, 3}, 3)
	out := NewArray(Float32, 3)
	Mul(out, mask, x)
	if want := []float32{-1, 0, 3}; out.F32[0] != want[0] || out.F32[1] != want[1] || out.F32[2] != want[2] {
		t.Errorf("bool*f32: got %v, want %v", out.F32, want)
	}
	i := FromInt64([]int64{7, -3}, 2)
	oi := NewArray(Int64, 2)
	Add(oi, i, Int64Scalar(2))
	if oi.I64[0] != 9 || oi.I64[1] != -1 {
		t.Errorf("i64+2: got %v", oi.I64)
	}
}

func TestUnary(t *testing.T) { forEachISA(t, testUnary) }

func testUnary(t *testing.T) {
	x := FromFloat32([]float32{-2, -0.5, 0, 0.5, 4, float32(math.Inf(1))}, 6)
	out := NewArray(Float32, 6)
	Relu(out, x)
	for i, v := range x.F32 {
		if want := float32(math.Max(float64(v), 0)); out.F32[i] != want {
			t.Errorf("Relu(%v) = %v, want %v", v, out.F32[i], want)
		}
	}
	nan := FromFloat32([]float32{float32(math.NaN())}, 1)
	Relu(nan, nan)
	if !math.IsNaN(float64(nan.F32[0])) {
		t.Errorf("Relu(NaN) = %v, want NaN as PyTorch gives", nan.F32[0])
	}
	Neg(out, x)
	for i, v := range x.F32 {
		if out.F32[i] != -v {
			t.Errorf("Neg(%v) = %v", v, out.F32[i])
		}
	}
	Sqrt(out, x)
	if out.F32[4] != 2 || !math.IsNaN(float64(out.F32[0])) {
		t.Errorf("Sqrt: got %v", out.F32)
	}
}

func TestSumAgainstReference(t *testing.T) { forEachISA(t, testSumAgainstReference) }

func testSumAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	// Rows of the last dim under and over 16 floats, in counts that are
	// and are not multiples of four.
	for _, shape := range [][]int{{2, 3, 4}, {1, 7, 5}, {3, 7, 5}, {2, 2, 40}} {
		testSumShape(t, randArray(r, shape...))
	}
}

func testSumShape(t *testing.T, x *Array) {
	for _, dims := range [][]int{{-1}, {0}, {1}, {0, 2}, {}} {
		reduced := map[int]bool{}
		for _, d := range dims {
			nd, _ := NormalizeDim(d, 3)
			reduced[nd] = true
		}
		if len(dims) == 0 {
			reduced = map[int]bool{0: true, 1: true, 2: true}
		}
		var shape []int
		for i, s := range x.Shape {
			if !reduced[i] {
				shape = append(shape, s)
			}
		}
		out := NewArray(Float32, shape...)
		Sum(out, x, dims, false)
		want := make([]float64, out.Len())
		for i := range x.F32 {
			idx := unravel(i, x.Shape)
			o := 0
			for d, s := range x.Shape {
				if !reduced[d] {
					o = o*s + idx[d]
				}
			}
			want[o] += float64(x.F32[i])
		}
		for i := range want {
			if math.Abs(float64(out.F32[i])-want[i]) > 1e-5 {
				t.Errorf("Sum of %v over %v: element %d got %v, want %v", x.Shape, dims, i, out.F32[i], want[i])
			}
		}
	}
}

func TestTopKAgainstReference(t *testing.T) { forEachISA(t, testTopKAgainstReference) }

func testTopKAgainstReference(t *testing.T) {
	x := FromFloat32([]float32{1, 5, 3, 5, -2, 0, 9, 9}, 2, 4)
	v, i := NewArray(Float32, 2, 3), NewArray(Int64, 2, 3)
	TopK(v, i, x, 3, -1, true)
	wantV := []float32{5, 5, 3, 9, 9, 0}
	wantI := []int64{1, 3, 2, 2, 3, 1}
	for k := range wantV {
		if v.F32[k] != wantV[k] || i.I64[k] != wantI[k] {
			t.Fatalf("TopK: got %v %v, want %v %v", v.F32, i.I64, wantV, wantI)
		}
	}
	TopK(v, i, x, 3, 1, false)
	if v.F32[0] != 1 || i.I64[0] != 0 || v.F32[3] != -2 {
		t.Errorf("TopK smallest: got %v %v", v.F32, i.I64)
	}
}

// TestTopKRejectsOutputShapes checks that TopK panics, naming the shape it
// wants, when either output is not x's shape with k in dimension dim.
func TestTopKRejectsOutputShapes(t *testing.T) {
	x := NewArray(Float32, 2, 4)
	for _, tc := range []struct{ values, indices []int }{
		{[]int{2, 4}, []int{2, 3}}, {[]int{2, 3}, []int{3, 3}}, {[]int{6}, []int{2, 3}}, {[]int{2, 3}, []int{2, 3, 1}},
	} {
		func() {
			defer func() {
				if msg := fmt.Sprint(recover()); !strings.Contains(msg, "want [2 3]") {
					t.Errorf("values %v, indices %v: panic %q, want one naming [2 3]", tc.values, tc.indices, msg)
				}
			}()
			TopK(NewArray(Float32, tc.values...), NewArray(Int64, tc.indices...), x, 3, 1, true)
		}()
	}
}

func TestLinearAndMatmulAgainstReference(t *testing.T) {
	forEachISA(t, testLinearAndMatmulAgainstReference)
}

func testLinearAndMatmulAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	x, w, b := randArray(r, 3, 5, 7), randArray(r, 4, 7), randArray(r, 4)
	out := NewArray(Float32, 3, 5, 4)
	Linear(out, x, w, b)
	for row := 0; row < 15; row++ {
		for j := 0; j < 4; j++ {
			want := float64(b.F32[j])
			for p := 0; p < 7; p++ {
				want += float64(x.F32[row*7+p]) * float64(w.F32[j*7+p])
			}
			if math.Abs(float64(out.F32[row*4+j])-want) > 1e-5 {
				t.Fatalf("Linear [%d,%d]: got %v, want %v", row, j, out.F32[row*4+j], want)
			}
		}
	}
	a, m := randArray(r, 2, 1, 3, 5), randArray(r, 4, 5, 2)
	mo := NewArray(Float32, 2, 4, 3, 2)
	Matmul(mo, a, m)
	for bi := 0; bi < 2; bi++ {
		for bj := 0; bj < 4; bj++ {
			for i := 0; i < 3; i++ {
				for j := 0; j < 2; j++ {
					var want float64
					for p := 0; p < 5; p++ {
						want += float64(a.F32[bi*15+i*5+p]) * float64(m.F32[bj*10+p*2+j])
					}
					got := mo.F32[((bi*4+bj)*3+i)*2+j]
					if math.Abs(float64(got)-want) > 1e-5 {
						t.Fatalf("Matmul [%d,%d,%d,%d]: got %v, want %v", bi, bj, i, j, got, want)
					}
				}
			}
		}
	}
}

func TestConstructors(t *testing.T) { forEachISA(t, testConstructors) }

func testConstructors(t *testing.T) {
	a := NewArray(Int64, 5)
	Arange(a, 2, 3)
	for i, v := range a.I64 {
		if v != int64(2+3*i) {
			t.Fatalf("Arange: got %v", a.I64)
		}
	}
	r1, r2 := NewArray(Float32, 8), NewArray(Float32, 8)
	Rand(r1, 7)
	Rand(r2, 7)
	for i := range r1.F32 {
		if r1.F32[i] != r2.F32[i] || r1.F32[i] < 0 || r1.F32[i] >= 1 {
			t.Fatalf("Rand with the same seed: %v vs %v", r1.F32, r2.F32)
		}
	}
}

// TestTopKMatchesSort checks both selection paths against a stable sort,
// with ties and NaNs, along an inner dim too.
func TestTopKMatchesSort(t *testing.T) { forEachISA(t, testTopKMatchesSort) }

func testTopKMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, size := range []int{1, 5, 70, 200} {
		for _, k := range []int{0, 1, size / 2, size} {
			x := NewArray(Float32, 3, size, 2)
			for i := range x.F32 {
				x.F32[i] = float32(r.IntN(7)) // many ties
			}
			x.F32[r.IntN(len(x.F32))] = float32(math.NaN())
			for _, largest := range []bool{true, false} {
				v, ix := NewArray(Float32, 3, k, 2), NewArray(Int64, 3, k, 2)
				TopK(v, ix, x, k, 1, largest)
				for o := 0; o < 3; o++ {
					for in := 0; in < 2; in++ {
						order := make([]int, size)
						for i := range order {
							order[i] = i
						}
						at := func(i int) float32 { return x.F32[o*size*2+i*2+in] }
						sort.SliceStable(order, func(i, j int) bool { return better(at(order[i]), at(order[j]), largest) })
						for i := 0; i < k; i++ {
							gi := ix.I64[o*k*2+i*2+in]
							if gi != int64(order[i]) {
								t.Fatalf("size %d k %d largest %v row (%d,%d) rank %d: index %d, want %d", size, k, largest, o, in, i, gi, order[i])
							}
						}
					}
				}
			}
		}
	}
}

// TestTopKLastDimMatchesSort checks TopK along the last dim of several
// rows (each a contiguous row for topKRow) against a stable sort, for
// every k of rows of 1 to 20 elements, with ties, NaNs, ±0 and ±Inf; the
// values must be the bits of the elements at the indices.
func TestTopKLastDimMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	specials := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1))}
	const rows = 7
	for size := 1; size <= 20; size++ {
		x := NewArray(Float32, rows, size)
		for i := range x.F32 {
			switch r.IntN(4) {
			case 0:
				x.F32[i] = specials[r.IntN(len(specials))]
			case 1:
				x.F32[i] = float32(r.IntN(3)) - 1 // ties
			default:
				x.F32[i] = float32(r.NormFloat64())
			}
		}
		for k := 0; k <= size; k++ {
			for _, largest := range []bool{true, false} {
				v, ix := NewArray(Float32, rows, k), NewArray(Int64, rows, k)
				TopK(v, ix, x, k, -1, largest)
				for o := range rows {
					row := x.F32[o*size : (o+1)*size]
					order := make([]int, size)
					for i := range order {
						order[i] = i
					}
					sort.SliceStable(order, func(i, j int) bool { return better(row[order[i]], row[order[j]], largest) })
					for i := range k {
						gi, gv := ix.I64[o*k+i], v.F32[o*k+i]
						if gi != int64(order[i]) || math.Float32bits(gv) != math.Float32bits(row[order[i]]) {
							t.Fatalf("size %d k %d largest %v row %d rank %d: %v at %d, want %v at %d (row %v)",
								size, k, largest, o, i, gv, gi, row[order[i]], order[i], row)
						}
					}
				}
			}
		}
	}
}

func TestBinaryAllocatesNothing(t *testing.T) { forEachISA(t, testBinaryAllocatesNothing) }

func testBinaryAllocatesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	a, bias, res := randArray(r, 4, 3, 5), randArray(r, 5), randArray(r, 4, 3, 5)
	out, two := NewArray(Float32, 4, 3, 5), Float32Scalar(2)
	for name, fn := range map[string]func(){
		"same":    func() { Add(out, a, res) },
		"suffix":  func() { Add(out, a, bias) },
		"scalar":  func() { Mul(out, a, two) },
		"general": func() { Sub(out, bias, a) },
	} {
		if n := testing.AllocsPerRun(10, fn); n != 0 {
			t.Errorf("%s: %v allocations per call, want 0", name, n)
		}
	}
}

// TestMatmulBatchSplit checks batched Matmul with its batch items spread
// over workers (and, for batches that do not divide evenly, each product
// split instead) against one worker bit for bit, and against a reference
// loop, with broadcast batch dimensions.
func TestMatmulBatchSplit(t *testing.T) { forEachISA(t, testMatmulBatchSplit) }

func testMatmulBatchSplit(t *testing.T) {
	saved := Workers()
	defer SetWorkers(saved)
	defer func(v int) { parallelMinFlops = v }(parallelMinFlops)
	parallelMinFlops = 0
	r := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct{ ba, bb []int }{
		{[]int{2}, []int{2}},       // divides evenly over 2 workers
		{[]int{3}, []int{1}},       // does not: each product is split
		{[]int{3, 1}, []int{1, 3}}, // 9 items, broadcast on both sides
		{[]int{2, 3}, []int{3}},    // b has fewer batch dims
		{[]int{1}, []int{2, 2}},    // a has fewer, and broadcasts
	} {
		const m, k, n = 17, 9, 33
		a := randArray(r, append(append([]int{}, c.ba...), m, k)...)
		b := randArray(r, append(append([]int{}, c.bb...), k, n)...)
		batch, err := BroadcastShapes(c.ba, c.bb)
		if err != nil {
			t.Fatal(err)
		}
		shape := append(append([]int{}, batch...), m, n)
		one, two := NewArray(Float32, shape...), NewArray(Float32, shape...)
		SetWorkers(1)
		Matmul(one, a, b)
		SetWorkers(2)
		Matmul(two, a, b)
		for i := range one.F32 {
			if math.Float32bits(one.F32[i]) != math.Float32bits(two.F32[i]) {
				t.Fatalf("batch %v×%v: element %d is %v on 2 workers, %v on 1", c.ba, c.bb, i, two.F32[i], one.F32[i])
			}
		}
		sa, sb := broadcastStrides(c.ba, batch), broadcastStrides(c.bb, batch)
		nb := NumElements(batch)
		for item := range nb {
			oa, ob, rest := 0, 0, item
			for d := len(batch) - 1; d >= 0; d-- {
				oa += sa[d] * (rest % batch[d])
				ob += sb[d] * (rest % batch[d])
				rest /= batch[d]
			}
			for i := range m {
				for j := range n {
					var want float64
					for p := range k {
						want += float64(a.F32[oa*m*k+i*k+p]) * float64(b.F32[ob*k*n+p*n+j])
					}
					if got := two.F32[item*m*n+i*n+j]; math.Abs(float64(got)-want) > 1e-5 {
						t.Fatalf("batch %v×%v item %d [%d,%d]: got %v, want %v", c.ba, c.bb, item, i, j, got, want)
					}
				}
			}
		}
	}
}

// TestMatmulChecksAndAllocs checks that Matmul rejects a wrong out shape
// and batch shapes that do not broadcast, and allocates nothing itself.
func TestMatmulChecksAndAllocs(t *testing.T) { forEachISA(t, testMatmulChecksAndAllocs) }

func testMatmulChecksAndAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	a, b := randArray(r, 2, 3, 4), randArray(r, 2, 4, 5)
	for name, f := range map[string]func(){
		"out shape":    func() { Matmul(NewArray(Float32, 2, 3, 4), a, b) },
		"out rank":     func() { Matmul(NewArray(Float32, 1, 2, 3, 5), a, b) },
		"no broadcast": func() { Matmul(NewArray(Float32, 2, 3, 5), a, randArray(r, 3, 4, 5)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Matmul did not panic", name)
				}
			}()
			f()
		}()
	}
	if raceEnabled {
		return // sync.Pool drops items under the race detector
	}
	saved := Workers()
	defer SetWorkers(saved)
	out := NewArray(Float32, 2, 3, 5)
	for _, w := range []int{1, 2} {
		SetWorkers(w)
		if got := testing.AllocsPerRun(10, func() { Matmul(out, a, b) }); got != 0 {
			t.Errorf("%d workers: Matmul allocates %v times per call", w, got)
		}
	}
}

// TestTopKRowMatchesSort checks the contiguous-row path of TopK against
// the stable sort by better, on rows with ties, ±0, ±Inf and NaNs.
func TestTopKRowMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	pool := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 0.5}
	for trial := 0; trial < 2000; trial++ {
		size := 1 + r.IntN(12)
		x := make([]float32, size)
		for i := range x {
			if r.IntN(2) == 0 {
				x[i] = pool[r.IntN(len(pool))]
			} else {
				x[i] = r.Float32()*4 - 2
			}
		}
		k := r.IntN(size + 1)
		largest := r.IntN(2) == 0
		gotV, gotI := make([]float32, k), make([]int64, k)
		var keys [topKInsertionMax]uint32
		topKRow(gotV, gotI, x, largest, &keys)
		wantV, wantI := make([]float32, k), make([]int64, k)
		topKSort(wantV, wantI, x, make([]int, size), 0, 0, 1, k, largest)
		for i := range k {
			if math.Float32bits(gotV[i]) != math.Float32bits(wantV[i]) || gotI[i] != wantI[i] {
				t.Fatalf("row %v, k %d, largest %v: got %v %v, want %v %v", x, k, largest, gotV, gotI, wantV, wantI)
			}
		}
	}
}
