package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// specialValues puts NaN, ±Inf and zeros of both signs at the start of a.
func specialValues(a *Array) {
	sp := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1))}
	copy(a.F32, sp)
}

// sameBits reports the first element where got and want differ in bits
// (any NaN equals any NaN), or -1.
func sameBits(got, want []float32) int {
	for i := range want {
		g, w := got[i], want[i]
		if math.Float32bits(g) != math.Float32bits(w) && !(g != g && w != w) {
			return i
		}
	}
	return -1
}

// TestElementwiseProgram runs a program covering every operation, with a
// full, a scalar and a suffix input and a mask, against the kernels called
// one after the other, for sizes around the chunk and block lengths.
func TestElementwiseProgram(t *testing.T) { forEachISA(t, testElementwiseProgram) }

func testElementwiseProgram(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, rows := range []int{1, 2, 5, 33} {
		for _, cols := range []int{1, 7, 128, 1000} {
			x, y := randArray(r, rows, cols), randArray(r, rows, cols)
			specialValues(x)
			s := Float32Scalar(0.75)
			bias := randArray(r, 1, cols)
			mask := NewArray(Bool, cols)
			for i := range mask.B {
				mask.B[i] = r.IntN(3) == 0
			}
			// Registers: 0 x, 1 y, 2 s, 3 bias, 4 mask.
			steps := []ElementwiseStep{
				{Op: ElemAdd, A: 0, B: 3},                                   // 5 = x + bias
				{Op: ElemSigmoid, A: 5},                                     // 6
				{Op: ElemTanh, A: 1},                                        // 7
				{Op: ElemMul, A: 6, B: 7},                                   // 8
				{Op: ElemSub, A: 2, B: 8},                                   // 9 = s - 8
				{Op: ElemDiv, A: 9, B: 2},                                   // 10 = 9 / s
				{Op: ElemMul, A: 2, B: 10},                                  // 11 = s · 10
				{Op: ElemDivScalar, A: 11, C: 8},                            // 12
				{Op: ElemMaskedFill, A: 12, B: 4, C: float32(math.Inf(-1))}, // 13
				{Op: ElemScalarSub, A: 0, C: 1},                             // 14 = 1 - x
				{Op: ElemGelu, A: 14},                                       // 15
				{Op: ElemRelu, A: 15},                                       // 16
				{Op: ElemNeg, A: 16},                                        // 17
				{Op: ElemAddScalar, A: 17, C: 0.5},                          // 18
				{Op: ElemScalarDiv, A: 18, C: 2},                            // 19
				{Op: ElemAdd, A: 19, B: 13},                                 // 20
			}
			p := NewElementwiseProgram(5, steps)
			got := NewArray(Float32, rows, cols)
			p.Run(got, []*Array{x, y, s, bias, mask})

			want := make([]*Array, 21)
			copy(want, []*Array{x, y, s, bias, mask})
			c := func(v float32) *Array { return Float32Scalar(v) }
			for k, st := range steps {
				o := NewArray(Float32, rows, cols)
				a, b := want[st.A], want[st.B]
				switch st.Op {
				case ElemAdd:
					Add(o, a, b)
				case ElemSub:
					Sub(o, a, b)
				case ElemMul:
					Mul(o, a, b)
				case ElemDiv:
					Div(o, a, b)
				case ElemAddScalar:
					Add(o, a, c(st.C))
				case ElemDivScalar:
					Div(o, a, c(st.C))
				case ElemScalarSub:
					Sub(o, c(st.C), a)
				case ElemScalarDiv:
					Div(o, c(st.C), a)
				case ElemMaskedFill:
					MaskedFill(o, a, b, float64(st.C))
				case ElemSigmoid:
					Sigmoid(o, a)
				case ElemTanh:
					Tanh(o, a)
				case ElemGelu:
					Gelu(o, a)
				case ElemRelu:
					Relu(o, a)
				case ElemNeg:
					Neg(o, a)
				default:
					t.Fatalf("no reference for %v", st.Op)
				}
				want[5+k] = o
			}
			if i := sameBits(got.F32, want[20].F32); i >= 0 {
				t.Fatalf("%dx%d: element %d: got %v, want %v", rows, cols, i, got.F32[i], want[20].F32[i])
			}
		}
	}
}

// TestElementwiseProgramUnary runs a chain of every unary step of the
// later activations and requires the bits of the standalone kernels.
func TestElementwiseProgramUnary(t *testing.T) { forEachISA(t, testElementwiseProgramUnary) }

func testElementwiseProgramUnary(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	kernels := map[ElementwiseOp]func(out, x *Array){
		ElemSilu: Silu, ElemGeluTanh: GeluTanh, ElemExp: Exp, ElemRelu6: Relu6, ElemHardswish: Hardswish,
		ElemHardsigmoid: Hardsigmoid, ElemAbs: Abs, ElemSqrt: Sqrt, ElemRsqrt: Rsqrt, ElemLog: Log,
	}
	for _, n := range []int{1, 7, 8, 33, 1000, 70000} {
		x := randArray(r, n)
		for i := range x.F32 {
			x.F32[i] *= 8
		}
		specialValues(x)
		// Each op on x and on -x, so that both signs reach each.
		for op, kernel := range kernels {
			for _, negated := range []bool{false, true} {
				steps := []ElementwiseStep{{Op: op, A: 0}}
				in := x
				if negated {
					steps = []ElementwiseStep{{Op: ElemNeg, A: 0}, {Op: op, A: 1}}
					in = NewArray(Float32, n)
					Neg(in, x)
				}
				got := NewArray(Float32, n)
				NewElementwiseProgram(1, steps).Run(got, []*Array{x})
				want := NewArray(Float32, n)
				kernel(want, in)
				if i := sameBits(got.F32, want.F32); i >= 0 {
					t.Fatalf("%v (negated input %v), n=%d: element %d: got %v, want %v (x %v)", op, negated, n, i, got.F32[i], want.F32[i], in.F32[i])
				}
			}
		}
	}
}

// TestElementwiseProgramWorkers checks that the result does not depend on
// the number of workers and that a warmed-up run allocates nothing.
func TestElementwiseProgramWorkers(t *testing.T) {
	splitSmallWork(t)
	r := rand.New(rand.NewPCG(5, 6))
	x, y := randArray(r, 9, 5000), randArray(r, 5000)
	p := NewElementwiseProgram(2, []ElementwiseStep{{Op: ElemMul, A: 0, B: 1}, {Op: ElemSigmoid, A: 2}, {Op: ElemAdd, A: 3, B: 0}})
	defer SetWorkers(Workers())
	var ref *Array
	for _, w := range []int{1, 2, 3} {
		SetWorkers(w)
		got := NewArray(Float32, 9, 5000)
		p.Run(got, []*Array{x, y})
		if ref == nil {
			ref = got
		} else if i := sameBits(got.F32, ref.F32); i >= 0 {
			t.Fatalf("%d workers: element %d: got %v, want %v", w, i, got.F32[i], ref.F32[i])
		}
		ins := []*Array{x, y}
		if raceEnabled {
			continue // sync.Pool drops items under the race detector
		}
		// (1 allocation a run in about one run of the package's tests in
		// ten on a loaded machine, when counted once.)
		least := leastAllocs(5, func() { p.Run(got, ins) })
		if least != 0 {
			t.Errorf("%d workers: %v allocations per run, want 0", w, least)
		}
	}
}

func TestElementwiseProgramRejects(t *testing.T) {
	for name, f := range map[string]func(){
		"register ahead": func() { NewElementwiseProgram(1, []ElementwiseStep{{Op: ElemAdd, A: 0, B: 1}}) },
		"mask not input": func() {
			NewElementwiseProgram(1, []ElementwiseStep{{Op: ElemNeg, A: 0}, {Op: ElemMaskedFill, A: 0, B: 1}})
		},
		"mask as number": func() {
			NewElementwiseProgram(2, []ElementwiseStep{{Op: ElemMaskedFill, A: 0, B: 1}, {Op: ElemAdd, A: 1, B: 2}})
		},
		"no steps": func() { NewElementwiseProgram(1, nil) },
		"bad broadcast": func() {
			p := NewElementwiseProgram(2, []ElementwiseStep{{Op: ElemAdd, A: 0, B: 1}})
			p.Run(NewArray(Float32, 4, 3), []*Array{NewArray(Float32, 4, 3), NewArray(Float32, 2, 3)})
		},
		"two broadcast runs": func() {
			p := NewElementwiseProgram(2, []ElementwiseStep{{Op: ElemAdd, A: 0, B: 1}})
			p.Run(NewArray(Float32, 4, 2, 3, 5), []*Array{NewArray(Float32, 4, 2, 3, 5), NewArray(Float32, 4, 1, 3, 1)})
		},
		"bad code": func() {
			FusedElementwise(NewArray(Float32, 2), []*Array{NewArray(Float32, 2)}, []int{99, 0, 0, 0}, false)
		},
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

// TestElementwiseProgramSoftmax checks RunSoftmax against Run followed by
// Softmax, bit for bit, with fully masked rows (NaN), rows longer than a
// block and any number of workers, on every tier.
func TestElementwiseProgramSoftmax(t *testing.T) { forEachISA(t, testElementwiseProgramSoftmax) }

func testElementwiseProgramSoftmax(t *testing.T) {
	splitSmallWork(t)
	defer SetWorkers(Workers())
	r := rand.New(rand.NewPCG(9, 9))
	p := NewElementwiseProgram(2, []ElementwiseStep{
		{Op: ElemDivScalar, A: 0, C: 8},
		{Op: ElemMaskedFill, A: 2, B: 1, C: float32(math.Inf(-1))},
	})
	for _, shape := range [][]int{{1}, {3, 7}, {2, 4, 128, 128}, {3, 5000}} {
		row := shape[len(shape)-1]
		x := randArray(r, shape...)
		specialValues(x)
		mask := NewArray(Bool, row)
		for i := range mask.B {
			mask.B[i] = r.IntN(2) == 0
		}
		if len(shape) == 4 {
			// Attention's causal mask, repeated over batch and heads; its
			// first row is fully masked.
			mask = NewArray(Bool, row, row)
			for i := 0; i < row; i++ {
				for k := 0; k < row; k++ {
					mask.B[i*row+k] = k >= i
				}
			}
		}
		want := NewArray(Float32, shape...)
		p.Run(want, []*Array{x, mask})
		Softmax(want, want.Clone(), -1)
		for _, w := range []int{1, 2} {
			SetWorkers(w)
			got := NewArray(Float32, shape...)
			p.RunSoftmax(got, []*Array{x, mask})
			if i := sameBits(got.F32, want.F32); i >= 0 {
				t.Fatalf("%v, %d workers: element %d: got %v, want %v", shape, w, i, got.F32[i], want.F32[i])
			}
		}
	}
}

// TestElementwiseProgramRepeat checks inputs that broadcast along one run
// of dims and the leading ones (a suffix, [N, 1, 1, S] padding masks,
// per-channel [C, 1, 1] scales, [N, C, 1, 1] ones, with leading dims
// repeated too) against ExpandAs and loops, on shapes whose runs cross the
// chunks of the program, on 1 and 2 workers, on every tier.
func TestElementwiseProgramRepeat(t *testing.T) { forEachISA(t, testElementwiseProgramRepeat) }

func testElementwiseProgramRepeat(t *testing.T) {
	defer SetWorkers(0)
	saved := elementwiseParallelMin
	elementwiseParallelMin = 1
	defer func() { elementwiseParallelMin = saved }()
	r := rand.New(rand.NewPCG(51, 52))
	// out = masked_fill(x + y, mask, -7)
	p := NewElementwiseProgram(3, []ElementwiseStep{{Op: ElemAdd, A: 0, B: 1}, {Op: ElemMaskedFill, A: 3, B: 2, C: -7}})
	for _, c := range []struct{ out, y, mask []int }{
		{[]int{3, 4, 5, 37}, []int{3, 1, 1, 37}, []int{3, 1, 1, 37}},
		{[]int{2, 6, 9, 11}, []int{6, 1, 1}, []int{1, 6, 9, 1}},
		{[]int{2, 6, 9, 11}, []int{2, 6, 1, 1}, []int{9, 11}},
		{[]int{5, 3, 100}, []int{3, 100}, []int{5, 1, 100}},
		{[]int{4, 700}, []int{4, 1}, []int{1, 700}},
		{[]int{2, 3, 4, 5, 6}, []int{1, 1, 3, 1, 1, 6}, []int{2, 3, 1, 1, 1}},
		{[]int{3, 2, 1, 5, 9}, []int{3, 1, 1, 1, 9}, []int{3, 1, 1, 1, 1}},
	} {
		x, y := randArray(r, c.out...), randArray(r, c.y...)
		mask := NewArray(Bool, c.mask...)
		for i := range mask.B {
			mask.B[i] = r.IntN(3) == 0
		}
		yy, mm := NewArray(Float32, c.out...), NewArray(Bool, c.out...)
		ExpandAs(yy, withRank(y, len(c.out)), x)
		ExpandAs(mm, mask, x)
		want := NewArray(Float32, c.out...)
		for i := range want.F32 {
			want.F32[i] = x.F32[i] + yy.F32[i]
			if mm.B[i] {
				want.F32[i] = -7
			}
		}
		for _, w := range []int{1, 2} {
			SetWorkers(w)
			got := nanArray(c.out...)
			p.Run(got, []*Array{x, y, mask})
			if err := closeArrays(got, want, 0); err != nil {
				t.Errorf("out %v, y %v, mask %v, %d workers: %v", c.out, c.y, c.mask, w, err)
			}
		}
	}
}

// TestRepeatLayout checks which shapes broadcast as a repeat, and how.
func TestRepeatLayout(t *testing.T) {
	for _, c := range []struct {
		in, out []int
		want    repeat
		ok      bool
	}{
		{[]int{4, 1, 1, 8}, []int{4, 2, 3, 8}, repeat{4, 6, 8}, true},
		{[]int{8}, []int{4, 2, 3, 8}, repeat{1, 1, 8}, true},
		{[]int{1, 1, 2, 1, 1}, []int{3, 2, 5, 7}, repeat{2, 35, 1}, true},
		{[]int{3, 8}, []int{4, 3, 8}, repeat{1, 1, 24}, true},
		{[]int{4, 1, 3, 1}, []int{4, 2, 3, 5}, repeat{}, false},
		{[]int{2, 8}, []int{4, 8}, repeat{}, false},
		{[]int{1, 5, 8}, []int{5, 8}, repeat{1, 1, 40}, true},
		{[]int{2, 5, 8}, []int{5, 8}, repeat{}, false},
		{[]int{4, 1, 1, 1, 8}, []int{4, 2, 1, 3, 8}, repeat{4, 6, 8}, true},
		{[]int{4, 1, 7, 1, 8}, []int{4, 2, 7, 3, 8}, repeat{}, false},
		{[]int{4, 2, 8}, []int{4, 1, 8}, repeat{}, false},
	} {
		got, ok := repeatLayout(c.in, c.out)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("%v to %v: %v %v, want %v %v", c.in, c.out, got, ok, c.want, c.ok)
		}
	}
}
