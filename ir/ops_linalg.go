// This file declares the matrix-product ops: linear and matmul.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() {
	RegisterOp(&Op{
		Name:      "linear",
		PerSample: true,
		Torch:     "F.linear",
		Go:        GoForm{Function: "Linear", Returns: "input·weightᵀ + bias (bias may be nil); weight is [out, in]"},
		Module:    &ModuleForm{Name: "Linear", Torch: "torch.nn.Linear", Params: []string{"weight", "bias"}, Hand: true},
		Doc:       "linear(x, weight, bias) is x·weightᵀ + bias over the last dim; weight is [out, in].",
		Operands:  []Operand{{"input", TensorOperand}, {"weight", TensorOperand}, {"bias", OptionalOperand}},
		Infer: func(s *Sig) ([]Type, error) {
			x, w := s.Args[0].Type, s.Args[1].Type
			if err := wantFloat(x, w); err != nil {
				return nil, err
			}
			if len(x.Shape) < 1 || len(w.Shape) != 2 {
				return nil, fmt.Errorf("got input %v and weight %v, want [..., in] and [out, in]", x.Shape, w.Shape)
			}
			if x.Shape[len(x.Shape)-1] != w.Shape[1] {
				return nil, fmt.Errorf("input %v has %v features, weight %v wants %v", x.Shape, x.Shape[len(x.Shape)-1], w.Shape, w.Shape[1])
			}
			if !s.Args[2].Absent {
				b := s.Args[2].Type
				if len(b.Shape) != 1 || b.Shape[0] != w.Shape[0] {
					return nil, fmt.Errorf("bias %v, want [%v]", b.Shape, w.Shape[0])
				}
			}
			out := append(x.Shape[:len(x.Shape)-1:len(x.Shape)-1], w.Shape[0])
			return []Type{{DType: Float32, Shape: out}}, nil
		},
		Kernel:   runtime.Linear,
		Prepared: &Prepared{Operand: 1, Prepare: runtime.PackLinear, Kernel: runtime.LinearPacked},
	})
	RegisterOp(&Op{
		Name:     "matmul",
		Torch:    "torch.matmul, Tensor.matmul, operator.matmul",
		Go:       GoForm{Method: "Matmul", Function: "Matmul", Returns: "the matrix product input·other over the last two dims, broadcasting the leading dims"},
		Doc:      "matmul(a, b) is the matrix product over the last two dims, broadcasting the leading (batch) dims.",
		Operands: []Operand{{"input", TensorOperand}, {"other", TensorOperand}},
		Infer: func(s *Sig) ([]Type, error) {
			a, b := s.Args[0].Type, s.Args[1].Type
			if err := wantFloat(a, b); err != nil {
				return nil, err
			}
			ra, rb := len(a.Shape), len(b.Shape)
			if ra < 2 || rb < 2 {
				return nil, fmt.Errorf("got %v and %v, want rank ≥ 2", a.Shape, b.Shape)
			}
			if a.Shape[ra-1] != b.Shape[rb-2] {
				return nil, fmt.Errorf("inner dims of %v and %v differ", a.Shape, b.Shape)
			}
			batch, err := BroadcastShapes(a.Shape[:ra-2], b.Shape[:rb-2])
			if err != nil {
				return nil, fmt.Errorf("batch dims: %v", err)
			}
			return []Type{{DType: Float32, Shape: append(batch, a.Shape[ra-2], b.Shape[rb-1])}}, nil
		},
		Kernel: runtime.Matmul,
	})
	RegisterOp(&Op{
		Name: "matmul_transb",
		Doc: "matmul_transb(a, b) is matmul(a, b with its last two dims swapped), without the transpose " +
			"(made by the fold-transpose pass).",
		Operands: []Operand{{"input", TensorOperand}, {"other", TensorOperand}},
		Infer: func(s *Sig) ([]Type, error) {
			b := s.Args[1].Type
			if len(b.Shape) < 2 {
				return nil, fmt.Errorf("got %v, want rank ≥ 2", b.Shape)
			}
			r := len(b.Shape)
			bt := b.Shape.Clone()
			bt[r-2], bt[r-1] = bt[r-1], bt[r-2]
			return LookupOp("matmul").Infer(&Sig{Op: LookupOp("matmul"), Args: []ArgType{s.Args[0], {Type: Type{DType: b.DType, Shape: bt}}}})
		},
		Kernel: runtime.MatmulTransB,
	})
}

func wantFloat(ts ...Type) error {
	for _, t := range ts {
		if t.DType != Float32 {
			return fmt.Errorf("got %v, want f32", t)
		}
	}
	return nil
}
