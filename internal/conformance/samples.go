// This file lists the samples: the calls every op of the table is checked
// on.

package conformance

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
)

// Sample is one call of an op: its operands (Input markers, lists of them,
// number literals, nil), attributes and the types of its input tensors,
// whose dims may use the symbol N.
type Sample struct {
	Name   string // unique, a Go identifier: the compiled type is Name+"Compiled"
	Op     string
	Args   []any
	Kwargs []ir.Kwarg
	Inputs []string // input types, such as "f32[N,3,5]"
	// Ranges draws int64 input i from [lo, hi); the default is [-5, 6).
	Ranges map[int][2]int64
	// Positive draws the float32 inputs listed from (0.1, 3).
	Positive []int
	// Specials mixes NaN, ±Inf, ±0 and the ops' thresholds into the
	// float32 inputs.
	Specials bool
	// NoCompile leaves the sample out of the compiled check.
	NoCompile bool
	// TierTol, when not 0, is how far (relative) the tiers' results may
	// be apart instead of crossTierTol: for an op that chains several
	// sums, each rounded differently with and without FMA.
	TierTol float64
}

// Types returns the parsed input types.
func (s *Sample) Types() []ir.Type {
	ts := make([]ir.Type, len(s.Inputs))
	for i, in := range s.Inputs {
		t, err := ir.ParseType(in)
		if err != nil {
			panic("conformance: sample " + s.Name + ": " + err.Error())
		}
		ts[i] = t
	}
	return ts
}

// coveredBy names the samples that cover an op without samples of its
// own: getitem picks results of multi-result ops.
var coveredBy = map[string]string{"getitem": "topk, chunk, split (the interpreter and compiled code pick their results with getitem)"}

// Samples returns every sample, pointwise ones generated from the op
// table, in a fixed order.
func Samples() []*Sample {
	var out []*Sample
	for _, op := range ir.Ops() {
		if op.Fusion != ir.FuseNone {
			out = append(out, pointwiseSamples(op)...)
		}
		for i, s := range specialSamples[op.Name] {
			s := *s
			s.Op = op.Name
			s.Name = goName(op.Name) + "_" + fmt.Sprint(i)
			out = append(out, &s)
		}
	}
	return out
}

// goName turns an op name into a Go identifier part: layer_norm →
// LayerNorm.
func goName(s string) string {
	var b strings.Builder
	for _, p := range strings.Split(s, "_") {
		if p != "" {
			b.WriteString(strings.ToUpper(p[:1]) + p[1:])
		}
	}
	return b.String()
}

// pointwiseKwargs are attribute variants of pointwise ops, besides their
// defaults.
var pointwiseKwargs = map[string][][]ir.Kwarg{
	"hardtanh": {{{Name: "min_val", Value: -2.0}, {Name: "max_val", Value: 2.5}}, {{Name: "min_val", Value: 1.0}, {Name: "max_val", Value: -1.0}}},
	"clamp":    {{{Name: "min", Value: -1.0}, {Name: "max", Value: 0.5}}, {{Name: "min", Value: 0.0}}, {{Name: "max", Value: 3.0}}, {{Name: "min", Value: math.NaN()}}},
}

// pointwiseSamples derives samples of a pointwise op from its type rule:
// for every dtype the rule accepts for all operands, the op on one input
// (a unary op), or on two inputs of one shape, two broadcasting shapes, and
// an input and a number either side (a binary op), and with every
// attribute variant; for a binary op also mixed f32 and i64 operands.
func pointwiseSamples(op *ir.Op) []*Sample {
	var out []*Sample
	accepts := func(ds ...ir.DType) bool {
		args := make([]ir.ArgType, len(ds))
		for i, d := range ds {
			args[i].Type = ir.Type{DType: d, Shape: ir.ConstShape(2)}
		}
		_, err := op.InferTypes(args, nil)
		return err == nil
	}
	kwVariants := append([][]ir.Kwarg{nil}, pointwiseKwargs[op.Name]...)
	// The compiled check takes each dtype's first variant and float32's
	// broadcasting and number forms: the generated code of the others
	// differs only in its input checks.
	add := func(variant string, args []any, inputs ...string) {
		compile := !strings.Contains(variant, "_") || strings.HasPrefix(variant, "f32_") && variant != "f32_i64"
		for k, kw := range kwVariants {
			name := goName(op.Name) + "_" + variant
			if k > 0 {
				name += fmt.Sprint("_kw", k)
			}
			out = append(out, &Sample{Name: name, Op: op.Name, Args: args, Kwargs: kw, Inputs: inputs, Specials: true, NoCompile: !compile})
		}
	}
	dts := []ir.DType{ir.Float32, ir.Int64, ir.Bool}
	switch len(op.Operands) {
	case 1:
		for _, d := range dts {
			if accepts(d) {
				add(d.String(), []any{Input(0)}, d.String()+"[N,3,5]")
			}
		}
	case 2:
		for _, d := range dts {
			if !accepts(d, d) {
				continue
			}
			ds := d.String()
			add(ds, []any{Input(0), Input(1)}, ds+"[N,3,5]", ds+"[N,3,5]")
			add(ds+"_broadcast", []any{Input(0), Input(1)}, ds+"[N,1,5]", ds+"[3,1]")
			if op.Operands[1].Kind == ir.NumberOperand {
				add(ds+"_number", []any{Input(0), number(d)}, ds+"[N,4]")
			}
			if op.Operands[0].Kind == ir.NumberOperand {
				add(ds+"_rnumber", []any{number(d), Input(0)}, ds+"[N,4]")
			}
		}
		if accepts(ir.Float32, ir.Int64) {
			add("f32_i64", []any{Input(0), Input(1)}, "f32[N,3,5]", "i64[5]")
		}
	default:
		panic("conformance: pointwise op " + op.Name + " with " + fmt.Sprint(len(op.Operands)) + " operands")
	}
	return out
}

// number returns a number operand of dtype d's kind.
func number(d ir.DType) any {
	if d == ir.Float32 {
		return 1.5
	}
	return 2
}

func kw(name string, v any) ir.Kwarg { return ir.Kwarg{Name: name, Value: v} }

// program encodes fused_elementwise steps (operation, A, B, scalar).
func program(steps ...runtime.ElementwiseStep) []int {
	var out []int
	for _, s := range steps {
		out = append(out, int(s.Op), s.A, s.B, int(math.Float32bits(s.C)))
	}
	return out
}

// specialSamples are the samples of the ops that are not pointwise, and
// extra ones of pointwise ops; Op and Name are filled in by Samples.
var specialSamples = map[string][]*Sample{
	"identity": {{Args: []any{Input(0)}, Inputs: []string{"f32[N,3]"}}, {Args: []any{Input(0)}, Inputs: []string{"i64[N,3]"}}},
	"dropout":  {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("p", 0.1)}, Inputs: []string{"f32[N,3]"}}},
	"linear": {
		{Args: []any{Input(0), Input(1), Input(2)}, Inputs: []string{"f32[N,5]", "f32[4,5]", "f32[4]"}},
		{Args: []any{Input(0), Input(1), nil}, Inputs: []string{"f32[N,2,5]", "f32[3,5]"}},
	},
	"linear_act": {
		{Args: []any{Input(0), Input(1), Input(2)}, Kwargs: []ir.Kwarg{kw("act", ir.ActReLU)}, Inputs: []string{"f32[N,5]", "f32[4,5]", "f32[4]"}},
		{Args: []any{Input(0), Input(1), nil}, Kwargs: []ir.Kwarg{kw("act", ir.ActGELU)}, Inputs: []string{"f32[N,5]", "f32[4,5]"}},
		{Args: []any{Input(0), Input(1), Input(2)}, Kwargs: []ir.Kwarg{kw("act", ir.ActReLU6)}, Inputs: []string{"f32[N,5]", "f32[4,5]", "f32[4]"}, Positive: []int{0}},
		{Args: []any{Input(0), Input(1), Input(2)}, Kwargs: []ir.Kwarg{kw("act", ir.ActSiLU)}, Inputs: []string{"f32[N,40]", "f32[24,40]", "f32[24]"}},
	},
	"linear_residual": {{Args: []any{Input(0), Input(1), Input(2), Input(3)}, Inputs: []string{"f32[N,5]", "f32[4,5]", "f32[4]", "f32[N,4]"}}},
	"matmul":          {{Args: []any{Input(0), Input(1)}, Inputs: []string{"f32[N,3,4]", "f32[4,5]"}}},
	"matmul_transb":   {{Args: []any{Input(0), Input(1)}, Inputs: []string{"f32[N,3,4]", "f32[N,5,4]"}}},
	"conv2d": {
		{Args: []any{Input(0), Input(1), Input(2)}, Kwargs: []ir.Kwarg{kw("padding", []int{1, 1})}, Inputs: []string{"f32[N,3,6,6]", "f32[4,3,3,3]", "f32[4]"}},
		{Args: []any{Input(0), Input(1), nil}, Kwargs: []ir.Kwarg{kw("stride", []int{2, 2}), kw("groups", 2)}, Inputs: []string{"f32[N,4,7,7]", "f32[4,2,3,3]"}},
	},
	"conv2d_act": {
		{Args: []any{Input(0), Input(1), Input(2)}, Kwargs: []ir.Kwarg{kw("act", ir.ActReLU)}, Inputs: []string{"f32[N,3,5,5]", "f32[4,3,3,3]", "f32[4]"}},
		// ReLU6 after a depthwise 3×3 (the depthwise kernels), SiLU after
		// a 3×3 of 32 channels (Winograd), GELU after a 1×1 (the GEMM).
		{Args: []any{Input(0), Input(1), Input(2)}, Kwargs: []ir.Kwarg{kw("padding", []int{1, 1}), kw("groups", 8), kw("act", ir.ActReLU6)}, Inputs: []string{"f32[N,8,7,7]", "f32[8,1,3,3]", "f32[8]"}, Positive: []int{0}},
		{Args: []any{Input(0), Input(1), Input(2)}, Kwargs: []ir.Kwarg{kw("padding", []int{1, 1}), kw("act", ir.ActSiLU)}, Inputs: []string{"f32[N,32,6,6]", "f32[8,32,3,3]", "f32[8]"}},
		{Args: []any{Input(0), Input(1), nil}, Kwargs: []ir.Kwarg{kw("act", ir.ActGELU)}, Inputs: []string{"f32[N,4,5,5]", "f32[6,4,1,1]"}},
	},
	"depthwise_conv2d_nhwc": {
		// 16 channels (two blocks of eight, the row kernel), stride 1,
		// ReLU6; 13 channels (a tail), stride 2, no bias, SiLU.
		{Args: []any{Input(0), Input(1), Input(2)}, Kwargs: []ir.Kwarg{kw("padding", []int{1, 1}), kw("act", ir.ActReLU6)}, Inputs: []string{"f32[N,7,7,16]", "f32[16,1,3,3]", "f32[16]"}, Positive: []int{0}},
		{Args: []any{Input(0), Input(1), nil}, Kwargs: []ir.Kwarg{kw("stride", []int{2, 2}), kw("padding", []int{1, 1}), kw("act", ir.ActSiLU)}, Inputs: []string{"f32[N,9,6,13]", "f32[13,1,3,3]"}},
	},
	"depthwise_separable": {
		// Rows of 12 (the AVX2 depthwise kernel), the expansion's bias,
		// ReLU6 then ReLU; rows of 5 (the Go depthwise loop), a residual,
		// SiLU then none. (A model takes at most five inputs; the
		// runtime's tests cover the other biases.) Three chained sums: the
		// tiers' results may be 1e-4 apart.
		{Args: []any{Input(0), Input(1), Input(2), Input(3), nil, Input(4), nil, nil}, Kwargs: []ir.Kwarg{kw("act1", ir.ActReLU6), kw("act2", ir.ActReLU)},
			Inputs: []string{"f32[N,4,9,12]", "f32[16,4,1,1]", "f32[16]", "f32[16,1,3,3]", "f32[4,16,1,1]"}, TierTol: 1e-4},
		{Args: []any{Input(0), Input(1), nil, Input(2), nil, Input(3), nil, Input(4)}, Kwargs: []ir.Kwarg{kw("act1", ir.ActSiLU), kw("act2", ir.ActNone)},
			Inputs: []string{"f32[N,3,6,5]", "f32[8,3,1,1]", "f32[8,1,3,3]", "f32[2,8,1,1]", "f32[N,2,6,5]"}, TierTol: 1e-4},
		// Stride 2 on rows of 16 (the AVX2 phase kernel), then of 9 (the
		// Go loop).
		{Args: []any{Input(0), Input(1), Input(2), Input(3), nil, Input(4), nil, nil}, Kwargs: []ir.Kwarg{kw("stride", 2), kw("act1", ir.ActReLU), kw("act2", ir.ActReLU6)},
			Inputs: []string{"f32[N,4,7,16]", "f32[12,4,1,1]", "f32[12]", "f32[12,1,3,3]", "f32[5,12,1,1]"}, TierTol: 1e-4},
		{Args: []any{Input(0), Input(1), nil, Input(2), nil, Input(3), nil, Input(4)}, Kwargs: []ir.Kwarg{kw("stride", 2), kw("act1", ir.ActReLU6), kw("act2", ir.ActNone)},
			Inputs: []string{"f32[N,3,8,9]", "f32[8,3,1,1]", "f32[8,1,3,3]", "f32[2,8,1,1]", "f32[N,2,4,5]"}, TierTol: 1e-4},
	},
	"conv2d_residual": {
		{Args: []any{Input(0), Input(1), Input(2), Input(3)}, Kwargs: []ir.Kwarg{kw("padding", []int{1, 1}), kw("act", ir.ActReLU)}, Inputs: []string{"f32[N,3,5,5]", "f32[4,3,3,3]", "f32[4]", "f32[N,4,5,5]"}},
		// No bias, stride 2, no activation; and ReLU6 after a depthwise
		// 3×3 (the depthwise kernels). (A Winograd sample would compare
		// tiers within 1e-5 of the sum, which the residual can cancel to
		// near 0: the runtime's tests check that path.)
		{Args: []any{Input(0), Input(1), nil, Input(2)}, Kwargs: []ir.Kwarg{kw("stride", []int{2, 2}), kw("act", ir.ActNone)}, Inputs: []string{"f32[N,4,7,7]", "f32[6,4,3,3]", "f32[N,6,3,3]"}},
		{Args: []any{Input(0), Input(1), Input(2), Input(3)}, Kwargs: []ir.Kwarg{kw("padding", []int{1, 1}), kw("groups", 8), kw("act", ir.ActReLU6)}, Inputs: []string{"f32[N,8,7,7]", "f32[8,1,3,3]", "f32[8]", "f32[N,8,7,7]"}},
	},
	"batch_norm":          {{Args: []any{Input(0), Input(1), Input(2), Input(3), Input(4)}, Inputs: []string{"f32[N,3,4,4]", "f32[3]", "f32[3]", "f32[3]", "f32[3]"}, Positive: []int{4}}},
	"max_pool2d":          {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("kernel_size", []int{2, 2})}, Inputs: []string{"f32[N,2,6,6]"}}},
	"adaptive_avg_pool2d": {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("output_size", []int{2, 3})}, Inputs: []string{"f32[N,2,6,7]"}}},
	"sum": {
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", []int{1}), kw("keepdim", true)}, Inputs: []string{"f32[N,3,4]"}},
		{Args: []any{Input(0)}, Inputs: []string{"i64[N,3]"}},
	},
	"topk": {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("k", 2)}, Inputs: []string{"f32[N,6]"}}},
	"mean": {
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", []int{1, 2}), kw("keepdim", true)}, Inputs: []string{"f32[N,3,4]"}},
		{Args: []any{Input(0)}, Inputs: []string{"f32[N,3]"}},
	},
	"var": {
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", []int{-1})}, Inputs: []string{"f32[N,3,5]"}},
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", []int{0}), kw("correction", 0), kw("keepdim", true)}, Inputs: []string{"f32[N,4]"}},
	},
	"max_dim": {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", 1)}, Inputs: []string{"f32[N,5,3]"}}, {Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", -1), kw("keepdim", true)}, Inputs: []string{"i64[N,4]"}}},
	"min_dim": {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", 2), kw("keepdim", true)}, Inputs: []string{"f32[N,2,6]"}}},
	"argmax":  {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", 1)}, Inputs: []string{"f32[N,5]"}}, {Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", 0), kw("keepdim", true)}, Inputs: []string{"i64[N,3]"}}},
	"argmin":  {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", -1)}, Inputs: []string{"f32[N,2,5]"}}},
	"squeeze": {
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", []int{1, 3})}, Inputs: []string{"f32[N,1,3,1]"}},
		{Args: []any{Input(0)}, Inputs: []string{"f32[2,1,3]"}},
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", []int{-1, 1})}, Inputs: []string{"i64[N,3,1]"}},
	},
	"full_like": {
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("fill_value", 2.5)}, Inputs: []string{"f32[N,3]"}},
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("fill_value", 1.0)}, Inputs: []string{"bool[N,2]"}},
	},
	"gather": {
		{Args: []any{Input(0), Input(1)}, Kwargs: []ir.Kwarg{kw("dim", 1)}, Inputs: []string{"f32[N,5,3]", "i64[N,4,3]"}, Ranges: map[int][2]int64{1: {0, 5}}},
		{Args: []any{Input(0), Input(1)}, Kwargs: []ir.Kwarg{kw("dim", 0)}, Inputs: []string{"i64[4,3]", "i64[2,3]"}, Ranges: map[int][2]int64{1: {0, 4}}},
	},
	"where": {
		{Args: []any{Input(0), Input(1), Input(2)}, Inputs: []string{"bool[N,1,4]", "f32[N,3,4]", "f32[4]"}},
		{Args: []any{Input(0), Input(1), 0.0}, Inputs: []string{"bool[N,3]", "f32[N,3]"}},
		{Args: []any{Input(0), Input(1), Input(2)}, Inputs: []string{"bool[N,2]", "i64[N,2]", "i64[N,2]"}},
	},
	"embedding_bag": {
		{Args: []any{Input(0), nil, Input(1)}, Kwargs: []ir.Kwarg{kw("mode", runtime.EmbeddingBagSum)}, Inputs: []string{"i64[N,3]", "f32[6,4]"}, Ranges: map[int][2]int64{0: {0, 6}}},
		{Args: []any{Input(0), nil, Input(1)}, Kwargs: []ir.Kwarg{kw("mode", runtime.EmbeddingBagMax)}, Inputs: []string{"i64[N,2]", "f32[5,3]"}, Ranges: map[int][2]int64{0: {0, 5}}},
		{Args: []any{Input(0), nil, Input(1)}, Inputs: []string{"i64[N,4]", "f32[7,2]"}, Ranges: map[int][2]int64{0: {0, 7}}},
	},
	"conv1d": {
		{Args: []any{Input(0), Input(1), Input(2)}, Kwargs: []ir.Kwarg{kw("padding", 1)}, Inputs: []string{"f32[N,3,9]", "f32[4,3,3]", "f32[4]"}},
		{Args: []any{Input(0), Input(1), nil}, Kwargs: []ir.Kwarg{kw("stride", 2), kw("groups", 2)}, Inputs: []string{"f32[N,4,11]", "f32[6,2,5]"}},
	},
	"avg_pool2d": {
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("kernel_size", []int{3}), kw("stride", []int{2}), kw("padding", []int{1}), kw("ceil_mode", true), kw("count_include_pad", false)}, Inputs: []string{"f32[N,2,7,6]"}},
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("kernel_size", []int{2})}, Inputs: []string{"f32[N,3,6,6]"}},
	},
	"upsample_nearest2d": {
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("output_size", []int{6, 8}), kw("scales_h", 2.0), kw("scales_w", 2.0)}, Inputs: []string{"f32[N,2,3,4]"}},
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("output_size", []int{5, 3})}, Inputs: []string{"f32[N,2,3,4]"}},
	},
	"upsample_bilinear2d": {
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("output_size", []int{7, 5}), kw("align_corners", true)}, Inputs: []string{"f32[N,2,3,4]"}},
		{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("output_size", []int{6, 8}), kw("scales_h", 2.0), kw("scales_w", 2.0)}, Inputs: []string{"f32[N,2,3,4]"}},
	},
	"layer_norm":   {{Args: []any{Input(0), Input(1), Input(2)}, Kwargs: []ir.Kwarg{kw("normalized_shape", []int{4})}, Inputs: []string{"f32[N,3,4]", "f32[4]", "f32[4]"}}},
	"embedding":    {{Args: []any{Input(0), Input(1)}, Inputs: []string{"i64[N,3]", "f32[5,4]"}, Ranges: map[int][2]int64{0: {0, 5}}}},
	"softmax":      {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", -1)}, Inputs: []string{"f32[N,3,5]"}}, {Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", 1)}, Inputs: []string{"f32[N,3,5]"}}},
	"transpose":    {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim0", 1), kw("dim1", 2)}, Inputs: []string{"f32[N,3,4]"}}},
	"permute":      {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dims", []int{2, 0, 1})}, Inputs: []string{"f32[N,3,4]"}}},
	"chunk":        {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("chunks", 3), kw("dim", 1)}, Inputs: []string{"f32[N,6]"}}},
	"split":        {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("split_size_or_sections", []int{3}), kw("dim", 1)}, Inputs: []string{"f32[N,7]"}}},
	"select":       {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", 1), kw("index", 2)}, Inputs: []string{"f32[N,3,4]"}}},
	"slice":        {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", 1), kw("start", 1), kw("end", 5), kw("step", 2)}, Inputs: []string{"f32[N,6]"}}},
	"index_select": {{Args: []any{Input(0), Input(1)}, Kwargs: []ir.Kwarg{kw("dim", 1)}, Inputs: []string{"f32[N,5]", "i64[3]"}, Ranges: map[int][2]int64{1: {0, 5}}}},
	"stack":        {{Args: []any{[]Input{0, 1}}, Kwargs: []ir.Kwarg{kw("dim", 1)}, Inputs: []string{"f32[N,3]", "f32[N,3]"}}},
	"cat":          {{Args: []any{[]Input{0, 1}}, Kwargs: []ir.Kwarg{kw("dim", 1)}, Inputs: []string{"f32[N,3]", "f32[N,2]"}}},
	"masked_fill":  {{Args: []any{Input(0), Input(1)}, Kwargs: []ir.Kwarg{kw("value", -1e9)}, Inputs: []string{"f32[N,3,4]", "bool[3,4]"}}},
	"unsqueeze":    {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", 1)}, Inputs: []string{"f32[N,3]"}}},
	"reshape":      {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("shape", []int{-1, 12})}, Inputs: []string{"f32[N,3,4]"}}},
	"view":         {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("shape", []int{-1, 2, 6})}, Inputs: []string{"i64[N,3,4]"}}},
	"flatten":      {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("start_dim", 1), kw("end_dim", -1)}, Inputs: []string{"f32[N,3,4]"}}},
	"zeros":        {{Kwargs: []ir.Kwarg{kw("shape", []int{2, 3})}, NoCompile: true}},
	"ones":         {{Kwargs: []ir.Kwarg{kw("shape", []int{2, 3}), kw("dtype", ir.Int64)}, NoCompile: true}},
	"arange":       {{Kwargs: []ir.Kwarg{kw("end", 5.0)}, NoCompile: true}},
	"rand":         {{Kwargs: []ir.Kwarg{kw("shape", []int{2, 3}), kw("seed", 7)}, NoCompile: true}},
	"size":         {{Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", 1)}, Inputs: []string{"f32[N,3]"}}, {Args: []any{Input(0)}, Kwargs: []ir.Kwarg{kw("dim", 0)}, Inputs: []string{"f32[N,3]"}}},
	"floordiv":     {{Args: []any{Input(0), Input(1)}, Inputs: []string{"i64[N,3]", "i64[3]"}, Ranges: map[int][2]int64{1: {1, 6}}}, {Args: []any{Input(0), 4}, Inputs: []string{"i64[N,3]"}}},
	"expand":       {{Args: []any{Input(0), []any{-1, 3, 4}}, Inputs: []string{"f32[N,1,4]"}}, {Args: []any{Input(0), []any{2, -1, -1}}, Inputs: []string{"i64[N,4]"}}},
	"expand_as":    {{Args: []any{Input(0), Input(1)}, Inputs: []string{"f32[N,1,4]", "f32[N,3,4]"}}},
	"full":         {{Args: []any{[]any{2, 3}}, Kwargs: []ir.Kwarg{kw("fill_value", 1.5)}, NoCompile: true}},
	"attention": {
		// One projection holding q, k and v (columns 0, 8 and 16), two
		// heads of 4, scores scaled and masked by a bool extra.
		{Args: []any{Input(0), Input(0), Input(0), []Input{1}}, Inputs: []string{"f32[N,5,24]", "bool[5,5]"},
			Kwargs: []ir.Kwarg{kw("program", program(
				runtime.ElementwiseStep{Op: runtime.ElemDivScalar, A: 0, C: 2},
				runtime.ElementwiseStep{Op: runtime.ElemMaskedFill, A: 2, B: 1, C: -1e9},
			)), kw("heads", 2), kw("head_dim", 4), kw("k_col", 8), kw("v_col", 16)}},
		// A per-sample float extra over the heads and a padding mask
		// [N, 1, 1, S] over the heads and queries.
		{Args: []any{Input(0), Input(0), Input(0), []Input{1, 2}}, Inputs: []string{"f32[N,5,24]", "f32[N,1,5,5]", "bool[N,1,1,5]"},
			Kwargs: []ir.Kwarg{kw("program", program(
				runtime.ElementwiseStep{Op: runtime.ElemAdd, A: 0, B: 1},
				runtime.ElementwiseStep{Op: runtime.ElemMaskedFill, A: 3, B: 2, C: -1e9},
			)), kw("heads", 2), kw("head_dim", 4), kw("k_col", 8), kw("v_col", 16)}},
		// Separate q, k, v of other lengths, one head, no extra.
		{Args: []any{Input(0), Input(1), Input(2), []Input{}}, Inputs: []string{"f32[N,3,6]", "f32[N,7,6]", "f32[N,7,9]"},
			Kwargs: []ir.Kwarg{kw("program", program(runtime.ElementwiseStep{Op: runtime.ElemMulScalar, A: 0, C: 0.5})),
				kw("heads", 1), kw("head_dim", 6), kw("v_col", 3)}},
	},
	"fused_elementwise": {{
		Args: []any{[]Input{0, 1}}, Inputs: []string{"f32[N,4]", "f32[4]"},
		Kwargs: []ir.Kwarg{kw("program", program(
			runtime.ElementwiseStep{Op: runtime.ElemAdd, A: 0, B: 1},
			runtime.ElementwiseStep{Op: runtime.ElemRelu, A: 2},
			runtime.ElementwiseStep{Op: runtime.ElemMulScalar, A: 3, C: 0.5},
		))},
	}},
}

// specials are the float32 values mixed into inputs: NaN, ±Inf, ±0 and
// the thresholds of the pointwise ops.
var specials = []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 3, -3, 6, -1, 1}

// RandomInputs draws the sample's input arrays with batch size n.
func (s *Sample) RandomInputs(r *rand.Rand, n int) []*runtime.Array {
	var out []*runtime.Array
	for i, t := range s.Types() {
		dims, ok := t.Shape.Eval(map[string]int{"N": n})
		if !ok {
			panic("conformance: sample " + s.Name + ": shape " + t.Shape.String())
		}
		a := runtime.NewArray(t.DType, dims...)
		positive := false
		for _, p := range s.Positive {
			positive = positive || p == i
		}
		switch t.DType {
		case ir.Float32:
			for j := range a.F32 {
				switch {
				case positive:
					a.F32[j] = float32(0.1 + 2.9*r.Float64())
				case s.Specials && j%4 == 1:
					a.F32[j] = specials[r.IntN(len(specials))]
				default:
					a.F32[j] = float32(r.NormFloat64() * 3)
				}
			}
		case ir.Int64:
			rg, ok := s.Ranges[i]
			if !ok {
				rg = [2]int64{-5, 6}
			}
			for j := range a.I64 {
				a.I64[j] = rg[0] + r.Int64N(rg[1]-rg[0])
			}
		case ir.Bool:
			for j := range a.B {
				a.B[j] = r.IntN(2) == 1
			}
		}
		out = append(out, a)
	}
	return out
}
