// This file makes random tensors, alone or for input specs such as
// x=f32[N,784].

package fxgentest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// RandFloat32 returns a float32 tensor of the shape with values uniform in
// [-1, 1), the same for the same seed.
func RandFloat32(seed uint64, shape ...int) *tensor.Tensor {
	r := rand.New(rand.NewPCG(seed, 1))
	data := make([]float32, runtime.NumElements(shape))
	for i := range data {
		data[i] = r.Float32()*2 - 1
	}
	return tensor.FromFloat32(data, shape...)
}

// RandInt64 returns an int64 tensor of the shape with values uniform in
// [0, n), the same for the same seed.
func RandInt64(seed uint64, n int64, shape ...int) *tensor.Tensor {
	r := rand.New(rand.NewPCG(seed, 2))
	data := make([]int64, runtime.NumElements(shape))
	for i := range data {
		data[i] = r.Int64N(n)
	}
	return tensor.FromInt64(data, shape...)
}

// RandBool returns a bool tensor of the shape, each element true with
// probability one half, the same for the same seed.
func RandBool(seed uint64, shape ...int) *tensor.Tensor {
	r := rand.New(rand.NewPCG(seed, 3))
	data := make([]bool, runtime.NumElements(shape))
	for i := range data {
		data[i] = r.IntN(2) == 1
	}
	return tensor.FromBool(data, shape...)
}

// Spec is one input spec, as fxgen's -input takes it: a name and a type
// whose dims may be symbols (x=f32[N,784]).
type Spec struct {
	Name string
	Type ir.Type
}

// ParseSpecs parses input specs as fxgen's -input takes them: name=type,
// separated by white space (the dims of a type may hold spaces),
// for example "x=f32[N,3,32,32] mask=bool[N]".
func ParseSpecs(specs string) ([]Spec, error) {
	var out []Spec
	for _, s := range splitSpecs(specs) {
		name, typ, ok := strings.Cut(s, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("fxgentest: input spec %q: want name=dtype[dims], e.g. x=f32[N,784]", s)
		}
		t, err := ir.ParseType(strings.ReplaceAll(typ, " ", ""))
		if err != nil {
			return nil, fmt.Errorf("fxgentest: input spec %q: %v", s, err)
		}
		out = append(out, Spec{Name: name, Type: t})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("fxgentest: no input specs in %q", specs)
	}
	return out, nil
}

// splitSpecs splits at white space outside brackets.
func splitSpecs(v string) []string {
	var specs []string
	depth, start := 0, -1
	for i, r := range v {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case unicode.IsSpace(r) && depth == 0:
			if start >= 0 {
				specs = append(specs, v[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		specs = append(specs, v[start:])
	}
	return specs
}

// RandomInputs returns one random tensor per spec, with the symbolic dims
// set to size (a dim k*N is k·size): float32 values uniform in [-1, 1),
// int64 values in [0, intHigh), bools true or false. Inputs are the same
// for the same seed.
func RandomInputs(specs []Spec, size int, intHigh int64, seed uint64) ([]*tensor.Tensor, error) {
	in := make([]*tensor.Tensor, len(specs))
	for i, s := range specs {
		syms := map[string]int{}
		for _, d := range s.Type.Shape {
			if d.Sym != "" {
				syms[d.Sym] = size
			}
		}
		shape, ok := s.Type.Shape.Eval(syms)
		if !ok {
			return nil, fmt.Errorf("fxgentest: input %s: cannot size %v", s.Name, s.Type)
		}
		seed := seed*1000003 + uint64(i)
		switch s.Type.DType {
		case runtime.Float32:
			in[i] = RandFloat32(seed, shape...)
		case runtime.Int64:
			in[i] = RandInt64(seed, intHigh, shape...)
		case runtime.Bool:
			in[i] = RandBool(seed, shape...)
		default:
			return nil, fmt.Errorf("fxgentest: input %s: no random values of dtype %v", s.Name, s.Type.DType)
		}
	}
	return in, nil
}
