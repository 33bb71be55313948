// This file holds Wrap, which makes a Go function one call_function node.

package tracer

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// Wrap registers fn as the op name and returns a function that calls it:
// eagerly it runs fn; while tracing, a call is recorded as one
// call_function node instead of being traced through, so fn may read
// values and sizes that are symbolic in the trace. result gives the result
// type from the argument types. Call Wrap once, at package level.
//
// Generated code calls fn by name, so fn must be a named package-level
// function (not a closure) of the model's package or one it can import.
func Wrap(name string, fn func(args ...*tensor.Tensor) *tensor.Tensor, result func(args ...ir.Type) (ir.Type, error)) func(args ...*tensor.Tensor) *tensor.Tensor {
	ir.RegisterOp(&ir.Op{
		Name:     name,
		Doc:      name + " is a Go function wrapped with tracer.Wrap.",
		Operands: []ir.Operand{{Name: "args", Kind: ir.ListOperand}},
		Infer: func(s *ir.Sig) ([]ir.Type, error) {
			t, err := result(s.Args[0].List...)
			if err != nil {
				return nil, err
			}
			return []ir.Type{t}, nil
		},
		Wrapped: fn,
		Func: func(args []any, _ []ir.Kwarg) ([]*runtime.Array, error) {
			arrs, ok := args[0].([]*runtime.Array)
			if !ok {
				return nil, fmt.Errorf("got %T, want tensors", args[0])
			}
			ts := make([]*tensor.Tensor, len(arrs))
			for i, a := range arrs {
				ts[i] = tensor.FromArray(a)
			}
			return []*runtime.Array{fn(ts...).Array()}, nil
		},
	})
	return func(args ...*tensor.Tensor) *tensor.Tensor {
		return tensor.Apply(ir.CallFunction, name, []any{args})[0]
	}
}
