package fxgentest

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/internal/seeds"
	"github.com/fxgen/fxgen/tensor"
)

func TestCompareReport(t *testing.T) {
	want := tensor.FromFloat32([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	got := tensor.FromFloat32([]float32{1, 2.5, 3, 4, 5.001, 6.1}, 2, 3)
	r := Compare(got, want, Tolerance{Rel: 1e-3})
	if r.OK() || r.Mismatches != 2 || r.Elements != 6 {
		t.Fatalf("got %d of %d mismatches (OK %v), want 2 of 6:\n%v", r.Mismatches, r.Elements, r.OK(), r)
	}
	if fmt.Sprint(r.MaxAbsAt, r.MaxRelAt, r.First) != "[0 1] [0 1] [0 1]" || r.MaxAbs != 0.5 || r.MaxRel != 0.25 {
		t.Errorf("max abs %v at %v, max rel %v at %v, first %v; want 0.5 and 0.25 at [0 1]", r.MaxAbs, r.MaxAbsAt, r.MaxRel, r.MaxRelAt, r.First)
	}
	for _, s := range []string{"2 of 6 elements", "first at [0 1]: got 2.5, want 2", "greatest absolute error 0.5 at [0 1]", "greatest relative error 0.25"} {
		if !strings.Contains(r.String(), s) {
			t.Errorf("report lacks %q:\n%v", s, r)
		}
	}
	// 5.001 is within Abs 0.002; 2.5 and 6.1 are not.
	if r := Compare(got, want, Tolerance{Abs: 0.002}); r.Mismatches != 2 {
		t.Errorf("Abs 0.002: %d mismatches, want 2", r.Mismatches)
	}
	// Scaled: 0.1 · max(1, 6) = 0.6 covers every difference.
	if r := Compare(got, want, Tolerance{Abs: 0.1, Scale: true}); !r.OK() {
		t.Errorf("Abs 0.1 scaled: %v", r)
	}
	if r := Compare(got, want, Tolerance{Abs: 0.1}); r.OK() {
		t.Errorf("Abs 0.1 unscaled: matched, want a mismatch")
	}
}

func TestCompareSpecialValues(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, tc := range []struct {
		got, want []float32
		ok        bool
	}{
		{[]float32{nan, inf}, []float32{nan, inf}, true},
		{[]float32{nan, 1}, []float32{1, 1}, false},
		{[]float32{1, 1}, []float32{nan, 1}, false},
		{[]float32{inf, 1}, []float32{-inf, 1}, false},
		{[]float32{1e30, 1}, []float32{inf, 1}, false},
	} {
		r := Compare(tensor.FromFloat32(tc.got, 2), tensor.FromFloat32(tc.want, 2), Tolerance{Rel: 1, Abs: 1})
		if r.OK() != tc.ok {
			t.Errorf("Compare(%v, %v): OK %v, want %v (%v)", tc.got, tc.want, r.OK(), tc.ok, r)
		}
	}
}

func TestCompareExactAndShapes(t *testing.T) {
	a := tensor.FromInt64([]int64{1, 2, 3}, 3)
	if r := Compare(a, tensor.FromInt64([]int64{1, 2, 4}, 3), Tolerance{Rel: 1, Abs: 1}); r.Mismatches != 1 {
		t.Errorf("int64 with a loose tolerance: %d mismatches, want 1 (integers compare exactly)", r.Mismatches)
	}
	for _, other := range []*tensor.Tensor{tensor.FromInt64([]int64{1, 2, 3}, 1, 3), tensor.FromFloat32([]float32{1, 2, 3}, 3), nil} {
		r := Compare(a, other, Tolerance{})
		if r.OK() || !strings.HasPrefix(r.String(), "got i64[3], want ") {
			t.Errorf("Compare(i64[3], %v): %q, want a dtype or shape error", describe(other), r)
		}
	}
}

func TestParseSpecsAndRandomInputs(t *testing.T) {
	specs, err := ParseSpecs(" x=f32[N, 3]\tids=i64[2*N] m=bool[] ")
	if err != nil {
		t.Fatal(err)
	}
	in, err := RandomInputs(specs, 3, 5, 7)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range in {
		got = append(got, describe(x))
	}
	if s := strings.Join(got, " "); s != "f32[3 3] i64[6] bool[]" {
		t.Errorf("inputs %s, want f32[3 3] i64[6] bool[]", s)
	}
	for _, v := range in[1].Int64s() {
		if v < 0 || v >= 5 {
			t.Errorf("int input %d outside [0, 5)", v)
		}
	}
	again, _ := RandomInputs(specs, 3, 5, 7)
	if !Compare(again[0], in[0], Tolerance{}).OK() {
		t.Errorf("the same seed gave other inputs")
	}
	for _, bad := range []string{"", "x", "x=f32", "x=q8[N]", "=f32[N]"} {
		if _, err := ParseSpecs(bad); err == nil {
			t.Errorf("ParseSpecs(%q): no error", bad)
		}
	}
}

func TestAsFunc(t *testing.T) {
	two := func(x, y *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor) { return y, x }
	f, err := AsFunc(two)
	if err != nil {
		t.Fatal(err)
	}
	a, b := RandFloat32(1, 2), RandFloat32(2, 2)
	if out := f([]*tensor.Tensor{a, b}); len(out) != 2 || out[0] != b || out[1] != a {
		t.Errorf("adapted function returned %v", out)
	}
	for _, bad := range []any{nil, 3, func(x *tensor.Tensor, flag bool) *tensor.Tensor { return x }, func(x *tensor.Tensor) {}, func(x *tensor.Tensor) float64 { return 0 }, func(xs ...*tensor.Tensor) *tensor.Tensor { return nil }} {
		if _, err := AsFunc(bad); err == nil {
			t.Errorf("AsFunc(%T): no error", bad)
		}
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper()                   {}
func (r *recorder) Log(args ...any)           {}
func (r *recorder) Errorf(f string, a ...any) { r.errors = append(r.errors, fmt.Sprintf(f, a...)) }
func (r *recorder) Fatal(args ...any) {
	r.errors = append(r.errors, fmt.Sprint(args...))
	r.fatal = true
	runtime.Goexit()
}
func (r *recorder) Fatalf(f string, a ...any) {
	r.Fatal(fmt.Sprintf(f, a...))
}

// record runs f with a recorder on its own goroutine, so that Fatal can
// end it, and returns what it recorded.
func record(t *testing.T, f func(tb testing.TB)) *recorder {
	r := &recorder{TB: t}
	done := make(chan bool)
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

func TestMatchesEager(t *testing.T) {
	m := seeds.NewGate()
	c := seeds.NewGateCompiled(m)
	eager := func(x *tensor.Tensor) *tensor.Tensor { return m.Forward(x, true) }
	compiled := func(x *tensor.Tensor) *tensor.Tensor { return c.Forward(x, true) }
	if !MatchesEager(t, "x=f32[N,4]", eager, compiled, WithSizes(1, 3)) {
		t.Fatal("Gate compiled does not match eager")
	}
	// A compiled model of another Forward (here the flag's other branch)
	// is caught, with a report.
	stale := func(x *tensor.Tensor) *tensor.Tensor { return m.Forward(x, false) }
	r := record(t, func(tb testing.TB) { MatchesEager(tb, "x=f32[N,4]", eager, stale) })
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "size 2, result 0: compiled differs from eager") || !strings.Contains(r.errors[0], "greatest absolute error") {
		t.Errorf("a different compiled Forward: recorded %q, want one report", r.errors)
	}
	// Too few results, and a bad spec.
	r = record(t, func(tb testing.TB) {
		MatchesEager(tb, "x=f32[N,4]", Func(func(in []*tensor.Tensor) []*tensor.Tensor { return in[:0] }), compiled)
	})
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "compiled returns 1 results, eager 0") {
		t.Errorf("result counts: recorded %q", r.errors)
	}
	r = record(t, func(tb testing.TB) { MatchesEager(tb, "x=f32[N", eager, compiled) })
	if !r.fatal {
		t.Errorf("a bad spec did not fail the test: %q", r.errors)
	}
}

func TestFixture(t *testing.T) {
	f := ReadFixture(t, "../example_models/mlp/testdata/torch_io.safetensors")
	if x := f.Tensor(t, "x"); describe(x) != "f32[2 784]" {
		t.Errorf("x is %v, want f32[2 784]", describe(x))
	}
	r := record(t, func(tb testing.TB) { f.Tensor(tb, "nope") })
	if !r.fatal || !strings.Contains(r.errors[0], `has no tensor "nope"; it has out, x`) {
		t.Errorf("a missing tensor: %q", r.errors)
	}
	if _, err := LoadFixture("testdata/none.safetensors"); err == nil {
		t.Errorf("LoadFixture of a missing file: no error")
	}
}
