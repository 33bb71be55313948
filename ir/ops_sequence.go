// This file declares the ops of sequence and recommender models:
// normalization, embedding lookup, softmax, smooth activations, and the
// ops that cut, join and reorder tensors.

package ir

import (
	"fmt"
	"math"

	"github.com/fxgen/fxgen/runtime"
)

func init() {
	RegisterOp(&Op{
		Name:     "layer_norm",
		Torch:    "F.layer_norm",
		Go:       GoForm{Function: "LayerNorm", Hand: true},
		Module:   &ModuleForm{Name: "LayerNorm", Torch: "torch.nn.LayerNorm", Params: []string{"weight", "bias"}, Hand: true},
		Doc:      "layer_norm(x, weight, bias, normalized_shape, eps) normalizes x over its trailing dims normalized_shape to zero mean and unit (biased) variance, then scales by weight and adds bias (each optional, of shape normalized_shape).",
		Operands: []Operand{{"input", TensorOperand}, {"weight", OptionalOperand}, {"bias", OptionalOperand}},
		Attrs: []Attr{
			{Name: "normalized_shape", Kind: IntsAttr},
			{Name: "eps", Kind: FloatAttr, Default: 1e-5},
		},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			if err := wantFloat(x); err != nil {
				return nil, err
			}
			ns := s.Ints("normalized_shape")
			want := ConstShape(ns...)
			if len(ns) == 0 || len(ns) > len(x.Shape) || !x.Shape[len(x.Shape)-len(ns):].Equal(want) {
				return nil, fmt.Errorf("input %v does not end with normalized_shape %v", x.Shape, want)
			}
			for i, name := range []string{"weight", "bias"} {
				a := s.Args[1+i]
				if a.Absent {
					continue
				}
				if a.Type.DType != Float32 || !a.Type.Shape.Equal(want) {
					return nil, fmt.Errorf("%s %v, want f32%v", name, a.Type, want)
				}
			}
			return []Type{x}, nil
		},
		Kernel: runtime.LayerNorm,
	})
	RegisterOp(&Op{
		Name:     "embedding",
		Torch:    "F.embedding",
		Go:       GoForm{Function: "Embedding", Returns: "the rows of weight [num, dim] picked by the int64 indices input: its shape is the shape of input + [dim]"},
		Module:   &ModuleForm{Name: "Embedding", Torch: "torch.nn.Embedding", Params: []string{"weight"}, Hand: true},
		Doc:      "embedding(indices, weight) looks up rows of the table weight [num, dim] by the int64 indices: the result is indices.shape + [dim]. An index outside [0, num) is a run-time panic.",
		Operands: []Operand{{"input", TensorOperand}, {"weight", TensorOperand}},
		Infer: func(s *Sig) ([]Type, error) {
			idx, w := s.Args[0].Type, s.Args[1].Type
			if idx.DType != Int64 {
				return nil, fmt.Errorf("indices %v, want i64", idx)
			}
			if w.DType != Float32 || len(w.Shape) != 2 {
				return nil, fmt.Errorf("weight %v, want f32[num, dim]", w)
			}
			return []Type{{DType: Float32, Shape: append(idx.Shape.Clone(), w.Shape[1])}}, nil
		},
		Kernel: runtime.Embedding,
	})
	RegisterOp(&Op{
		Name:     "softmax",
		Torch:    "F.softmax, Tensor.softmax",
		Go:       GoForm{Method: "Softmax", Function: "Softmax", Returns: "the softmax of input along dim"},
		Module:   &ModuleForm{Name: "Softmax", Torch: "torch.nn.Softmax"},
		Doc:      "softmax(x, dim) is exp(x) / Σ exp(x) along dim, computed stably; a row of all -inf is NaN.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "dim", Kind: IntAttr}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			if err := wantFloat(x); err != nil {
				return nil, err
			}
			if _, err := dimOf(s, "dim", x.Shape, 0); err != nil && len(x.Shape) > 0 {
				return nil, err
			}
			return []Type{x}, nil
		},
		Kernel: runtime.Softmax,
	})
	RegisterOp(&Op{
		Name:     "transpose",
		Torch:    "torch.transpose, Tensor.transpose",
		Go:       GoForm{Method: "Transpose", Function: "Transpose", Returns: "input with dims dim0 and dim1 swapped (negative counts from the end)"},
		Doc:      "transpose(x, dim0, dim1) swaps two dims.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "dim0", Kind: IntAttr}, {Name: "dim1", Kind: IntAttr}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			a, err := dimOf(s, "dim0", x.Shape, 0)
			if err != nil {
				return nil, err
			}
			b, err := dimOf(s, "dim1", x.Shape, 0)
			if err != nil {
				return nil, err
			}
			out := x.Shape.Clone()
			out[a], out[b] = out[b], out[a]
			return []Type{{DType: x.DType, Shape: out}}, nil
		},
		Kernel: runtime.Transpose,
	})
	RegisterOp(&Op{
		Name:     "permute",
		Torch:    "torch.permute, Tensor.permute",
		Go:       GoForm{Method: "Permute", Variadic: true, Returns: "input with its dims reordered: dim i of the result is dim dims[i] of input"},
		Doc:      "permute(x, dims) reorders the dims: dim i of the result is dim dims[i] of x.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "dims", Kind: IntsAttr}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			dims := s.Ints("dims")
			if len(dims) != len(x.Shape) {
				return nil, fmt.Errorf("dims %v for %v: want one per dim", dims, x.Shape)
			}
			seen := make([]bool, len(dims))
			out := make(Shape, len(dims))
			for i, d := range dims {
				nd, ok := runtime.NormalizeDim(d, len(dims))
				if !ok || seen[nd] {
					return nil, fmt.Errorf("dims %v is not a permutation of the dims of %v", dims, x.Shape)
				}
				seen[nd] = true
				out[i] = x.Shape[nd]
			}
			return []Type{{DType: x.DType, Shape: out}}, nil
		},
		Kernel: runtime.Permute,
	})
	RegisterOp(&Op{
		Name:     "chunk",
		Torch:    "torch.chunk, Tensor.chunk",
		Go:       GoForm{Method: "Chunk", Function: "Chunk", Hand: true},
		Doc:      "chunk(x, chunks, dim) cuts x along dim into chunks pieces of ⌈size/chunks⌉ (the last may be smaller, and there may be fewer), one result each.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "chunks", Kind: IntAttr, ShapeOnly: true}, {Name: "dim", Kind: IntAttr, Default: 0}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			d, err := dimOf(s, "dim", x.Shape, 0)
			if err != nil {
				return nil, err
			}
			chunks := s.Int("chunks")
			if chunks < 1 {
				return nil, fmt.Errorf("chunks = %d, want ≥ 1", chunks)
			}
			size := x.Shape[d]
			if !size.IsConst() {
				piece, ok := size.Div(Const(chunks))
				if !ok {
					return nil, fmt.Errorf("cannot cut the symbolic dim %v of %v into %d equal chunks", size, x.Shape, chunks)
				}
				return pieces(x, d, repeat(piece, chunks)), nil
			}
			c := (size.Coef + chunks - 1) / chunks
			if c == 0 {
				return nil, fmt.Errorf("cannot chunk the empty dim %d of %v", d, x.Shape)
			}
			var sizes []Dim
			for left := size.Coef; left > 0; left -= c {
				sizes = append(sizes, Const(min(c, left)))
			}
			return pieces(x, d, sizes), nil
		},
		Kernel: runtime.Split,
	})
	RegisterOp(&Op{
		Name:     "split",
		Torch:    "torch.split, Tensor.split",
		Go:       GoForm{Method: "Split", Hand: true},
		Doc:      "split(x, split_size_or_sections, dim) cuts x along dim into pieces of one size (the last may be smaller) or, given several, of those sizes, one result each.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "split_size_or_sections", Kind: IntsAttr, ShapeOnly: true}, {Name: "dim", Kind: IntAttr, Default: 0}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			d, err := dimOf(s, "dim", x.Shape, 0)
			if err != nil {
				return nil, err
			}
			sizes := s.Ints("split_size_or_sections")
			size := x.Shape[d]
			for _, v := range sizes {
				if v < 0 || len(sizes) == 1 && v == 0 {
					return nil, fmt.Errorf("bad split sizes %v", sizes)
				}
			}
			if len(sizes) == 0 {
				return nil, fmt.Errorf("split_size_or_sections is empty")
			}
			if !size.IsConst() {
				return nil, fmt.Errorf("cannot split the symbolic dim %v of %v; use chunk for equal pieces", size, x.Shape)
			}
			var dims []Dim
			if len(sizes) == 1 {
				for left := size.Coef; left > 0; left -= sizes[0] {
					dims = append(dims, Const(min(sizes[0], left)))
				}
				if len(dims) == 0 {
					return nil, fmt.Errorf("cannot split the empty dim %d of %v", d, x.Shape)
				}
				return pieces(x, d, dims), nil
			}
			total := 0
			for _, v := range sizes {
				total += v
				dims = append(dims, Const(v))
			}
			if total != size.Coef {
				return nil, fmt.Errorf("sections %v add up to %d, dim %d of %v is %d", sizes, total, d, x.Shape, size.Coef)
			}
			return pieces(x, d, dims), nil
		},
		Kernel: runtime.Split,
	})
	RegisterOp(&Op{
		Name:     "select",
		Torch:    "torch.select, Tensor.select",
		Go:       GoForm{Method: "Select", Returns: "input at position index of dim, removing the dim: x[:, i, :] is x.Select(1, i)"},
		Doc:      "select(x, dim, index) is x at position index of dim, which is removed (x[:, index] for dim 1); a negative index counts from the end.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "dim", Kind: IntAttr}, {Name: "index", Kind: IntAttr}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			d, err := dimOf(s, "dim", x.Shape, 0)
			if err != nil {
				return nil, err
			}
			i := s.Int("index")
			if size := x.Shape[d]; size.IsConst() && (i >= size.Coef || i < -size.Coef) {
				return nil, fmt.Errorf("index %d out of range for dim %d of %v", i, d, x.Shape)
			}
			out := append(x.Shape[:d].Clone(), x.Shape[d+1:]...)
			return []Type{{DType: x.DType, Shape: out}}, nil
		},
		Kernel: runtime.Select,
	})
	RegisterOp(&Op{
		Name:     "slice",
		Torch:    "x[a:b:c] (operator.getitem with a slice)",
		Go:       GoForm{Method: "Slice", Returns: "input[.., start:end:step, ..] along dim, with Python's rules for negative and out-of-range bounds (math.MaxInt for an open end)"},
		Doc:      "slice(x, dim, start, end, step) is x[.., start:end:step, ..] along dim with Python's rules for negative and out-of-range bounds; step ≥ 1.",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs: []Attr{
			{Name: "dim", Kind: IntAttr, Default: 0},
			{Name: "start", Kind: IntAttr, Default: 0},
			{Name: "end", Kind: IntAttr, Default: math.MaxInt},
			{Name: "step", Kind: IntAttr, Default: 1},
		},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			d, err := dimOf(s, "dim", x.Shape, 0)
			if err != nil {
				return nil, err
			}
			start, end, step := s.Int("start"), s.Int("end"), s.Int("step")
			if step < 1 {
				return nil, fmt.Errorf("step %d, want ≥ 1", step)
			}
			out := x.Shape.Clone()
			size := x.Shape[d]
			switch {
			case size.IsConst():
				_, n := runtime.SliceRange(size.Coef, start, end, step)
				out[d] = Const(n)
			case start == 0 && end == math.MaxInt && step == 1:
			default:
				return nil, fmt.Errorf("cannot slice the symbolic dim %v of %v with %d:%d:%d; only the whole range is known", size, x.Shape, start, end, step)
			}
			return []Type{{DType: x.DType, Shape: out}}, nil
		},
		Kernel: runtime.Slice,
	})
	RegisterOp(&Op{
		Name:     "index_select",
		Torch:    "torch.index_select, Tensor.index_select",
		Go:       GoForm{Method: "IndexSelect", Hand: true},
		Doc:      "index_select(x, index, dim) picks the entries of dim listed by the 1-d int64 index, in its order; an index out of range is a run-time panic.",
		Operands: []Operand{{"input", TensorOperand}, {"index", TensorOperand}},
		Attrs:    []Attr{{Name: "dim", Kind: IntAttr}},
		Infer: func(s *Sig) ([]Type, error) {
			x, idx := s.Args[0].Type, s.Args[1].Type
			d, err := dimOf(s, "dim", x.Shape, 0)
			if err != nil {
				return nil, err
			}
			if idx.DType != Int64 || len(idx.Shape) != 1 {
				return nil, fmt.Errorf("index %v, want i64[n]", idx)
			}
			out := x.Shape.Clone()
			out[d] = idx.Shape[0]
			return []Type{{DType: x.DType, Shape: out}}, nil
		},
		Kernel: runtime.IndexSelect,
	})
	RegisterOp(&Op{
		Name:     "stack",
		Torch:    "torch.stack",
		Go:       GoForm{Function: "Stack", Returns: "tensors of one shape joined along a new dim"},
		Doc:      "stack(tensors, dim) joins tensors of one shape along a new dim.",
		Operands: []Operand{{"tensors", ListOperand}},
		Attrs:    []Attr{{Name: "dim", Kind: IntAttr, Default: 0}},
		Infer: func(s *Sig) ([]Type, error) {
			ts := s.Args[0].List
			if len(ts) == 0 {
				return nil, fmt.Errorf("no tensors to stack")
			}
			first := ts[0]
			for i, t := range ts {
				if !t.Equal(first) {
					return nil, fmt.Errorf("tensor %d is %v, tensor 0 is %v: stack wants one type", i, t, first)
				}
			}
			d, err := dimOf(s, "dim", first.Shape, 1)
			if err != nil {
				return nil, err
			}
			out := append(append(first.Shape[:d].Clone(), Const(len(ts))), first.Shape[d:]...)
			return []Type{{DType: first.DType, Shape: out}}, nil
		},
		Kernel: runtime.Stack,
	})
	RegisterOp(&Op{
		Name:     "cat",
		Torch:    "torch.cat",
		Go:       GoForm{Function: "Cat", Returns: "tensors joined along dim"},
		Doc:      "cat(tensors, dim) joins tensors along dim; they agree on every other dim and on dtype.",
		Operands: []Operand{{"tensors", ListOperand}},
		Attrs:    []Attr{{Name: "dim", Kind: IntAttr, Default: 0}},
		Infer: func(s *Sig) ([]Type, error) {
			ts := s.Args[0].List
			if len(ts) == 0 {
				return nil, fmt.Errorf("no tensors to concatenate")
			}
			first := ts[0]
			d, err := dimOf(s, "dim", first.Shape, 0)
			if err != nil {
				return nil, err
			}
			total := first.Shape[d]
			for i, t := range ts[1:] {
				if t.DType != first.DType || len(t.Shape) != len(first.Shape) ||
					!t.Shape[:d].Equal(first.Shape[:d]) || !t.Shape[d+1:].Equal(first.Shape[d+1:]) {
					return nil, fmt.Errorf("tensor %d is %v, tensor 0 is %v: they may differ only in dim %d", i+1, t, first, d)
				}
				var ok bool
				if total, ok = addDims(total, t.Shape[d]); !ok {
					return nil, fmt.Errorf("cannot add the sizes %v and %v of dim %d", total, t.Shape[d], d)
				}
			}
			out := first.Shape.Clone()
			out[d] = total
			return []Type{{DType: first.DType, Shape: out}}, nil
		},
		Kernel: runtime.Cat,
	})
	RegisterOp(&Op{
		Name:     "masked_fill",
		Torch:    "torch.masked_fill, Tensor.masked_fill",
		Go:       GoForm{Method: "MaskedFill", Function: "MaskedFill", Returns: "input with value wherever the bool mask (broadcast to the shape of input) is true"},
		Doc:      "masked_fill(x, mask, value) is x with value wherever the bool mask (broadcast to x's shape) is true.",
		Operands: []Operand{{"input", TensorOperand}, {"mask", TensorOperand}},
		Attrs:    []Attr{{Name: "value", Kind: FloatAttr}},
		Infer: func(s *Sig) ([]Type, error) {
			x, m := s.Args[0].Type, s.Args[1].Type
			if m.DType != Bool {
				return nil, fmt.Errorf("mask %v, want bool", m)
			}
			shape, err := BroadcastShapes(x.Shape, m.Shape)
			if err != nil || !shape.Equal(x.Shape) {
				return nil, fmt.Errorf("mask %v does not broadcast to input %v", m.Shape, x.Shape)
			}
			return []Type{x}, nil
		},
		Kernel: runtime.MaskedFill,
	})
	RegisterOp(&Op{
		Name:     "unsqueeze",
		Reshape:  true,
		Torch:    "torch.unsqueeze, Tensor.unsqueeze",
		Go:       GoForm{Method: "Unsqueeze", Returns: "input with a dim of size 1 inserted at dim"},
		Doc:      "unsqueeze(x, dim) inserts a dim of size 1 at dim (negative counts from the end of the result).",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "dim", Kind: IntAttr, ShapeOnly: true}},
		Infer: func(s *Sig) ([]Type, error) {
			x := s.Args[0].Type
			d, err := dimOf(s, "dim", x.Shape, 1)
			if err != nil {
				return nil, err
			}
			out := append(append(x.Shape[:d].Clone(), Const(1)), x.Shape[d:]...)
			return []Type{{DType: x.DType, Shape: out}}, nil
		},
		Kernel: runtime.Copy,
	})

}

// dimOf normalizes the dim attribute name against shape, whose rank is
// taken as len(shape)+extra (1 for ops that insert a dim).
func dimOf(s *Sig, name string, shape Shape, extra int) (int, error) {
	v := s.Int(name)
	d, ok := runtime.NormalizeDim(v, len(shape)+extra)
	if !ok {
		return 0, fmt.Errorf("%s %d out of range for %v", name, v, shape)
	}
	return d, nil
}

// pieces returns the types of x cut along dim d into the given sizes.
func pieces(x Type, d int, sizes []Dim) []Type {
	out := make([]Type, len(sizes))
	for i, sz := range sizes {
		sh := x.Shape.Clone()
		sh[d] = sz
		out[i] = Type{DType: x.DType, Shape: sh}
	}
	return out
}

func repeat(d Dim, n int) []Dim {
	out := make([]Dim, n)
	for i := range out {
		out[i] = d
	}
	return out
}

// addDims returns a+b when it is a Dim: two constants, or two multiples of
// one symbol.
func addDims(a, b Dim) (Dim, bool) {
	switch {
	case a.Sym == b.Sym:
		return Dim{Coef: a.Coef + b.Coef, Sym: a.Sym}, true
	case a.Coef == 0 && a.Sym == "":
		return b, true
	case b.Coef == 0 && b.Sym == "":
		return a, true
	}
	return Dim{}, false
}
