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

// checkActAttr checks the activation attribute attr of a fused op.
func checkActAttr(s *Sig, attr string) error {
	if a := s.Int(attr); a < ActNone || a > ActSiLU {
		return fmt.Errorf("%s %d, want 0 (none), 1 (relu), 2 (gelu), 3 (relu6) or 4 (silu)", attr, a)
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
			if err := checkActAttr(s, "act"); err != nil {
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
			if err := checkActAttr(s, "act"); err != nil {
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
			if err := checkActAttr(s, "act"); err != nil {
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
		Program: &Program{Kernel: runtime.RunElementwiseProgram, Inputs: func(args []Arg) int {
			list, _ := args[0].([]Arg)
			return len(list)
		}},
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

func init() {
	RegisterOp(&Op{
		Name:      "depthwise_separable",
		PerSample: true,
		Doc: "depthwise_separable(x, expand_weight, expand_bias, depthwise_weight, depthwise_bias, project_weight, " +
			"project_bias, residual, stride, act1, act2) is conv2d(act2(conv2d(act1(conv2d(x, expand_weight, expand_bias)), " +
			"depthwise_weight, depthwise_bias, stride, padding 1, groups E)), project_weight, project_bias) + residual: a 1×1 " +
			"expansion [E,C,1,1], a 3×3 depthwise convolution [E,1,3,3] with stride 1 or 2 and a 1×1 projection [O,E,1,1] " +
			"of NCHW images [N,C,H,W], biases and residual [N,O,OH,OW] optional, act1 and act2 0 none, 1 relu, 2 gelu, " +
			"3 relu6, 4 silu; one kernel computes it a band of rows at a time (made by the fuse-depthwise-separable pass).",
		Operands: []Operand{{"input", TensorOperand}, {"expand_weight", TensorOperand}, {"expand_bias", OptionalOperand},
			{"depthwise_weight", TensorOperand}, {"depthwise_bias", OptionalOperand},
			{"project_weight", TensorOperand}, {"project_bias", OptionalOperand}, {"residual", OptionalOperand}},
		Attrs:  []Attr{{Name: "stride", Kind: IntAttr, Default: 1}, {Name: "act1", Kind: IntAttr}, {Name: "act2", Kind: IntAttr}},
		Infer:  inferDepthwiseSeparable,
		Kernel: runtime.DepthwiseSeparable,
	})
}

// inferDepthwiseSeparable infers depthwise_separable's result [N,O,H,W].
func inferDepthwiseSeparable(s *Sig) ([]Type, error) {
	for _, a := range []string{"act1", "act2"} {
		if err := checkActAttr(s, a); err != nil {
			return nil, err
		}
	}
	x := s.Args[0].Type
	if err := wantFloat(x, s.Args[1].Type, s.Args[3].Type, s.Args[5].Type); err != nil {
		return nil, err
	}
	w1, ok1 := s.Args[1].Type.Shape.Ints()
	wd, okd := s.Args[3].Type.Shape.Ints()
	w2, ok2 := s.Args[5].Type.Shape.Ints()
	if len(x.Shape) != 4 || !ok1 || !okd || !ok2 || len(w1) != 4 || len(wd) != 4 || len(w2) != 4 {
		return nil, fmt.Errorf("got input %v and weights %v %v %v, want [N,C,H,W], [E,C,1,1], [E,1,3,3] and [O,E,1,1] of known sizes",
			x.Shape, s.Args[1].Type.Shape, s.Args[3].Type.Shape, s.Args[5].Type.Shape)
	}
	e, o := w1[0], w2[0]
	if x.Shape[1] != Const(w1[1]) || w1[2] != 1 || w1[3] != 1 || wd[0] != e || wd[1] != 1 || wd[2] != 3 || wd[3] != 3 ||
		w2[1] != e || w2[2] != 1 || w2[3] != 1 {
		return nil, fmt.Errorf("weights %v %v %v for input %v: want [E,C,1,1], [E,1,3,3] and [O,E,1,1] with C the input's channels",
			w1, wd, w2, x.Shape)
	}
	for _, bias := range [][2]int{{2, e}, {4, e}, {6, o}} {
		i, n := bias[0], bias[1]
		if b := s.Args[i]; !b.Absent && (b.Type.DType != Float32 || !b.Type.Shape.Equal(ConstShape(n))) {
			return nil, fmt.Errorf("%s %v, want f32[%d]", s.Op.Operands[i].Name, b.Type, n)
		}
	}
	out := Type{DType: Float32, Shape: Shape{x.Shape[0], Const(o), x.Shape[2], x.Shape[3]}}
	switch st := s.Int("stride"); {
	case st == 2:
		hw, ok := x.Shape[2:].Ints()
		if !ok || hw[0] == 0 || hw[1] == 0 {
			return nil, fmt.Errorf("input %v: stride 2 wants a known, non-empty height and width", x.Shape)
		}
		out.Shape[2], out.Shape[3] = Const((hw[0]-1)/2+1), Const((hw[1]-1)/2+1)
	case st != 1:
		return nil, fmt.Errorf("stride %d, want 1 or 2", st)
	}
	if r := s.Args[7]; !r.Absent && (r.Type.DType != Float32 || !r.Type.Shape.Equal(out.Shape)) {
		return nil, fmt.Errorf("residual %v, want %v", r.Type, out)
	}
	return []Type{out}, nil
}
