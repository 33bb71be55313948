// This file holds average pooling and Interpolate, which picks the
// resampling op and computes the output size as PyTorch does.

package tensor

import (
	"fmt"
	"math"

	"github.com/fxgen/fxgen/ir"
)

// AvgPool2d averages each window of the last two dims of x [N,C,H,W] or
// [C,H,W], as torch.nn.functional.avg_pool2d: kernelSize, stride and
// padding hold one value for both dims or two (an empty stride is
// kernelSize); ceilMode keeps a last partial window, countIncludePad
// counts the padding in the divisor (PyTorch's default is true).
func AvgPool2d(x *Tensor, kernelSize, stride, padding []int, ceilMode, countIncludePad bool) *Tensor {
	return apply1(function, "avg_pool2d", []any{x}, kw("kernel_size", kernelSize), kw("stride", stride),
		kw("padding", padding), kw("ceil_mode", ceilMode), kw("count_include_pad", countIncludePad))
}

// InterpolateOptions are the arguments of Interpolate after the input, as
// torch.nn.functional.interpolate's: Size or ScaleFactor (one value for
// both dims, or two), Mode "nearest" (the default) or "bilinear", and
// AlignCorners for bilinear.
type InterpolateOptions struct {
	Size         []int
	ScaleFactor  []float64
	Mode         string
	AlignCorners bool
}

// Interpolate resamples the last two dims of x [N,C,H,W] or [C,H,W] to
// o.Size, or to ⌊H·scale⌋×⌊W·scale⌋ for o.ScaleFactor, as
// torch.nn.functional.interpolate; with a scale factor, source indices
// are mapped by 1/scale, as PyTorch does. H and W must be constant.
//
//	y := tensor.Interpolate(x, tensor.InterpolateOptions{ScaleFactor: []float64{2}})
//	z := tensor.Interpolate(x, tensor.InterpolateOptions{Size: []int{7, 7}, Mode: "bilinear"})
func Interpolate(x *Tensor, o InterpolateOptions) *Tensor {
	op, kws := InterpolateOp(x.Dim(-2), x.Dim(-1), o)
	return apply1(function, op, []any{x}, kws...)
}

// InterpolateOp returns the resampling op (upsample_nearest2d or
// upsample_bilinear2d) and its attributes that Interpolate applies to an
// input of h×w, panicking on arguments PyTorch refuses. It is for modules
// such as nn.Upsample.
func InterpolateOp(h, w int, o InterpolateOptions) (string, []ir.Kwarg) {
	var size []int
	var sh, sw float64
	switch {
	case len(o.Size) > 0 && len(o.ScaleFactor) > 0:
		panic("tensor: Interpolate: give Size or ScaleFactor, not both")
	case len(o.Size) == 1:
		size = []int{o.Size[0], o.Size[0]}
	case len(o.Size) == 2:
		size = []int{o.Size[0], o.Size[1]}
	case len(o.ScaleFactor) == 1 || len(o.ScaleFactor) == 2:
		sh, sw = o.ScaleFactor[0], o.ScaleFactor[len(o.ScaleFactor)-1]
		if !(sh > 0) || !(sw > 0) || math.IsInf(sh, 0) || math.IsInf(sw, 0) {
			panic(fmt.Sprintf("tensor: Interpolate: scale factor %v, want positive", o.ScaleFactor))
		}
		size = []int{int(math.Floor(float64(h) * sh)), int(math.Floor(float64(w) * sw))}
	default:
		panic(fmt.Sprintf("tensor: Interpolate: Size %v and ScaleFactor %v: want one or two values of one of them", o.Size, o.ScaleFactor))
	}
	kws := []ir.Kwarg{kw("output_size", size)}
	switch o.Mode {
	case "", "nearest":
		if o.AlignCorners {
			panic("tensor: Interpolate: AlignCorners is for the bilinear mode only, as in PyTorch")
		}
		return "upsample_nearest2d", append(kws, kw("scales_h", sh), kw("scales_w", sw))
	case "bilinear":
		return "upsample_bilinear2d", append(kws, kw("align_corners", o.AlignCorners), kw("scales_h", sh), kw("scales_w", sw))
	}
	panic(fmt.Sprintf("tensor: Interpolate: mode %q, want \"nearest\" or \"bilinear\"", o.Mode))
}
