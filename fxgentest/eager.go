// This file compares a compiled model with its eager model on random
// inputs.

package fxgentest

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/fxgen/fxgen/tensor"
)

// DefaultTolerance is the tolerance of MatchesEager: the compiled code runs
// the same kernels as eager execution, but passes reorder some of the
// arithmetic (batch norms folded into convolutions, fused epilogues), so
// results agree to float32 rounding of the model's magnitudes.
var DefaultTolerance = Tolerance{Rel: 1e-4, Abs: 1e-4, Scale: true}

// Func is a Forward over a list of tensors: its inputs in parameter
// order, its results in order.
type Func func(in []*tensor.Tensor) []*tensor.Tensor

// tensorType is *tensor.Tensor.
var tensorType = reflect.TypeFor[*tensor.Tensor]()

// AsFunc adapts forward to a Func. forward is a Func or a function whose
// parameters and results are all *tensor.Tensor, such as a model's
// Forward method value (m.Forward); bind other parameters with a closure:
//
//	func(x *tensor.Tensor) *tensor.Tensor { return m.Forward(x, true) }
func AsFunc(forward any) (Func, error) {
	switch f := forward.(type) {
	case Func:
		return f, nil
	case func([]*tensor.Tensor) []*tensor.Tensor:
		return f, nil
	}
	v := reflect.ValueOf(forward)
	if v.Kind() != reflect.Func || v.IsNil() {
		return nil, fmt.Errorf("fxgentest: %T is not a function", forward)
	}
	ft := v.Type()
	if ft.IsVariadic() || ft.NumOut() == 0 {
		return nil, fmt.Errorf("fxgentest: %v: want a function of *tensor.Tensor parameters with *tensor.Tensor results", ft)
	}
	for i := range ft.NumIn() {
		if ft.In(i) != tensorType {
			return nil, fmt.Errorf("fxgentest: %v: parameter %d is not a *tensor.Tensor; bind it in a closure", ft, i+1)
		}
	}
	for i := range ft.NumOut() {
		if ft.Out(i) != tensorType {
			return nil, fmt.Errorf("fxgentest: %v: result %d is not a *tensor.Tensor", ft, i+1)
		}
	}
	return func(in []*tensor.Tensor) []*tensor.Tensor {
		if len(in) != ft.NumIn() {
			panic(fmt.Sprintf("fxgentest: %v called with %d inputs", ft, len(in)))
		}
		args := make([]reflect.Value, len(in))
		for i, x := range in {
			args[i] = reflect.ValueOf(x)
		}
		res := v.Call(args)
		out := make([]*tensor.Tensor, len(res))
		for i, r := range res {
			out[i] = r.Interface().(*tensor.Tensor)
		}
		return out
	}, nil
}

// Option changes how MatchesEager compares.
type Option func(*config)

type config struct {
	tol     Tolerance
	sizes   []int
	intHigh int64
	seed    uint64
}

// WithTolerance sets the tolerance of float32 results (DefaultTolerance
// by default).
func WithTolerance(tol Tolerance) Option { return func(c *config) { c.tol = tol } }

// WithSizes sets the values the symbolic dims of the specs take, one
// comparison each (2 by default). Every symbol takes the same value.
func WithSizes(sizes ...int) Option { return func(c *config) { c.sizes = sizes } }

// WithIntHigh sets the bound of random int64 inputs, drawn from [0, n) (2
// by default, a valid index of any table of two or more rows).
func WithIntHigh(n int64) Option { return func(c *config) { c.intHigh = n } }

// WithSeed sets the seed of the random inputs (1 by default).
func WithSeed(seed uint64) Option { return func(c *config) { c.seed = seed } }

// MatchesEager runs eager and compiled on the same random inputs for specs
// (as fxgen's -input takes them, e.g. "x=f32[N,784]") and fails the test
// unless every result of compiled matches the eager one: float32 results
// within the tolerance, other dtypes exactly. eager and compiled are
// functions AsFunc accepts, typically m.Forward and the compiled model's
// Forward. It returns whether they matched.
func MatchesEager(t testing.TB, specs string, eager, compiled any, opts ...Option) bool {
	t.Helper()
	c := config{tol: DefaultTolerance, sizes: []int{2}, intHigh: 2, seed: 1}
	for _, o := range opts {
		o(&c)
	}
	ps, err := ParseSpecs(specs)
	if err != nil {
		t.Fatal(err)
	}
	ef, err := AsFunc(eager)
	if err != nil {
		t.Fatalf("eager: %v", err)
	}
	cf, err := AsFunc(compiled)
	if err != nil {
		t.Fatalf("compiled: %v", err)
	}
	ok := true
	for k, n := range c.sizes {
		in, err := RandomInputs(ps, n, c.intHigh, c.seed+uint64(k))
		if err != nil {
			t.Fatal(err)
		}
		want, got := ef(in), cf(in)
		if len(got) != len(want) {
			t.Errorf("size %d: compiled returns %d results, eager %d", n, len(got), len(want))
			ok = false
			continue
		}
		for i := range want {
			r := Compare(got[i], want[i], c.tol)
			if !r.OK() {
				t.Errorf("size %d, result %d: compiled differs from eager: %v", n, i, r)
				ok = false
			}
		}
	}
	if !ok {
		t.Log("if the model changed, run go generate to compile it again")
	}
	return ok
}
