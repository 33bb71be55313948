// This file declares the tensor constructors: zeros, ones, arange, rand.

package ir

import (
	"fmt"
	"math"

	"github.com/fxgen/fxgen/runtime"
)

func init() {
	shapeAttr := Attr{Name: "shape", Kind: IntsAttr, ShapeOnly: true}
	dtypeAttr := Attr{Name: "dtype", Kind: DTypeAttr, Default: Float32, ShapeOnly: true}
	fixed := func(s *Sig) ([]Type, error) {
		shape := s.Ints("shape")
		for _, d := range shape {
			if d < 0 {
				return nil, fmt.Errorf("negative size in shape %v", shape)
			}
		}
		return []Type{{DType: s.DType("dtype"), Shape: ConstShape(shape...)}}, nil
	}
	RegisterOp(&Op{Name: "zeros", Torch: "torch.zeros", Go: GoForm{Function: "Zeros", Hand: true}, Doc: "zeros(shape, dtype) is a tensor of zeros.", Attrs: []Attr{shapeAttr, dtypeAttr}, Infer: fixed, Kernel: runtime.Zeros})
	RegisterOp(&Op{Name: "ones", Torch: "torch.ones", Go: GoForm{Function: "Ones", Hand: true}, Doc: "ones(shape, dtype) is a tensor of ones.", Attrs: []Attr{shapeAttr, dtypeAttr}, Infer: fixed, Kernel: runtime.Ones})
	RegisterOp(&Op{
		Name:  "arange",
		Torch: "torch.arange",
		Go:    GoForm{Function: "Arange", Hand: true},
		Doc:   "arange(start, end, step, dtype) is the 1-d tensor start, start+step, ... below end.",
		Attrs: []Attr{
			{Name: "start", Kind: FloatAttr, Default: 0.0},
			{Name: "end", Kind: FloatAttr, ShapeOnly: true},
			{Name: "step", Kind: FloatAttr, Default: 1.0},
			{Name: "dtype", Kind: DTypeAttr, Default: Int64, ShapeOnly: true},
		},
		Infer: func(s *Sig) ([]Type, error) {
			start, end, step := s.Float("start"), s.Float("end"), s.Float("step")
			if step == 0 || (end-start)*step < 0 {
				return nil, fmt.Errorf("bad range start=%v end=%v step=%v", start, end, step)
			}
			if d := s.DType("dtype"); d != Float32 && d != Int64 {
				return nil, fmt.Errorf("dtype %v, want f32 or i64", d)
			}
			n := int(math.Ceil((end - start) / step))
			return []Type{{DType: s.DType("dtype"), Shape: ConstShape(n)}}, nil
		},
		Kernel: runtime.Arange,
	})
	RegisterOp(&Op{
		Name:  "rand",
		Torch: "torch.rand",
		Go:    GoForm{Function: "Rand", Hand: true},
		Doc:   "rand(shape, seed) is a float32 tensor of uniform values in [0, 1) from a generator seeded with seed.",
		Attrs: []Attr{shapeAttr, {Name: "seed", Kind: IntAttr}},
		Infer: func(s *Sig) ([]Type, error) {
			return []Type{{DType: Float32, Shape: ConstShape(s.Ints("shape")...)}}, nil
		},
		Kernel: runtime.Rand,
	})
}
