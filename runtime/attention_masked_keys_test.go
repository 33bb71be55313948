package runtime

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// maskedKeysCase is an Attention case whose score program ends in
// masked_fill(mask, -Inf), with the mask made by masked(query, key).
type maskedKeysCase struct {
	name     string
	c        attentionCase
	masked   func(i, j int) bool
	bias     bool // a shared [L, S] float extra and a scalar one before the mask
	poison   bool // infinities and NaNs in v at keys the mask cuts
	maskLast bool // the masked_fill is the last step (else an add follows)
	skips    bool // whether the units skip keys
	// padLens, when set, makes the mask a padding mask [N, 1, 1, S]
	// instead: sample i keeps its first padLens[i] keys but for holes in
	// odd samples (masked is not used, and bias adds one float element,
	// scaled, instead).
	padLens []int
	// causalToo, with padLens, puts the [L, S] mask of masked before the
	// padding mask (two masked_fill steps).
	causalToo bool
}

func (mc maskedKeysCase) args(r *rand.Rand) attentionArgs {
	c := mc.c
	a := attentionArgs{q: randArray(r, c.n, c.l, c.cq), k: randArray(r, c.n, c.s, c.ck), v: randArray(r, c.n, c.s, c.cv)}
	steps := []ElementwiseStep{{Op: ElemDivScalar, A: 0, C: 8}}
	last := 0
	if mc.bias {
		a.extras = append(a.extras, randArray(r, c.l, c.s), randArray(r, 1))
		if mc.padLens != nil {
			a.extras[0] = randArray(r, 1)
		}
	}
	var masks []*Array
	if mc.padLens == nil || mc.causalToo {
		mask := NewArray(Bool, c.l, c.s)
		for i := range c.l {
			for j := range c.s {
				mask.B[i*c.s+j] = mc.masked(i, j)
			}
		}
		masks = append(masks, mask)
	}
	if mc.padLens != nil {
		mask := NewArray(Bool, c.n, 1, 1, c.s)
		for i := range c.n {
			for j := range c.s {
				mask.B[i*c.s+j] = j >= mc.padLens[i] || i%2 == 1 && j%7 == 3 // holes in odd samples
			}
		}
		masks = append(masks, mask)
	}
	a.extras = append(a.extras, masks...)
	inputs := 1 + len(a.extras)
	last = inputs // the first step's register
	if mc.bias {
		steps = append(steps, ElementwiseStep{Op: ElemAdd, A: last, B: 1}, ElementwiseStep{Op: ElemMul, A: last + 1, B: 2})
		last += 2
	}
	for k := range masks {
		steps = append(steps, ElementwiseStep{Op: ElemMaskedFill, A: last, B: inputs - len(masks) + k, C: float32(math.Inf(-1))})
		last++
	}
	if !mc.maskLast {
		steps = append(steps, ElementwiseStep{Op: ElemAddScalar, A: last, C: 0.5})
	}
	a.program = NewElementwiseProgram(inputs, steps)
	if mc.poison {
		// Keys past every query's last: the causal blocks never read them.
		a.v.F32[(1*c.s+c.s-1)*c.cv+c.vCol+3] = float32(math.Inf(1))
		a.v.F32[(0*c.s+c.s-2)*c.cv+c.vCol+c.d+5] = float32(math.NaN())
	}
	return a
}

var maskedKeysCases = []maskedKeysCase{
	{name: "causal", c: attentionCase{2, 70, 70, 2, 8, 48, 48, 48, 0, 16, 32, nil, false},
		masked: func(i, j int) bool { return j > i }, maskLast: true, skips: true},
	{name: "causal, infinities and NaNs in v", c: attentionCase{2, 70, 70, 2, 8, 48, 48, 48, 0, 16, 32, nil, false},
		masked: func(i, j int) bool { return j > i }, poison: true, maskLast: true, skips: true},
	{name: "window with holes, more keys, bias", c: attentionCase{2, 50, 80, 3, 8, 24, 24, 24, 0, 0, 0, nil, false},
		masked: func(i, j int) bool { return j > i+30 || i%2 == 0 && j%7 == 3 }, bias: true, maskLast: true, skips: true},
	{name: "a row masked whole", c: attentionCase{1, 70, 70, 1, 8, 8, 8, 8, 0, 0, 0, nil, false},
		masked: func(i, j int) bool { return j > i || i == 5 }, maskLast: true},
	{name: "mask not last", c: attentionCase{1, 70, 70, 1, 8, 8, 8, 8, 0, 0, 0, nil, false},
		masked: func(i, j int) bool { return j > i }},
	{name: "nothing masked", c: attentionCase{1, 70, 70, 1, 8, 8, 8, 8, 0, 0, 0, nil, false},
		masked: func(i, j int) bool { return false }, maskLast: true},
	{name: "padding", c: attentionCase{3, 20, 70, 2, 8, 48, 48, 48, 0, 16, 32, nil, false},
		padLens: []int{30, 40, 12}, maskLast: true, skips: true},
	{name: "padding, a sample padded whole, a scalar extra", c: attentionCase{3, 20, 70, 2, 8, 48, 48, 48, 0, 16, 32, nil, false},
		padLens: []int{30, 0, 12}, bias: true, maskLast: true, skips: true},
	{name: "padding, infinities and NaNs in v", c: attentionCase{2, 20, 70, 2, 8, 48, 48, 48, 0, 16, 32, nil, false},
		padLens: []int{60, 12}, poison: true, maskLast: true, skips: true},
	{name: "padding, one sample", c: attentionCase{1, 9, 70, 3, 8, 24, 24, 24, 0, 0, 0, nil, false},
		padLens: []int{33}, maskLast: true, skips: true},
	{name: "padding, most keys kept", c: attentionCase{2, 9, 70, 1, 8, 8, 8, 8, 0, 0, 0, nil, false},
		padLens: []int{70, 69}, maskLast: true},
	{name: "causal, then padding", c: attentionCase{4, 70, 70, 2, 8, 48, 48, 48, 0, 16, 32, nil, false},
		masked: func(i, j int) bool { return j > i }, padLens: []int{70, 40, 9, 0}, causalToo: true, maskLast: true, skips: true},
	{name: "causal, then padding, bias, poison", c: attentionCase{2, 70, 70, 2, 8, 48, 48, 48, 0, 16, 32, nil, false},
		masked: func(i, j int) bool { return j > i }, padLens: []int{50, 66}, causalToo: true, bias: true, poison: true, maskLast: true, skips: true},
}

// TestAttentionMaskedKeys checks Attention against the reference loops
// where its units skip the keys a mask cuts (a causal mask; a window with
// holes inside it and more keys than queries; infinities and NaNs in v at
// cut keys, which make NaNs) and where they must not (a query row masked
// whole, the mask not the program's last step, nothing masked), that
// they skip exactly where they should, and that one worker allocates
// nothing once warm.
func TestAttentionMaskedKeys(t *testing.T) { forEachISA(t, testAttentionMaskedKeys) }

func testAttentionMaskedKeys(t *testing.T) {
	splitSmallWork(t)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(41, 42))
	for _, mc := range maskedKeysCases {
		c := mc.c
		a := mc.args(r)
		j := attentionJob{program: a.program, n: c.n, l: c.l, s: c.s, nExtras: len(a.extras)}
		for x, e := range a.extras {
			j.extras[x] = newAttentionExtra("test", e, c.n, c.heads, c.l, c.s)
		}
		if m := maskedKeys(&j); (m != nil) != mc.skips {
			t.Errorf("%s: skips keys %v, want %v", mc.name, m != nil, mc.skips)
		}
		want := a.ref(c)
		for _, workers := range []int{1, 2} {
			SetWorkers(workers)
			got := nanArray(want.Shape...)
			a.run(got, c)
			if err := closeArrays(got, want, 1e-5); err != nil {
				t.Errorf("%s, %d workers: %v", mc.name, workers, err)
			}
			// Warm, one worker allocates nothing (the blocks, the copies
			// of the extras and the packed keys are pooled); see
			// testAttentionAllocs for two.
			if workers == 1 && !raceEnabled {
				if n := leastAllocs(5, func() { a.run(got, c) }); n != 0 {
					t.Errorf("%s: %v allocations a call, want 0", mc.name, n)
				}
			}
		}
	}
}

// TestKeptKeys checks keptKeys against a loop, for rows of every length
// up to 20 with the last false element anywhere.
func TestKeptKeys(t *testing.T) {
	for n := range 21 {
		for last := -1; last < n; last++ {
			row := make([]bool, n)
			for i := range row {
				row[i] = i > last || i%3 == 0
			}
			if last >= 0 {
				row[last] = false
			}
			if got := keptKeys(row); got != last+1 {
				t.Errorf("row %v: %d, want %d", row, got, last+1)
			}
		}
	}
}

// TestAttentionPaddingTwice checks a program that adds a shared bias and
// applies one padding mask twice, with as many samples as queries: it must not take the padding
// mask for a shared [L, S] one (it did, reading row r's keys from sample
// r's padding).
func TestAttentionPaddingTwice(t *testing.T) { forEachISA(t, testAttentionPaddingTwice) }

func testAttentionPaddingTwice(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	c := attentionCase{48, 48, 48, 1, 8, 8, 8, 8, 0, 0, 0, nil, false}
	a := attentionArgs{q: randArray(r, c.n, c.l, c.cq), k: randArray(r, c.n, c.s, c.ck), v: randArray(r, c.n, c.s, c.cv)}
	mask := NewArray(Bool, c.n, 1, 1, c.s)
	for i := range c.n {
		for j := range c.s {
			mask.B[i*c.s+j] = i < 28 && j >= 4
		}
	}
	// A shared bias too, so that the padding alone (paddedKeys) does not
	// take the program.
	a.extras = []*Array{randArray(r, c.l, c.s), mask}
	inf := float32(math.Inf(-1))
	a.program = NewElementwiseProgram(3, []ElementwiseStep{{Op: ElemDivScalar, A: 0, C: 8}, {Op: ElemAdd, A: 3, B: 1},
		{Op: ElemMaskedFill, A: 4, B: 2, C: inf}, {Op: ElemMaskedFill, A: 5, B: 2, C: inf}})
	want := a.ref(c)
	got := nanArray(want.Shape...)
	a.run(got, c)
	if err := closeArrays(got, want, 1e-5); err != nil {
		t.Fatal(err)
	}
}

// TestFiniteFrom checks the test that sends a unit whose skipped v rows
// hold an infinity or NaN down the whole path: finite rows pass, and an
// Inf or NaN in any row from first on fails, one before first does not.
func TestFiniteFrom(t *testing.T) { forEachISA(t, testFiniteFrom) }

func testFiniteFrom(t *testing.T) {
	r := rand.New(rand.NewPCG(63, 64))
	const l, s, d, cv = 5, 40, 12, 20
	v := randArray(r, s, cv)
	j := attentionJob{v: v.F32, l: l, s: s, d: d, cv: cv}
	buf := make([]float32, 2*l*s+s+d)
	for _, first := range []int{0, 7, 39, 40} {
		if !j.finiteFrom(buf, 3, first) {
			t.Errorf("first %d: finite rows reported non-finite", first)
		}
		for _, bad := range []float32{float32(math.Inf(1)), float32(math.NaN())} {
			for _, row := range []int{first - 1, first, s - 1} {
				if row < 0 || row >= s {
					continue
				}
				at := row*cv + 3 + d - 1
				saved := v.F32[at]
				v.F32[at] = bad
				if got, want := j.finiteFrom(buf, 3, first), row < first; got != want {
					t.Errorf("first %d, %v in row %d: finite %v, want %v", first, bad, row, got, want)
				}
				v.F32[at] = saved
			}
		}
	}
}

// TestAttentionKeptRows checks that the blocks of a causal mask, which
// run the program without its masked_fill and a softmax over each query
// row's kept keys alone, give the bits of the blocks' whole rows masked to
// -Inf (the same program with the mask applied twice, which the kept rows
// do not take): with the scores scaled, biased or taken as they are, with
// infinities and NaNs in v, and with rows whose kept scores hold a NaN or
// +Inf or are all -Inf.
func TestAttentionKeptRows(t *testing.T) { forEachISA(t, testAttentionKeptRows) }

func testAttentionKeptRows(t *testing.T) {
	SetWorkers(1)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(43, 44))
	causal := func(i, j int) bool { return j > i }
	c := attentionCase{2, 70, 70, 2, 8, 48, 48, 48, 0, 16, 32, nil, false}
	keptRows := func(a attentionArgs) bool {
		j := attentionJob{program: a.program, n: c.n, l: c.l, s: c.s, nExtras: len(a.extras)}
		for x, e := range a.extras {
			j.extras[x] = newAttentionExtra("test", e, c.n, c.heads, c.l, c.s)
		}
		m := maskedKeys(&j)
		if m == nil {
			t.Fatal("the units do not skip keys")
		}
		defer maskedKeysPool.Put(m)
		return m.keptRows
	}
	for _, name := range []string{"scaled", "biased", "poisoned", "special rows", "mask alone"} {
		mc := maskedKeysCase{c: c, masked: causal, maskLast: true, bias: name == "biased" || name == "special rows", poison: name == "poisoned"}
		a := mc.args(r)
		switch name {
		case "special rows":
			bias := a.extras[0].F32
			bias[5*c.s+2] = float32(math.NaN())
			for k := range 10 {
				bias[9*c.s+k] = float32(math.Inf(-1))
			}
			bias[13*c.s+4] = float32(math.Inf(1)) // +Inf - +Inf: NaNs, the cut keys' too
			a.extras[1].F32[0] = 2                // keeps ±Inf as they are
		case "mask alone":
			a.program = NewElementwiseProgram(2, []ElementwiseStep{{Op: ElemMaskedFill, A: 0, B: 1, C: float32(math.Inf(-1))}})
		}
		whole := a
		steps := a.program.steps
		last := steps[len(steps)-1]
		last.A = a.program.inputs + len(steps) - 1
		whole.program = NewElementwiseProgram(a.program.inputs, append(slices.Clone(steps), last))
		if !keptRows(a) || keptRows(whole) {
			t.Fatalf("%s: the kept rows are not taken where they should be, or taken twice masked", name)
		}
		want := nanArray(c.n, c.l, c.heads*c.d)
		whole.run(want, c)
		got := nanArray(want.Shape...)
		a.run(got, c)
		for i, w := range want.F32 {
			if g := got.F32[i]; math.Float32bits(g) != math.Float32bits(w) && !(g != g && w != w) {
				t.Fatalf("%s: element %d is %v, the whole rows give %v", name, i, g, w)
			}
		}
		if name == "special rows" && !slices.ContainsFunc(want.F32, func(v float32) bool { return v != v }) {
			t.Errorf("%s: no NaN in the result", name)
		}
	}
}

// TestMaskedLastStep checks which programs Attention may run without their
// last step, a masked_fill(-Inf) of the value before it.
func TestMaskedLastStep(t *testing.T) {
	inf := float32(math.Inf(-1))
	for _, c := range []struct {
		name   string
		inputs int
		steps  []ElementwiseStep
		want   bool
	}{
		{"scores masked", 2, []ElementwiseStep{{Op: ElemMaskedFill, A: 0, B: 1, C: inf}}, true},
		{"scaled, masked", 2, []ElementwiseStep{{Op: ElemDivScalar, A: 0, C: 8}, {Op: ElemMaskedFill, A: 2, B: 1, C: inf}}, true},
		{"another input masked", 3, []ElementwiseStep{{Op: ElemMaskedFill, A: 2, B: 1, C: inf}}, false},
		{"an earlier value masked", 2, []ElementwiseStep{{Op: ElemDivScalar, A: 0, C: 8}, {Op: ElemNeg, A: 2}, {Op: ElemMaskedFill, A: 2, B: 1, C: inf}}, false},
		{"filled with 0", 2, []ElementwiseStep{{Op: ElemDivScalar, A: 0, C: 8}, {Op: ElemMaskedFill, A: 2, B: 1, C: 0}}, false},
		{"mask read before", 2, []ElementwiseStep{{Op: ElemMaskedFill, A: 0, B: 1, C: 0}, {Op: ElemMaskedFill, A: 2, B: 1, C: inf}}, false},
		{"another mask before", 3, []ElementwiseStep{{Op: ElemMaskedFill, A: 0, B: 2, C: inf}, {Op: ElemMaskedFill, A: 3, B: 1, C: inf}}, true},
		{"mask not last", 2, []ElementwiseStep{{Op: ElemMaskedFill, A: 0, B: 1, C: inf}, {Op: ElemAddScalar, A: 2, C: 1}}, false},
	} {
		p := NewElementwiseProgram(c.inputs, c.steps)
		if p.maskedLast != c.want {
			t.Errorf("%s: maskedLast %v, want %v", c.name, p.maskedLast, c.want)
		}
		if want := c.want && len(c.steps) > 1; (p.unmasked != nil) != want || want && !slices.Equal(p.unmasked.steps, c.steps[:len(c.steps)-1]) {
			t.Errorf("%s: unmasked %v, want the steps before the last: %v", c.name, p.unmasked, want)
		}
	}
}
