// This file declares the vision ops (conv2d, batch_norm, max_pool2d,
// adaptive_avg_pool2d) and the leaf module kinds that compute them.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() {
	RegisterOp(&Op{
		Name:      "conv2d",
		PerSample: true,
		Torch:     "F.conv2d",
		Go:        GoForm{Function: "Conv2d", Returns: "the 2-D cross-correlation of input [N,C,H,W] with weight [O,C/groups,KH,KW] plus bias [O] (bias may be nil), with dilation 1; stride and padding hold one value for both spatial dims or two (height, width); padding is zeros"},
		Module:    &ModuleForm{Name: "Conv2d", Torch: "torch.nn.Conv2d", Params: []string{"weight", "bias"}, Hand: true},
		Doc: "conv2d(x, weight, bias, stride, padding, groups) is the 2-D cross-correlation of x [N,C,H,W] " +
			"with weight [O,C/groups,KH,KW] plus bias [O] (optional), zero padding, dilation 1: [N,O,OH,OW].",
		Operands: []Operand{{"input", TensorOperand}, {"weight", TensorOperand}, {"bias", OptionalOperand}},
		Attrs:    convAttrs(),
		Infer: func(s *Sig) ([]Type, error) {
			x, w := s.Args[0].Type, s.Args[1].Type
			if err := wantFloat(x, w); err != nil {
				return nil, err
			}
			if len(x.Shape) != 4 || len(w.Shape) != 4 {
				return nil, fmt.Errorf("got input %v and weight %v, want [N,C,H,W] and [O,C/groups,KH,KW]", x.Shape, w.Shape)
			}
			wdims, ok := w.Shape.Ints()
			if !ok {
				return nil, fmt.Errorf("weight %v has a symbolic dim", w.Shape)
			}
			o, kh, kw := wdims[0], wdims[2], wdims[3]
			groups := s.Int("groups")
			if groups < 1 || o%groups != 0 {
				return nil, fmt.Errorf("groups %d must be ≥ 1 and divide the %d output channels", groups, o)
			}
			if want := Const(wdims[1] * groups); x.Shape[1] != want {
				return nil, fmt.Errorf("input %v has %v channels, weight %v with groups %d wants %v", x.Shape, x.Shape[1], w.Shape, groups, want)
			}
			if !s.Args[2].Absent {
				if b := s.Args[2].Type; b.DType != Float32 || !b.Shape.Equal(ConstShape(o)) {
					return nil, fmt.Errorf("bias %v, want f32[%d]", b, o)
				}
			}
			oh, ow, err := window2d(s, x.Shape, []int{kh, kw}, false)
			if err != nil {
				return nil, err
			}
			return []Type{{DType: Float32, Shape: Shape{x.Shape[0], Const(o), Const(oh), Const(ow)}}}, nil
		},
		Kernel:   runtime.Conv2d,
		Prepared: &Prepared{Operand: 1, Prepare: runtime.PrepareConv2d, Kernel: runtime.Conv2dPrepared},
	})
	RegisterOp(&Op{
		Name:      "batch_norm",
		PerSample: true,
		Torch:     "F.batch_norm",
		Go:        GoForm{Function: "BatchNorm", Returns: "input [N,C,...] normalized per channel with running statistics (inference): (input - runningMean)/√(runningVar + eps)·weight + bias; weight and bias may be nil"},
		Module:    &ModuleForm{Name: "BatchNorm2d", Torch: "torch.nn.BatchNorm2d", Params: []string{"weight", "bias", "running_mean", "running_var"}, Hand: true},
		Doc: "batch_norm(x, weight, bias, running_mean, running_var, eps) normalizes x [N,C,...] per channel " +
			"with the running statistics (inference): (x - mean)/√(var + eps)·weight + bias; weight and bias are optional.",
		Operands: []Operand{
			{"input", TensorOperand}, {"weight", OptionalOperand}, {"bias", OptionalOperand},
			{"running_mean", TensorOperand}, {"running_var", TensorOperand},
		},
		Attrs: []Attr{{Name: "eps", Kind: FloatAttr, Default: 1e-5}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			if err := wantFloat(x); err != nil {
				return nil, err
			}
			if len(x.Shape) < 2 || !x.Shape[1].IsConst() {
				return nil, fmt.Errorf("input %v, want [N,C,...] with a constant C", x.Shape)
			}
			c := x.Shape[1]
			for i, name := range []string{"", "weight", "bias", "running_mean", "running_var"} {
				if i == 0 || s.Args[i].Absent {
					continue
				}
				if t := s.Args[i].Type; t.DType != Float32 || !t.Shape.Equal(Shape{c}) {
					return nil, fmt.Errorf("%s %v, want f32[%v] for input %v", name, t, c, x.Shape)
				}
			}
			if eps := s.Float("eps"); !(eps >= 0) {
				return nil, fmt.Errorf("eps %v, want ≥ 0", eps)
			}
			return []Type{x}, nil
		},
		Kernel: runtime.BatchNorm,
	})
	RegisterOp(&Op{
		Name:      "max_pool2d",
		PerSample: true,
		Torch:     "F.max_pool2d",
		Go:        GoForm{Function: "MaxPool2d", Returns: "the maximum over each window of the last two dims of input [N,C,H,W] or [C,H,W]: kernelSize, stride and padding hold one value or two; an empty stride means kernelSize; padding is -inf and at most half the window"},
		Module:    &ModuleForm{Name: "MaxPool2d", Torch: "torch.nn.MaxPool2d", Hand: true},
		Doc: "max_pool2d(x, kernel_size, stride, padding) is the maximum over each window of the last two dims " +
			"of x [N,C,H,W] or [C,H,W], padding read as -inf; stride defaults to kernel_size.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs: []Attr{
			{Name: "kernel_size", Kind: IntsAttr},
			{Name: "stride", Kind: IntsAttr, Default: []int{}},
			{Name: "padding", Kind: IntsAttr, Default: []int{0, 0}},
		},
		Infer:  func(s *Sig) ([]Type, error) { return pool2dType(s, false) },
		Kernel: runtime.MaxPool2d,
	})
	RegisterOp(&Op{
		Name:      "adaptive_avg_pool2d",
		PerSample: true,
		Torch:     "F.adaptive_avg_pool2d",
		Go:        GoForm{Function: "AdaptiveAvgPool2d", Returns: "the averages of the last two dims of input [N,C,H,W] or [C,H,W] over the windows of an outputSize grid (one value for a square, or two)"},
		Module:    &ModuleForm{Name: "AdaptiveAvgPool2d", Torch: "torch.nn.AdaptiveAvgPool2d", Hand: true},
		Doc: "adaptive_avg_pool2d(x, output_size) averages the last two dims of x [N,C,H,W] or [C,H,W] " +
			"over the windows of an output_size grid, as torch's adaptive pooling.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "output_size", Kind: IntsAttr, ShapeOnly: true}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			if err := pool2dInput(x); err != nil {
				return nil, err
			}
			size, err := pair(s.Ints("output_size"), "output_size", 1)
			if err != nil {
				return nil, err
			}
			r := len(x.Shape)
			return []Type{{DType: Float32, Shape: append(x.Shape[:r-2].Clone(), Const(size[0]), Const(size[1]))}}, nil
		},
		Kernel: runtime.AdaptiveAvgPool2d,
	})
}

// pair reads a spatial attribute given as one value or two (height,
// width), each at least lo.
func pair(v []int, name string, lo int) ([]int, error) {
	switch {
	case len(v) == 1 && v[0] >= lo:
		return []int{v[0], v[0]}, nil
	case len(v) == 2 && v[0] >= lo && v[1] >= lo:
		return v, nil
	}
	return nil, fmt.Errorf("%s %v, want one or two values ≥ %d", name, v, lo)
}

// pool2dInput checks the input of a 2-D pooling op.
func pool2dInput(x Type) error {
	if err := wantFloat(x); err != nil {
		return err
	}
	if r := len(x.Shape); r != 3 && r != 4 {
		return fmt.Errorf("input %v, want [N,C,H,W] or [C,H,W]", x.Shape)
	}
	return nil
}

// window2d returns the output height and width of a sliding window k over
// the last two dims of in, with the stride and padding attributes of s. A
// pooling window (pool) takes its default stride from k and its padding
// must be at most half the window, as torch requires.
func window2d(s *Sig, in Shape, k []int, pool bool) (oh, ow int, err error) {
	r := len(in)
	h, w := in[r-2], in[r-1]
	if !h.IsConst() || !w.IsConst() {
		return 0, 0, fmt.Errorf("input %v: the spatial dims must be constant", in)
	}
	st := s.Ints("stride")
	if pool && len(st) == 0 {
		st = k
	}
	stride, err := pair(st, "stride", 1)
	if err != nil {
		return 0, 0, err
	}
	pad, err := pair(s.Ints("padding"), "padding", 0)
	if err != nil {
		return 0, 0, err
	}
	if pool && (2*pad[0] > k[0] || 2*pad[1] > k[1]) {
		return 0, 0, fmt.Errorf("padding %v must be at most half of kernel_size %v", s.Ints("padding"), k)
	}
	ph, pw := h.Coef+2*pad[0], w.Coef+2*pad[1]
	if ph < k[0] || pw < k[1] {
		return 0, 0, fmt.Errorf("kernel %dx%d is larger than the padded input %dx%d (input %v, padding %v)", k[0], k[1], ph, pw, in, s.Ints("padding"))
	}
	return (ph-k[0])/stride[0] + 1, (pw-k[1])/stride[1] + 1, nil
}

// convAttrs returns the attributes of conv2d, which its fused forms share.
func convAttrs() []Attr {
	return []Attr{
		{Name: "stride", Kind: IntsAttr, Default: []int{1, 1}},
		{Name: "padding", Kind: IntsAttr, Default: []int{0, 0}},
		{Name: "groups", Kind: IntAttr, Default: 1},
	}
}
