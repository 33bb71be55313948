// This file defines the one-op models the samples call and compile.

package conformance

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
)

// Input marks operand i of a sample as its i-th input tensor; a []Input
// operand is a list of input tensors.
type Input int

// call runs op on args with the inputs in place of their Input markers.
func call(op string, args []any, kwargs []ir.Kwarg, ins []*tensor.Tensor) *tensor.Tensor {
	vals := make([]any, len(args))
	for i, a := range args {
		switch x := a.(type) {
		case Input:
			vals[i] = ins[x]
		case []Input:
			list := make([]*tensor.Tensor, len(x))
			for j, k := range x {
				list[j] = ins[k]
			}
			vals[i] = list
		case nil:
			vals[i] = (*tensor.Tensor)(nil)
		default:
			vals[i] = a
		}
	}
	return tensor.Apply(ir.CallFunction, op, vals, kwargs...)[0]
}

// Model0 is a model of one op of no input tensors (a constructor).
type Model0 struct {
	Op     string
	Args   []any
	Kwargs []ir.Kwarg
}

// Forward calls the op.
func (m *Model0) Forward() *tensor.Tensor { return call(m.Op, m.Args, m.Kwargs, nil) }

// Model1 is a model of one op of one input tensor.
type Model1 struct {
	Op     string
	Args   []any
	Kwargs []ir.Kwarg
}

// Forward calls the op on a.
func (m *Model1) Forward(a *tensor.Tensor) *tensor.Tensor {
	return call(m.Op, m.Args, m.Kwargs, []*tensor.Tensor{a})
}

// Model2 is a model of one op of two input tensors.
type Model2 struct {
	Op     string
	Args   []any
	Kwargs []ir.Kwarg
}

// Forward calls the op on a and b.
func (m *Model2) Forward(a, b *tensor.Tensor) *tensor.Tensor {
	return call(m.Op, m.Args, m.Kwargs, []*tensor.Tensor{a, b})
}

// Model3 is a model of one op of three input tensors.
type Model3 struct {
	Op     string
	Args   []any
	Kwargs []ir.Kwarg
}

// Forward calls the op on a, b and c.
func (m *Model3) Forward(a, b, c *tensor.Tensor) *tensor.Tensor {
	return call(m.Op, m.Args, m.Kwargs, []*tensor.Tensor{a, b, c})
}

// Model4 is a model of one op of four input tensors.
type Model4 struct {
	Op     string
	Args   []any
	Kwargs []ir.Kwarg
}

// Forward calls the op on a, b, c and d.
func (m *Model4) Forward(a, b, c, d *tensor.Tensor) *tensor.Tensor {
	return call(m.Op, m.Args, m.Kwargs, []*tensor.Tensor{a, b, c, d})
}

// Model5 is a model of one op of five input tensors.
type Model5 struct {
	Op     string
	Args   []any
	Kwargs []ir.Kwarg
}

// Forward calls the op on a, b, c, d and e.
func (m *Model5) Forward(a, b, c, d, e *tensor.Tensor) *tensor.Tensor {
	return call(m.Op, m.Args, m.Kwargs, []*tensor.Tensor{a, b, c, d, e})
}

// Model returns the model of s, a *ModelK for its K inputs, and the name
// of its type.
func (s *Sample) Model() (any, string) {
	switch len(s.Inputs) {
	case 0:
		return &Model0{s.Op, s.Args, s.Kwargs}, "Model0"
	case 1:
		return &Model1{s.Op, s.Args, s.Kwargs}, "Model1"
	case 2:
		return &Model2{s.Op, s.Args, s.Kwargs}, "Model2"
	case 3:
		return &Model3{s.Op, s.Args, s.Kwargs}, "Model3"
	case 4:
		return &Model4{s.Op, s.Args, s.Kwargs}, "Model4"
	case 5:
		return &Model5{s.Op, s.Args, s.Kwargs}, "Model5"
	}
	panic(fmt.Sprintf("conformance: sample %s has %d inputs, at most 5", s.Name, len(s.Inputs)))
}

// Compiled maps a sample's name to the constructor of its compiled
// model, as a function of the inputs; compiled_gen.go fills it.
var Compiled = map[string]func(model any) func(ins []*tensor.Tensor) *tensor.Tensor{}
