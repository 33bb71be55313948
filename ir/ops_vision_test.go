package ir

import (
	"strings"
	"testing"

	"github.com/fxgen/fxgen/runtime"
)

func vf32(dims ...Dim) ArgType { return ArgType{Type: Type{DType: Float32, Shape: Shape(dims)}} }

func vc(dims ...int) []Dim { return ConstShape(dims...) }

func TestVisionInfer(t *testing.T) {
	n := Sym("N")
	absent := ArgType{Absent: true}
	for _, tc := range []struct {
		op     string
		args   []ArgType
		kwargs []Kwarg
		want   string // the result type, or an error substring after "error: "
	}{
		{"conv2d", []ArgType{vf32(n, Const(3), Const(224), Const(224)), vf32(vc(64, 3, 7, 7)...), absent},
			[]Kwarg{{"stride", []int{2, 2}}, {"padding", []int{3, 3}}}, "f32[N,64,112,112]"},
		{"conv2d", []ArgType{vf32(n, Const(16), Const(32), Const(32)), vf32(vc(32, 16, 1, 1)...), vf32(Const(32))},
			[]Kwarg{{"stride", []int{2}}}, "f32[N,32,16,16]"},
		{"conv2d", []ArgType{vf32(vc(2, 8, 5, 7)...), vf32(vc(8, 2, 3, 1)...), absent},
			[]Kwarg{{"padding", []int{1, 0}}, {"groups", 4}}, "f32[2,8,5,7]"},
		{"conv2d", []ArgType{vf32(n, Const(4), Const(5), Const(5)), vf32(vc(6, 3, 3, 3)...), absent}, nil,
			"error: input [N,4,5,5] has 4 channels, weight [6,3,3,3] with groups 1 wants 3"},
		{"conv2d", []ArgType{vf32(vc(1, 4, 5, 5)...), vf32(vc(6, 2, 3, 3)...), absent}, []Kwarg{{"groups", 4}},
			"error: groups 4 must be ≥ 1 and divide the 6 output channels"},
		{"conv2d", []ArgType{vf32(vc(1, 3, 5, 5)...), vf32(vc(6, 3, 3, 3)...), vf32(Const(5))}, nil, "error: bias f32[5], want f32[6]"},
		{"conv2d", []ArgType{vf32(vc(1, 3, 2, 2)...), vf32(vc(6, 3, 3, 3)...), absent}, nil, "error: kernel 3x3 is larger than the padded input 2x2"},
		{"conv2d", []ArgType{vf32(n, Const(3), n, Const(5)), vf32(vc(6, 3, 3, 3)...), absent}, nil, "error: input [N,3,N,5]: the spatial dims must be constant"},
		{"conv2d", []ArgType{vf32(vc(1, 3, 5, 5)...), vf32(vc(6, 3, 3, 3)...), absent}, []Kwarg{{"stride", []int{0}}}, "error: stride [0], want one or two values ≥ 1"},
		{"conv2d", []ArgType{vf32(vc(3, 5, 5)...), vf32(vc(6, 3, 3, 3)...), absent}, nil, "error: got input [3,5,5] and weight [6,3,3,3], want [N,C,H,W]"},

		{"batch_norm", []ArgType{vf32(n, Const(16), Const(32), Const(32)), vf32(Const(16)), vf32(Const(16)), vf32(Const(16)), vf32(Const(16))},
			nil, "f32[N,16,32,32]"},
		{"batch_norm", []ArgType{vf32(n, Const(16)), absent, absent, vf32(Const(16)), vf32(Const(16))}, []Kwarg{{"eps", 1e-3}}, "f32[N,16]"},
		{"batch_norm", []ArgType{vf32(n, Const(16), Const(4)), vf32(Const(16)), vf32(Const(8)), vf32(Const(16)), vf32(Const(16))},
			nil, "error: bias f32[8], want f32[16] for input [N,16,4]"},
		{"batch_norm", []ArgType{vf32(n), absent, absent, vf32(Const(16)), vf32(Const(16))}, nil, "error: input [N], want [N,C,...]"},
		{"batch_norm", []ArgType{vf32(vc(1, 2)...), absent, absent, vf32(Const(2)), vf32(Const(2))}, []Kwarg{{"eps", -1.0}}, "error: eps -1, want ≥ 0"},

		{"max_pool2d", []ArgType{vf32(n, Const(64), Const(112), Const(112))},
			[]Kwarg{{"kernel_size", []int{3}}, {"stride", []int{2}}, {"padding", []int{1}}}, "f32[N,64,56,56]"},
		{"max_pool2d", []ArgType{vf32(vc(3, 8, 9)...)}, []Kwarg{{"kernel_size", []int{2, 3}}}, "f32[3,4,3]"},
		{"max_pool2d", []ArgType{vf32(vc(1, 3, 8, 8)...)}, []Kwarg{{"kernel_size", []int{2}}, {"padding", []int{2}}},
			"error: padding [2] must be at most half of kernel_size [2 2]"},
		{"max_pool2d", []ArgType{vf32(vc(8, 8)...)}, []Kwarg{{"kernel_size", []int{2}}}, "error: input [8,8], want [N,C,H,W] or [C,H,W]"},

		{"adaptive_avg_pool2d", []ArgType{vf32(n, Const(512), Const(7), Const(7))}, []Kwarg{{"output_size", []int{1}}}, "f32[N,512,1,1]"},
		{"adaptive_avg_pool2d", []ArgType{vf32(vc(2, 5, 6)...)}, []Kwarg{{"output_size", []int{2, 3}}}, "f32[2,2,3]"},
		{"adaptive_avg_pool2d", []ArgType{vf32(vc(1, 2, 5, 6)...)}, []Kwarg{{"output_size", []int{0, 3}}}, "error: output_size [0 3], want one or two values ≥ 1"},
	} {
		op := LookupOp(tc.op)
		kw, err := op.NormalizeKwargs(tc.kwargs)
		if err != nil {
			t.Fatalf("%s %v: %v", tc.op, tc.kwargs, err)
		}
		types, err := op.InferTypes(tc.args, kw)
		got := ""
		if err != nil {
			got = "error: " + err.Error()
		} else {
			got = types[0].String()
		}
		if got != tc.want && !(strings.HasPrefix(tc.want, "error: ") && strings.Contains(got, strings.TrimPrefix(tc.want, "error: "))) {
			t.Errorf("%s%v %v: got %q, want %q", tc.op, tc.args, tc.kwargs, got, tc.want)
		}
	}
}

// TestVisionEval runs each op through Eval on a case small enough to check
// by hand.
func TestVisionEval(t *testing.T) {
	x := runtime.FromFloat32([]float32{
		1, 2, 3,
		4, 5, 6,
		7, 8, 9,
	}, 1, 1, 3, 3)
	w := runtime.FromFloat32([]float32{1, 0, 0, 1}, 1, 1, 2, 2) // x[i,j] + x[i+1,j+1]
	b := runtime.FromFloat32([]float32{0.5}, 1)
	for _, tc := range []struct {
		op     string
		args   []any
		kwargs []Kwarg
		want   []float32
	}{
		{"conv2d", []any{x, w, b}, nil, []float32{6.5, 8.5, 12.5, 14.5}},
		{"conv2d", []any{x, w, nil}, []Kwarg{{"stride", 2}, {"padding", 1}}, []float32{1, 3, 7, 14}},
		{"batch_norm", []any{x, nil, b, runtime.FromFloat32([]float32{5}, 1), runtime.FromFloat32([]float32{4}, 1)},
			[]Kwarg{{"eps", 0}}, []float32{-1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5}},
		{"max_pool2d", []any{x}, []Kwarg{{"kernel_size", 2}, {"stride", 1}}, []float32{5, 6, 8, 9}},
		{"max_pool2d", []any{x}, []Kwarg{{"kernel_size", 2}, {"padding", 1}}, []float32{1, 3, 7, 9}},
		{"adaptive_avg_pool2d", []any{x}, []Kwarg{{"output_size", 1}}, []float32{5}},
		{"adaptive_avg_pool2d", []any{x}, []Kwarg{{"output_size", []int{2, 1}}}, []float32{3.5, 6.5}},
	} {
		op := LookupOp(tc.op)
		kw, err := op.NormalizeKwargs(tc.kwargs)
		if err != nil {
			t.Fatal(err)
		}
		outs, err := op.Eval(tc.args, kw)
		if err != nil {
			t.Fatalf("%s %v: %v", tc.op, tc.kwargs, err)
		}
		got := outs[0].F32
		if len(got) != len(tc.want) {
			t.Fatalf("%s %v: got %v, want %v", tc.op, tc.kwargs, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("%s %v: got %v, want %v", tc.op, tc.kwargs, got, tc.want)
			}
		}
	}
}

func TestVisionModuleKinds(t *testing.T) {
	for _, name := range []string{"Conv2d", "BatchNorm2d", "MaxPool2d", "AdaptiveAvgPool2d"} {
		k := LookupModuleKind(name)
		if k == nil {
			t.Fatalf("module kind %s is not registered", name)
		}
		if err := k.Check(); err != nil {
			t.Error(err)
		}
	}
}
