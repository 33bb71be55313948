// This file declares the fused ops that passes make (linear_act,
// linear_residual, conv2d_act, conv2d_residual) and the prepared forms of their weights
// (packed linear weights, convolution filters).

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

// The values of the act attribute of the fused ops: runtime.Activation's.
const (
	ActNone  = int(runtime.ActNone)
	ActReLU  = int(runtime.ActReLU)
	ActGELU  = int(runtime.ActGELU)
	ActReLU6 = int(runtime.ActReLU6)
	ActSiLU  = int(runtime.ActSiLU)
)

// checkActAttr checks the act attribute of a fused op.
func checkActAttr(s *Sig) error {
	if a := s.Int("act"); a < ActNone || a > ActSiLU {
		return fmt.Errorf("act %d, want 0 (none), 1 (relu), 2 (gelu), 3 (relu6) or 4 (silu)", a)
	}
	return nil
}

func init() {
	actAttr := Attr{Name: "act", Kind: IntAttr}
	RegisterOp(&Op{
		Name:      "linear_act",
		PerSample: true,
		Doc: "linear_act(x, weight, bias, act) is act(linear(x, weight, bias)) in one kernel, " +
			"act 0 none, 1 relu, 2 gelu, 3 relu6, 4 silu (made by the fuse-activation pass).",
		Operands: []Operand{{"input", TensorOperand}, {"weight", TensorOperand}, {"bias", OptionalOperand}},
		Attrs:    []Attr{actAttr},
		Infer: func(s *Sig) ([]Type, error) {
			if err := checkActAttr(s); err != nil {
				return nil, err
			}
			return LookupOp("linear").Infer(s)
		},
		Kernel:   runtime.LinearAct,
		Prepared: &Prepared{Operand: 1, Prepare: runtime.PackLinear, Kernel: runtime.LinearActPacked},
	})
	RegisterOp(&Op{
		Name:      "linear_residual",
		PerSample: true,
		Doc: "linear_residual(x, weight, bias, residual) is residual + linear(x, weight, bias) in one kernel, " +
			"the product accumulated into the residual (made by the fuse-residual pass).",
		Operands: []Operand{{"input", TensorOperand}, {"weight", TensorOperand}, {"bias", OptionalOperand}, {"residual", TensorOperand}},
		Infer: func(s *Sig) ([]Type, error) {
			linear := LookupOp("linear")
			return inferResidual(s, linear, &Sig{Op: linear, Args: s.Args[:3]})
		},
		Kernel:   runtime.LinearResidual,
		Prepared: &Prepared{Operand: 1, Prepare: runtime.PackLinear, Kernel: runtime.LinearResidualPacked},
	})
	RegisterOp(&Op{
		Name:      "conv2d_act",
		PerSample: true,
		Doc: "conv2d_act(x, weight, bias, stride, padding, groups, act) is act(conv2d(...)) in one kernel, " +
			"act 0 none, 1 relu, 2 gelu, 3 relu6, 4 silu (made by the fuse-activation pass).",
		Operands: []Operand{{"input", TensorOperand}, {"weight", TensorOperand}, {"bias", OptionalOperand}},
		Attrs:    append(convAttrs(), actAttr),
		Infer: func(s *Sig) ([]Type, error) {
			if err := checkActAttr(s); err != nil {
				return nil, err
			}
			return LookupOp("conv2d").Infer(s)
		},
		Kernel:   runtime.Conv2dAct,
		Prepared: &Prepared{Operand: 1, Prepare: runtime.PrepareConv2d, Kernel: runtime.Conv2dActPrepared},
	})
	RegisterOp(&Op{
		Name:      "conv2d_residual",
		PerSample: true,
		Doc: "conv2d_residual(x, weight, bias, residual, stride, padding, groups, act) is " +
			"act(conv2d(x, weight, bias, stride, padding, groups) + residual) in one kernel, the residual added to each " +
			"chunk of the output while it is in cache, act 0 none, 1 relu, 2 gelu, 3 relu6, 4 silu (made by the fuse-residual pass).",
		Operands: []Operand{{"input", TensorOperand}, {"weight", TensorOperand}, {"bias", OptionalOperand}, {"residual", TensorOperand}},
		Attrs:    append(convAttrs(), actAttr),
		Infer: func(s *Sig) ([]Type, error) {
			if err := checkActAttr(s); err != nil {
				return nil, err
			}
			conv := *s // the attributes of conv2d, with the same names
			conv.Args = s.Args[:3]
			return inferResidual(s, LookupOp("conv2d"), &conv)
		},
		Kernel:   runtime.Conv2dResidual,
		Prepared: &Prepared{Operand: 1, Prepare: runtime.PrepareConv2d, Kernel: runtime.Conv2dResidualPrepared},
	})
}

func init() {
	RegisterOp(&Op{
		Name: "fused_elementwise",
		Doc: "fused_elementwise(inputs, program, softmax) is a group of elementwise ops evaluated chunk by chunk in one kernel " +
			"(runtime.ElementwiseProgram; program holds four ints a step: operation, registers A and B, float32 bits of " +
			"the scalar), followed when softmax is set by a softmax over the last dim; the result is float32 with the " +
			"inputs' broadcast shape (made by the fuse-elementwise pass).",
		Operands: []Operand{{"inputs", ListOperand}},
		Attrs:    []Attr{{Name: "program", Kind: IntsAttr}, {Name: "softmax", Kind: BoolAttr, Default: false}},
		Infer: func(s *Sig) ([]Type, error) {
			ts := s.Args[0].List
			if _, err := runtime.DecodeElementwiseProgram(len(ts), s.Ints("program")); err != nil {
				return nil, err
			}
			shape := Shape{}
			if len(ts) == 0 {
				return nil, fmt.Errorf("no inputs")
			}
			for i, t := range ts {
				if t.DType != Float32 && t.DType != Bool {
					return nil, fmt.Errorf("input %d is %v, want f32 (or a bool mask)", i, t)
				}
				var err error
				if shape, err = BroadcastShapes(shape, t.Shape); err != nil {
					return nil, err
				}
			}
			if s.Bool("softmax") && len(shape) == 0 {
				return nil, fmt.Errorf("softmax of a scalar")
			}
			return []Type{{DType: Float32, Shape: shape}}, nil
		},
		Kernel: runtime.FusedElementwise,
	})
}

// inferResidual infers the type of a fused op s that adds a residual (its
// operand 3) to the result of op base on sig (the first three operands):
// base's type, which the residual must have.
func inferResidual(s *Sig, base *Op, sig *Sig) ([]Type, error) {
	ts, err := base.Infer(sig)
	if err != nil {
		return nil, err
	}
	if r := s.Args[3].Type; r.DType != Float32 || !r.Shape.Equal(ts[0].Shape) {
		return nil, fmt.Errorf("residual %v, want %v", r, ts[0])
	}
	return ts, nil
}
