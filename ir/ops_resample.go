// This file declares average pooling over fixed windows and the
// resampling ops of interpolate (nearest and bilinear upsampling).

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() { registerTable(resampleOps) }

// resampleOps is the pooling and resampling family of the op table.
var resampleOps = []*Op{
	{
		Name: "avg_pool2d", Torch: "F.avg_pool2d",
		PerSample: true,
		Go:        GoForm{Function: "AvgPool2d", Hand: true},
		Module:    &ModuleForm{Name: "AvgPool2d", Torch: "torch.nn.AvgPool2d", Hand: true},
		Doc: "avg_pool2d(x, kernel_size, stride, padding, ceil_mode, count_include_pad) is the mean over each window " +
			"of the last two dims of x [N,C,H,W] or [C,H,W]; stride defaults to kernel_size; count_include_pad counts " +
			"the padding in the divisor; ceil_mode keeps a last partial window that starts inside the input or its left padding.",
		Operands: unaryOperand,
		Attrs: []Attr{
			{Name: "kernel_size", Kind: IntsAttr},
			{Name: "stride", Kind: IntsAttr, Default: []int{}},
			{Name: "padding", Kind: IntsAttr, Default: []int{0, 0}},
			{Name: "ceil_mode", Kind: BoolAttr, Default: false},
			{Name: "count_include_pad", Kind: BoolAttr, Default: true},
		},
		Infer:  func(s *Sig) ([]Type, error) { return pool2dType(s, s.Bool("ceil_mode")) },
		Kernel: runtime.AvgPool2d,
	},
	{
		Name: "upsample_nearest2d", Torch: "F.interpolate(mode='nearest'), torch.nn.Upsample",
		Go:     GoForm{Function: "Interpolate", Hand: true},
		Module: &ModuleForm{Name: "UpsampleNearest", GoType: "Upsample", Torch: "torch.nn.Upsample(mode='nearest')", Hand: true},
		Doc: "upsample_nearest2d(x, output_size, scales_h, scales_w) resamples the last two dims of x [N,C,H,W] or [C,H,W] " +
			"to output_size by nearest neighbour; a scale factor given (non-zero) maps indices by 1/scale, else by H/OH, as PyTorch.",
		Operands: unaryOperand,
		Attrs:    upsampleAttrs(false),
		Infer:    upsampleRule,
		Kernel:   runtime.InterpolateNearest,
	},
	{
		Name: "upsample_bilinear2d", Torch: "F.interpolate(mode='bilinear'), torch.nn.Upsample(mode='bilinear')",
		Go:     GoForm{Function: "Interpolate", Hand: true},
		Module: &ModuleForm{Name: "UpsampleBilinear", GoType: "Upsample", Torch: "torch.nn.Upsample(mode='bilinear')", Hand: true},
		Doc: "upsample_bilinear2d(x, output_size, align_corners, scales_h, scales_w) resamples the last two dims of x " +
			"[N,C,H,W] or [C,H,W] to output_size by bilinear interpolation, as PyTorch's interpolate with the same align_corners.",
		Operands: unaryOperand,
		Attrs:    upsampleAttrs(true),
		Infer:    upsampleRule,
		Kernel:   runtime.InterpolateBilinear,
	},
}

// upsampleAttrs are the attributes of the upsampling ops; output_size
// decides the result type only.
func upsampleAttrs(bilinear bool) []Attr {
	a := []Attr{{Name: "output_size", Kind: IntsAttr, ShapeOnly: true}}
	if bilinear {
		a = append(a, Attr{Name: "align_corners", Kind: BoolAttr, Default: false})
	}
	return append(a, Attr{Name: "scales_h", Kind: FloatAttr, Default: 0.0}, Attr{Name: "scales_w", Kind: FloatAttr, Default: 0.0})
}

// upsampleRule is the type rule of the upsampling ops.
func upsampleRule(s *Sig) ([]Type, error) {
	x := s.Args[0].Type
	if err := pool2dInput(x); err != nil {
		return nil, err
	}
	size := s.Ints("output_size")
	if len(size) != 2 || size[0] < 1 || size[1] < 1 {
		return nil, fmt.Errorf("output_size %v, want two sizes ≥ 1", size)
	}
	if s.Float("scales_h") < 0 || s.Float("scales_w") < 0 {
		return nil, fmt.Errorf("scales %v, %v: want positive scale factors, or 0 for none", s.Float("scales_h"), s.Float("scales_w"))
	}
	r := len(x.Shape)
	return []Type{{DType: Float32, Shape: append(x.Shape[:r-2].Clone(), Const(size[0]), Const(size[1]))}}, nil
}

// pool2dType is the type rule of the 2-D pooling ops over fixed windows:
// kernel_size, stride (kernel_size when empty) and padding, the output
// size rounded up when ceilMode.
func pool2dType(s *Sig, ceilMode bool) ([]Type, error) {
	x := s.Args[0].Type
	if err := pool2dInput(x); err != nil {
		return nil, err
	}
	k, err := pair(s.Ints("kernel_size"), "kernel_size", 1)
	if err != nil {
		return nil, err
	}
	if _, _, err := window2d(s, x.Shape, k, true); err != nil {
		return nil, err
	}
	st := s.Ints("stride")
	if len(st) == 0 {
		st = k
	}
	st, _ = pair(st, "stride", 1)
	pad, _ := pair(s.Ints("padding"), "padding", 0)
	r := len(x.Shape)
	oh := runtime.PoolOutSize(x.Shape[r-2].Coef, k[0], st[0], pad[0], ceilMode)
	ow := runtime.PoolOutSize(x.Shape[r-1].Coef, k[1], st[1], pad[1], ceilMode)
	return []Type{{DType: Float32, Shape: append(x.Shape[:r-2].Clone(), Const(oh), Const(ow))}}, nil
}
