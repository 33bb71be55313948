// This file holds the tests every compiled zoo model shares: compiled
// against eager on every kernel tier, one compiled model shared by many
// goroutines, allocations per call on every tier, and weights loaded after
// compiling.

package testutil

import (
	"cmp"
	"fmt"
	"math"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// Forward is a model's Forward (eager or compiled) over its tensor inputs
// and results, whatever its own signature.
type Forward = fxgentest.Func

// Compiled describes one model and its generated code to the shared tests.
type Compiled struct {
	// New returns a fresh eager model with random parameters.
	New func() any
	// Eager and Compile return the model's own Forward and the Forward of
	// the model compiled by its generated constructor.
	Eager, Compile func(m any) Forward
	// Inputs returns random inputs of batch size n from seed.
	Inputs func(n int, seed uint64) []*tensor.Tensor
	// Batches are the batch sizes the tests use, mixed; the first, the
	// smallest, is the one allocations are counted at.
	Batches []int
	// Tolerance bounds |compiled - eager| relative to max(1, max|eager|)
	// for float results; integer results must be equal.
	Tolerance float64
	// CallsPerGoroutine is how many calls each of Concurrent's 8
	// goroutines makes (4 when 0); AllocRuns how many calls
	// AllocsEveryTier averages over (5 when 0). Large models set fewer.
	CallsPerGoroutine, AllocRuns int
}

// MatchesEagerEveryTier checks compiled against eager Forward on random
// inputs of every batch size, on every kernel tier, the compiled model
// built under that tier. In a build with assembly, the generic tier runs
// the first batch size only: it is slow, and the -tags noasm build, which
// CI also tests, runs it on every batch size.
func (c *Compiled) MatchesEagerEveryTier(t *testing.T) {
	ForEachISA(t, func(t *testing.T) {
		m := c.New()
		eager, compiled := c.Eager(m), c.Compile(m)
		batches := append(c.Batches, c.Batches[0]) // the first again: the workspace shrinks back
		if runtime.CurrentISA() == runtime.ISAGeneric && runtime.CPUISA() != runtime.ISAGeneric {
			batches = c.Batches[:1]
		}
		for i, n := range batches {
			in := c.Inputs(n, uint64(100+i))
			if err := c.close(compiled(in), eager(in)); err != nil {
				t.Errorf("N=%d: %v", n, err)
			}
		}
	})
}

func (c *Compiled) close(got, want []*tensor.Tensor) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d results, want %d", len(got), len(want))
	}
	for i := range got {
		tol := c.Tolerance
		if want[i].DType() != runtime.Float32 {
			tol = 0
		}
		if err := Close(got[i], want[i], tol); err != nil {
			return fmt.Errorf("result %d: %v", i, err)
		}
	}
	return nil
}

// Concurrent checks that one compiled model called from 8 goroutines at
// once, with mixed batch sizes, gives results bit-identical to serial
// calls. Run it under -race (also with -tags noasm: the race detector does
// not see inside assembly).
func (c *Compiled) Concurrent(t *testing.T) {
	m := c.New()
	compiled := c.Compile(m)
	type call struct {
		in   []*tensor.Tensor
		want []*tensor.Tensor
	}
	var calls []call
	for i, n := range c.Batches {
		for s := range 2 {
			in := c.Inputs(n, uint64(1000+10*i+s))
			calls = append(calls, call{in, clone(compiled(in))})
		}
	}
	const goroutines = 8
	perGoroutine := cmp.Or(c.CallsPerGoroutine, 4)
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*perGoroutine)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range perGoroutine {
				k := (g*perGoroutine + j*3) % len(calls)
				got := compiled(calls[k].in)
				if err := identical(got, calls[k].want); err != nil {
					errs <- fmt.Errorf("goroutine %d, call %d (N=%d): %v", g, j, calls[k].in[0].Shape()[0], err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// WorkersAgreeEveryTier checks that the compiled model gives the same
// bits on one worker as on two, for the largest of Batches, on every
// kernel tier (the generic one where it is the CPU's only tier): a model
// that runs its batch a slice at a time on one worker (plan.BatchChunk)
// must compute what the whole batch does.
func (c *Compiled) WorkersAgreeEveryTier(t *testing.T) {
	ForEachISA(t, func(t *testing.T) {
		if runtime.CurrentISA() == runtime.ISAGeneric && runtime.CPUISA() != runtime.ISAGeneric {
			t.Skip("the generic tier runs in the -tags noasm build")
		}
		defer runtime.SetWorkers(0)
		compiled := c.Compile(c.New())
		in := c.Inputs(slices.Max(c.Batches), 3)
		runtime.SetWorkers(1)
		want := clone(compiled(in))
		runtime.SetWorkers(2)
		if err := identical(compiled(in), want); err != nil {
			t.Errorf("N=%d, 2 workers against 1: %v", slices.Max(c.Batches), err)
		}
	})
}

// clone copies results so that later calls cannot change them.
func clone(ts []*tensor.Tensor) []*tensor.Tensor {
	out := make([]*tensor.Tensor, len(ts))
	for i, x := range ts {
		out[i] = tensor.FromArray(x.Array().Clone())
	}
	return out
}

// identical reports the first element where got and want differ in bits.
func identical(got, want []*tensor.Tensor) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d results, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i].Array(), want[i].Array()
		if g.DType != w.DType || fmt.Sprint(g.Shape) != fmt.Sprint(w.Shape) {
			return fmt.Errorf("result %d: %v%v, want %v%v", i, g.DType, g.Shape, w.DType, w.Shape)
		}
		for j := 0; j < w.Len(); j++ {
			if a, b := g.At(j), w.At(j); math.Float64bits(a) != math.Float64bits(b) {
				return fmt.Errorf("result %d, element %d: %v, serial %v", i, j, a, b)
			}
		}
	}
	return nil
}

// AllocsEveryTier counts the allocations of one compiled Forward after
// warm-up on every kernel tier, checks that every tier makes as many and
// no more than its results take (resultAllocs each, and the Forward
// adapter's slice of them), and returns the counts by tier. Where
// assembly tiers run, the slow generic tier is counted first over one
// call. Noise only adds allocations (a collection during the count
// empties the sync.Pools and the Go runtime's sudog caches), so a tier
// that counts more than the fewest is counted again, in full, up to
// twice, before the counts are compared.
func (c *Compiled) AllocsEveryTier(t *testing.T) map[runtime.ISA]float64 {
	if RaceEnabled {
		t.Skip("the race detector's sync.Pool drops items at random")
	}
	quick := runtime.CPUISA() != runtime.ISAGeneric
	runs, reps := cmp.Or(c.AllocRuns, 5), 3
	got := map[runtime.ISA]float64{}
	ForEachISA(t, func(t *testing.T) {
		if quick && runtime.CurrentISA() == runtime.ISAGeneric {
			got[runtime.ISAGeneric] = c.allocs(1, 1)
			return
		}
		got[runtime.CurrentISA()] = c.allocs(runs, reps)
	})
	fewest := func() float64 {
		least := math.Inf(1)
		for _, n := range got {
			least = min(least, n)
		}
		return least
	}
	for again := range 2 {
		for _, isa := range runtime.ISAs() {
			if got[isa] == fewest() {
				continue
			}
			t.Run(fmt.Sprintf("%v-again-%d", isa, again+1), func(t *testing.T) {
				prev, err := runtime.SetISA(isa)
				if err != nil {
					t.Fatal(err)
				}
				defer runtime.SetISA(prev)
				got[isa] = min(got[isa], c.allocs(runs, reps))
			})
		}
	}
	var tiers []string
	for _, isa := range runtime.ISAs() {
		tiers = append(tiers, fmt.Sprintf("%v %v", isa, got[isa]))
	}
	t.Logf("allocations per compiled Forward at N=%d: %s", c.Batches[0], strings.Join(tiers, ", "))
	results := len(c.Compile(c.New())(c.Inputs(c.Batches[0], 1)))
	most := float64(resultAllocs*results + 1)
	for _, isa := range runtime.ISAs() {
		if got[isa] != got[runtime.ISAGeneric] {
			t.Errorf("tier %v makes %v allocations per call, generic %v", isa, got[isa], got[runtime.ISAGeneric])
		}
		if got[isa] > most {
			t.Errorf("tier %v makes %v allocations per call, want at most %v: %d per result of %d, and 1 for the adapter's slice", isa, got[isa], most, resultAllocs, results)
		}
	}
	return got
}

// resultAllocs is what a result of a compiled Forward allocates: its
// elements, and its Tensor with its array and shape (tensor.NewResult).
// Nothing else in a warm Forward allocates.
const resultAllocs = 2

// allocs counts the allocations of one compiled Forward, built under the
// current tier: the least of reps averages over runs calls, each after a
// warm-up call (testing.AllocsPerRun's). The least, because a worker that blocks on the pool's channel right
// after a collection allocates a sudog, which is the Go runtime's, not
// Forward's.
func (c *Compiled) allocs(runs, reps int) float64 {
	compiled := c.Compile(c.New())
	in := c.Inputs(c.Batches[0], 1)
	// The model just built is garbage the collector would otherwise
	// sweep during the count.
	goruntime.GC()
	least := math.Inf(1)
	for range reps {
		least = min(least, testing.AllocsPerRun(runs, func() { compiled(in) }))
	}
	return least
}

// BuiltBeforeLoad compiles a model, then loads other weights into it by
// state dict: the compiled Forward must either match the eager one with
// the new weights or panic saying to build it again, and a model compiled
// after the load must match.
func (c *Compiled) BuiltBeforeLoad(t *testing.T) {
	m := c.New()
	compiled := c.Compile(m)
	in := c.Inputs(c.Batches[0], 7)
	before := clone(compiled(in))

	sd := map[string]*tensor.Tensor{}
	for name, p := range nn.StateDict(c.New()) {
		a := p.Array().Clone()
		for i := range a.F32 {
			a.F32[i] = a.F32[i]*1.5 + 0.01
		}
		sd[name] = tensor.FromArray(a)
	}
	if err := nn.LoadStateDict(m, sd); err != nil {
		t.Fatal(err)
	}
	want := c.Eager(m)(in)
	if identical(want, before) == nil {
		t.Fatal("the new weights do not change the eager result; the test cannot tell")
	}
	msg := func() (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprint(r)
			}
		}()
		if err := c.close(compiled(in), want); err != nil {
			t.Errorf("compiled before the load, Forward neither matches eager nor panics: %v", err)
		}
		return ""
	}()
	if msg != "" && !strings.Contains(msg, "changed after") || msg != "" && !strings.Contains(msg, "build the compiled model again") {
		t.Errorf("compiled before the load: Forward panics with %q, want a message naming the changed parameter and the remedy", msg)
	}
	if err := c.close(c.Compile(m)(in), want); err != nil {
		t.Errorf("compiled after the load: %v", err)
	}
}

// Unary adapts a Forward of one tensor to one tensor.
func Unary(f func(x *tensor.Tensor) *tensor.Tensor) Forward {
	return func(in []*tensor.Tensor) []*tensor.Tensor { return []*tensor.Tensor{f(in[0])} }
}

// NilInputs checks that the compiled Forward called with each input in
// turn nil panics with a message naming the input and "got nil", rather
// than with a nil-pointer dereference.
func (c *Compiled) NilInputs(t *testing.T) {
	compiled := c.Compile(c.New())
	n := len(c.Inputs(1, 1))
	for i := range n {
		in := c.Inputs(1, 1)
		in[i] = nil
		msg := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			compiled(in)
			return "no panic"
		}()
		if !strings.Contains(msg, "got nil") {
			t.Errorf("input %d nil: panic %q, want one that says the input is nil", i, msg)
		}
	}
}

// BadInputs checks that the compiled Forward refuses inputs of the wrong
// dtype, rank or size, and inputs that disagree on a symbolic size, each
// with its input check's panic ("...Compiled.Forward: name: got ..." or
// "... from an earlier input") rather than a runtime error deep in a kernel
// or a silently wrong result. Which dims are symbolic is not known here:
// the sizes changed are the last dim (every zoo model's inputs end in a
// fixed feature size) and, for models of several inputs, the batch of one
// input alone.
func (c *Compiled) BadInputs(t *testing.T) {
	compiled := c.Compile(c.New())
	const n = 2
	type variant struct {
		name string
		of   func(x *tensor.Tensor) *tensor.Tensor
	}
	variants := []variant{
		{"other dtype", func(x *tensor.Tensor) *tensor.Tensor {
			other := tensor.FromFloat32(nil, 0)
			if x.DType() == runtime.Float32 {
				other = tensor.FromInt64(nil, 0)
			}
			return withShape(other, x.Shape())
		}},
		{"one more dim", func(x *tensor.Tensor) *tensor.Tensor { return withShape(x, append(x.Shape(), 1)) }},
		{"last dim one larger", func(x *tensor.Tensor) *tensor.Tensor {
			shape := x.Shape()
			if len(shape) < 2 {
				return nil
			}
			shape[len(shape)-1]++
			return withShape(x, shape)
		}},
	}
	if len(c.Inputs(n, 1)) > 1 {
		variants = append(variants, variant{"batch of its own", nil})
	}
	for i := range c.Inputs(n, 1) {
		for _, v := range variants {
			in := c.Inputs(n, 1)
			if v.of == nil {
				in[i] = c.Inputs(n+1, 1)[i]
			} else if in[i] = v.of(in[i]); in[i] == nil {
				continue
			}
			r, msg := func() (r any, msg string) {
				defer func() { r = recover(); msg = fmt.Sprint(r) }()
				compiled(in)
				return nil, "no panic"
			}()
			_, isRuntimeError := r.(goruntime.Error)
			if isRuntimeError || !strings.Contains(msg, "Compiled.Forward: ") || !strings.Contains(msg, " got ") && !strings.Contains(msg, "from an earlier input") {
				t.Errorf("input %d with %s (%v): panic %q, want the input check's", i, v.name, in[i].Shape(), msg)
			}
		}
	}
}

// withShape returns a zero tensor of x's dtype in the given shape.
func withShape(x *tensor.Tensor, shape []int) *tensor.Tensor {
	size := 1
	for _, d := range shape {
		size *= d
	}
	if x.DType() == runtime.Int64 {
		return tensor.FromInt64(make([]int64, size), shape...)
	}
	return tensor.FromFloat32(make([]float32, size), shape...)
}
