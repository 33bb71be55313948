package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// attentionCase is one Attention test: n samples of l queries over s keys,
// heads of d, the heads at column offsets of q, k and v (c columns each),
// and the score program's extra inputs.
type attentionCase struct {
	n, l, s, heads, d int
	cq, ck, cv        int // columns of q, k and v
	qCol, kCol, vCol  int
	extras            [][]int // shapes; a 2-dim one is a bool mask
	padding           bool    // a last bool extra [N, 1, 1, S] masking each sample's last keys
}

func (c attentionCase) String() string {
	return fmt.Sprintf("n %d l %d s %d heads %d×%d cols %d/%d %d/%d %d/%d extras %v", c.n, c.l, c.s, c.heads, c.d, c.qCol, c.cq, c.kCol, c.ck, c.vCol, c.cv, c.extras)
}

// attentionArgs are a case's random operands and score program: scores
// divided by 8, plus each float extra, the bool extra masking with −Inf.
type attentionArgs struct {
	q, k, v *Array
	extras  []*Array
	program *ElementwiseProgram
}

func newAttentionArgs(r *rand.Rand, c attentionCase) attentionArgs {
	a := attentionArgs{q: randArray(r, c.n, c.l, c.cq), k: randArray(r, c.n, c.s, c.ck), v: randArray(r, c.n, c.s, c.cv)}
	steps := []ElementwiseStep{{Op: ElemDivScalar, A: 0, C: 8}}
	inputs := 1 + len(c.extras)
	if c.padding {
		inputs++
	}
	last := inputs // the first step's register
	for i, shape := range c.extras {
		if len(shape) == 2 {
			m := NewArray(Bool, shape...)
			for j := range m.B {
				m.B[j] = j%shape[1] > j/shape[1] // causal: keys after the query
			}
			a.extras = append(a.extras, m)
			steps = append(steps, ElementwiseStep{Op: ElemMaskedFill, A: last, B: 1 + i, C: float32(math.Inf(-1))})
		} else {
			a.extras = append(a.extras, randArray(r, shape...))
			steps = append(steps, ElementwiseStep{Op: ElemAdd, A: last, B: 1 + i})
		}
		last++
	}
	if c.padding {
		m := NewArray(Bool, c.n, 1, 1, c.s)
		for i := range c.n {
			for j := range c.s {
				m.B[i*c.s+j] = j >= c.s-1-i%3 && j > 0 // each sample keeps key 0
			}
		}
		a.extras = append(a.extras, m)
		steps = append(steps, ElementwiseStep{Op: ElemMaskedFill, A: last, B: inputs - 1, C: float32(math.Inf(-1))})
	}
	a.program = NewElementwiseProgram(inputs, steps)
	return a
}

// ref computes the case with reference loops for the products and the
// program's RunSoftmax on the whole [N, H, L, S] scores.
func (a attentionArgs) ref(c attentionCase) *Array {
	scores := NewArray(Float32, c.n, c.heads, c.l, c.s)
	for i := range c.n {
		for h := range c.heads {
			for x := range c.l {
				for y := range c.s {
					var sum float64
					for t := range c.d {
						sum += float64(a.q.F32[(i*c.l+x)*c.cq+c.qCol+h*c.d+t]) * float64(a.k.F32[(i*c.s+y)*c.ck+c.kCol+h*c.d+t])
					}
					scores.F32[((i*c.heads+h)*c.l+x)*c.s+y] = float32(sum)
				}
			}
		}
	}
	probs := NewArray(Float32, scores.Shape...)
	inputs := []*Array{scores}
	for _, x := range a.extras {
		full := NewArray(x.DType, scores.Shape...)
		ExpandAs(full, withRank(x, 4), scores)
		inputs = append(inputs, full)
	}
	a.program.RunSoftmax(probs, inputs)
	out := NewArray(Float32, c.n, c.l, c.heads*c.d)
	for i := range c.n {
		for h := range c.heads {
			for x := range c.l {
				for t := range c.d {
					var sum float64
					for y := range c.s {
						sum += float64(probs.F32[((i*c.heads+h)*c.l+x)*c.s+y]) * float64(a.v.F32[(i*c.s+y)*c.cv+c.vCol+h*c.d+t])
					}
					out.F32[(i*c.l+x)*c.heads*c.d+h*c.d+t] = float32(sum)
				}
			}
		}
	}
	return out
}

func (a attentionArgs) run(out *Array, c attentionCase) {
	Attention(out, a.q, a.k, a.v, a.extras, a.program, c.heads, c.d, c.qCol, c.kCol, c.vCol)
}

// attentionCases: one projection holding q, k and v (the transformer's,
// causal mask); separate arrays at offsets; keys unlike queries in number;
// extras per sample and head, per head, with leading 1s, and a scalar; no
// keys at all.
var attentionCases = []attentionCase{
	{2, 16, 16, 4, 8, 96, 96, 96, 0, 32, 64, [][]int{{16, 16}}, false},
	{1, 7, 7, 1, 16, 16, 16, 16, 0, 0, 0, nil, false},
	{3, 5, 9, 2, 8, 20, 17, 24, 3, 1, 8, [][]int{{3, 2, 5, 9}, {2, 5, 9}}, false},
	{2, 33, 33, 3, 5, 15, 15, 15, 0, 0, 0, [][]int{{1, 1, 33, 33}, {1}, {33, 33}}, false},
	{1, 1, 4, 2, 4, 8, 8, 8, 0, 0, 0, [][]int{{4}}, false},
	{2, 3, 0, 2, 4, 8, 8, 8, 0, 0, 0, nil, false}, // no keys: zeros, as PyTorch
	// Extras per sample broadcast over heads, per sample and head over
	// queries, and a padding mask.
	{3, 6, 7, 2, 8, 16, 16, 16, 0, 0, 0, [][]int{{3, 1, 6, 7}, {1, 3, 2, 1, 7}}, true},
	{1, 5, 5, 3, 4, 12, 12, 12, 0, 0, 0, [][]int{{1, 3, 1, 5}}, true},
	{2, 6, 9, 2, 4, 8, 8, 8, 0, 0, 0, nil, true}, // the padding skipped
}

// TestAttentionAgainstReference checks Attention against reference loops
// (and the program's RunSoftmax over the whole scores), every element of
// out written (it starts as NaN), and the rows a causal mask leaves whole.
func TestAttentionAgainstReference(t *testing.T) { forEachISA(t, testAttentionAgainstReference) }

func testAttentionAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, c := range attentionCases {
		a := newAttentionArgs(r, c)
		want := a.ref(c)
		got := nanArray(want.Shape...)
		a.run(got, c)
		if err := closeArrays(got, want, 1e-5); err != nil {
			t.Fatalf("%v: %v", c, err)
		}
	}
}

// TestAttentionWorkersAgree checks that 1, 2 and 3 workers give the same
// bits, the samples and heads spread over them.
func TestAttentionWorkersAgree(t *testing.T) { forEachISA(t, testAttentionWorkersAgree) }

func testAttentionWorkersAgree(t *testing.T) {
	splitSmallWork(t)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(23, 24))
	c := attentionCases[0]
	a := newAttentionArgs(r, c)
	first := convOnWorkers(t, c.String(), []int{c.n, c.l, c.heads * c.d}, func(_ int, out *Array) { a.run(out, c) })
	if err := closeArrays(first, a.ref(c), 1e-5); err != nil {
		t.Fatal(err)
	}
}

// TestAttentionPanics checks the checks of shapes, columns and the program.
func TestAttentionPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	c := attentionCases[0]
	a := newAttentionArgs(r, c)
	out := NewArray(Float32, c.n, c.l, c.heads*c.d)
	for _, tc := range []struct {
		what string
		call func()
	}{
		{"heads at columns 65 … 96", func() { Attention(out, a.q, a.k, a.v, a.extras, a.program, c.heads, c.d, 65, 32, 64) }},
		{"want its last dim heads·headDim", func() { Attention(out, a.q, a.k, a.v, a.extras, a.program, 5, c.d, 0, 32, 64) }},
		{"program for 2 inputs", func() { Attention(out, a.q, a.k, a.v, nil, a.program, c.heads, c.d, 0, 32, 64) }},
		{"does not broadcast", func() {
			Attention(out, a.q, a.k, a.v, []*Array{NewArray(Bool, 16, 15)}, a.program, c.heads, c.d, 0, 32, 64)
		}},
		{"shares memory", func() { Attention(a.q, a.q, a.k, a.v, a.extras, a.program, c.heads, 24, 0, 0, 0) }},
		// A float padding mask after the causal one: Attention reads the
		// masks to skip keys before the program checks its inputs.
		{"extra: got dtype f32, want bool", func() {
			const l, d = 96, 8 // rows enough for the causal mask to skip keys
			p := NewElementwiseProgram(3, []ElementwiseStep{{Op: ElemMaskedFill, A: 0, B: 1, C: float32(math.Inf(-1))},
				{Op: ElemMaskedFill, A: 3, B: 2, C: float32(math.Inf(-1))}})
			causal := NewArray(Bool, l, l)
			for i := range causal.B {
				causal.B[i] = i%l > i/l
			}
			x := randArray(r, 1, l, d)
			Attention(NewArray(Float32, 1, l, d), x, x, x, []*Array{causal, NewArray(Float32, 1, 1, 1, l)}, p, 1, d, 0, 0, 0)
		}},
		{"want [N, L, ·], [N, S, ·]", func() {
			Attention(out, a.q, a.k, randArray(r, 2, 15, 96), a.extras, a.program, c.heads, c.d, 0, 32, 64)
		}},
	} {
		func() {
			defer func() {
				if msg := fmt.Sprint(recover()); !strings.Contains(msg, tc.what) {
					t.Errorf("panic %q, want one saying %q", msg, tc.what)
				}
			}()
			tc.call()
		}()
	}
}

// TestAttentionAllocs checks that a call allocates nothing once the pools
// are warm on one worker; split over two, a pooled buffer may move
// between the workers' goroutines and be made again, once a call at most.
func TestAttentionAllocs(t *testing.T) { forEachISA(t, testAttentionAllocs) }

func testAttentionAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	splitSmallWork(t)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(29, 30))
	for _, workers := range []int{1, 2} {
		SetWorkers(workers)
		for _, c := range attentionCases {
			a := newAttentionArgs(r, c)
			out := NewArray(Float32, c.n, c.l, c.heads*c.d)
			a.run(out, c) // warm up the pools
			if n := leastAllocs(10, func() { a.run(out, c) }); n > float64(workers-1) {
				t.Errorf("%v, %d workers: %v allocations a call, want at most %d", c, workers, n, workers-1)
			}
		}
	}
}

// withRank returns x with its leading 1s dropped down to rank dims (a view
// of the same elements), for kernels that take no more dims than their
// result has.
func withRank(x *Array, rank int) *Array {
	shape := x.Shape
	for len(shape) > rank && shape[0] == 1 {
		shape = shape[1:]
	}
	return &Array{DType: x.DType, Shape: shape, F32: x.F32, I64: x.I64, B: x.B}
}
