// This file declares the ops that pick entries by index or condition:
// gather, where and embedding_bag.

package ir

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

func init() { registerTable(indexOps) }

// indexOps is the indexing family of the op table.
var indexOps = []*Op{
	{
		Name: "gather", Torch: "torch.gather, Tensor.gather",
		Go:       GoForm{Method: "Gather", Function: "Gather", Returns: "the entries of input picked along dim by the int64 index (index's shape; an index out of range is a run-time panic)"},
		Doc:      "gather(x, index, dim) picks entries of x along dim by the int64 index, of x's rank: out[i][j] = x[index[i][j]][j] for dim 0.",
		Operands: []Operand{{"input", TensorOperand}, {"index", TensorOperand}},
		Attrs:    []Attr{{Name: "dim", Kind: IntAttr}},
		Infer: func(s *Sig) ([]Type, error) {
			x, idx := s.Args[0].Type, s.Args[1].Type
			if idx.DType != Int64 || len(idx.Shape) != len(x.Shape) {
				return nil, fmt.Errorf("index %v, want i64 of input %v's rank", idx, x)
			}
			d, ok := runtime.NormalizeDim(s.Int("dim"), len(x.Shape))
			if !ok && len(x.Shape) > 0 {
				return nil, fmt.Errorf("dim %d out of range for %v", s.Int("dim"), x.Shape)
			}
			for i := range x.Shape {
				if i != d && x.Shape[i].IsConst() && idx.Shape[i].IsConst() && idx.Shape[i].Coef > x.Shape[i].Coef {
					return nil, fmt.Errorf("index %v is larger than input %v in dim %d", idx.Shape, x.Shape, i)
				}
			}
			return []Type{{DType: x.DType, Shape: idx.Shape.Clone()}}, nil
		},
		Kernel: runtime.Gather,
	},
	{
		Name: "where", Torch: "torch.where(condition, input, other), Tensor.where",
		Go:       GoForm{Function: "Where", Returns: "input where condition is true and other elsewhere, broadcasting the three"},
		Doc:      "where(condition, x, y) is x where the bool condition holds and y elsewhere, broadcasting the three; x and y may be numbers.",
		Operands: []Operand{{"condition", TensorOperand}, {"input", NumberOperand}, {"other", NumberOperand}},
		Infer: func(s *Sig) ([]Type, error) {
			c, x, y := s.Args[0].Type, s.Args[1].Type, s.Args[2].Type
			if c.DType != Bool {
				return nil, fmt.Errorf("condition %v, want bool", c)
			}
			shape, err := BroadcastShapes(c.Shape, x.Shape)
			if err == nil {
				shape, err = BroadcastShapes(shape, y.Shape)
			}
			if err != nil {
				return nil, err
			}
			return []Type{{DType: promote(x.DType, y.DType), Shape: shape}}, nil
		},
		Kernel: runtime.Where,
	},
	{
		Name: "embedding_bag", Torch: "F.embedding_bag",
		Go:     GoForm{Function: "EmbeddingBag", Hand: true},
		Module: &ModuleForm{Name: "EmbeddingBag", Torch: "torch.nn.EmbeddingBag", Params: []string{"weight"}, Hand: true},
		Doc: "embedding_bag(indices, offsets, weight, mode) reduces bags of rows of weight [num, dim]: with offsets, " +
			"indices is 1-D and bag b starts at offsets[b]; without, indices is [bags, length]. mode is " +
			"runtime.EmbeddingBagSum, Mean or Max; an empty bag gives zeros. The result is [bags, dim].",
		Operands: []Operand{{"input", TensorOperand}, {"offsets", OptionalOperand}, {"weight", TensorOperand}},
		Attrs:    []Attr{{Name: "mode", Kind: IntAttr, Default: runtime.EmbeddingBagMean}},
		Infer: func(s *Sig) ([]Type, error) {
			idx, w := s.Args[0].Type, s.Args[2].Type
			if w.DType != Float32 || len(w.Shape) != 2 {
				return nil, fmt.Errorf("weight %v, want f32[num, dim]", w)
			}
			if m := s.Int("mode"); m < runtime.EmbeddingBagSum || m > runtime.EmbeddingBagMax {
				return nil, fmt.Errorf("mode %d, want runtime.EmbeddingBagSum, EmbeddingBagMean or EmbeddingBagMax", m)
			}
			if idx.DType != Int64 {
				return nil, fmt.Errorf("indices %v, want i64", idx)
			}
			if s.Args[1].Absent {
				if len(idx.Shape) != 2 {
					return nil, fmt.Errorf("indices %v without offsets, want [bags, length]", idx)
				}
				return []Type{{DType: Float32, Shape: Shape{idx.Shape[0], w.Shape[1]}}}, nil
			}
			off := s.Args[1].Type
			if len(idx.Shape) != 1 || off.DType != Int64 || len(off.Shape) != 1 {
				return nil, fmt.Errorf("indices %v and offsets %v, want both i64 and 1-D", idx, off)
			}
			return []Type{{DType: Float32, Shape: Shape{off.Shape[0], w.Shape[1]}}}, nil
		},
		Kernel: runtime.EmbeddingBag,
	},
}
