// This file tests the type rules and kernels of the sequence ops.

package ir

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/runtime"
)

func TestSequenceOpTypes(t *testing.T) {
	ty := func(s string) ArgType { return ArgType{Type: mustType(t, s)} }
	list := func(ss ...string) ArgType {
		var l []Type
		for _, s := range ss {
			l = append(l, mustType(t, s))
		}
		return ArgType{List: l}
	}
	absent := ArgType{Absent: true}
	kw := func(kv ...any) []Kwarg {
		var out []Kwarg
		for i := 0; i < len(kv); i += 2 {
			out = append(out, Kwarg{kv[i].(string), kv[i+1]})
		}
		return out
	}
	for _, c := range []struct {
		op     string
		args   []ArgType
		kwargs []Kwarg
		want   string // result types joined by space, or "error: substring"
	}{
		{"layer_norm", []ArgType{ty("f32[N,128,256]"), ty("f32[256]"), ty("f32[256]")}, kw("normalized_shape", 256), "f32[N,128,256]"},
		{"layer_norm", []ArgType{ty("f32[N,3,4]"), absent, absent}, kw("normalized_shape", []int{3, 4}), "f32[N,3,4]"},
		{"layer_norm", []ArgType{ty("f32[N,128,256]"), ty("f32[128]"), absent}, kw("normalized_shape", 256), "error: weight f32[128], want f32[256]"},
		{"layer_norm", []ArgType{ty("f32[N,128]"), absent, absent}, kw("normalized_shape", 256), "error: does not end with normalized_shape"},
		{"embedding", []ArgType{ty("i64[N,128]"), ty("f32[1000,256]")}, nil, "f32[N,128,256]"},
		{"embedding", []ArgType{ty("i64[N]"), ty("f32[1000,64]")}, nil, "f32[N,64]"},
		{"embedding", []ArgType{ty("f32[N]"), ty("f32[1000,64]")}, nil, "error: want i64"},
		{"softmax", []ArgType{ty("f32[N,4,128,128]")}, kw("dim", -1), "f32[N,4,128,128]"},
		{"softmax", []ArgType{ty("f32[N,4]")}, kw("dim", 2), "error: dim 2 out of range"},
		{"gelu", []ArgType{ty("f32[N,7]")}, nil, "f32[N,7]"},
		{"tanh", []ArgType{ty("i64[N,7]")}, nil, "error: want f32"},
		{"transpose", []ArgType{ty("f32[N,4,128,64]")}, kw("dim0", -2, "dim1", -1), "f32[N,4,64,128]"},
		{"transpose", []ArgType{ty("f32[N,128,4,64]")}, kw("dim0", 1, "dim1", 2), "f32[N,4,128,64]"},
		{"permute", []ArgType{ty("f32[N,128,4,64]")}, kw("dims", []int{0, 2, 1, 3}), "f32[N,4,128,64]"},
		{"permute", []ArgType{ty("f32[N,2,3]")}, kw("dims", []int{0, 0, 1}), "error: not a permutation"},
		{"chunk", []ArgType{ty("f32[N,1024]")}, kw("chunks", 4, "dim", 1), "f32[N,256] f32[N,256] f32[N,256] f32[N,256]"},
		{"chunk", []ArgType{ty("f32[N,10]")}, kw("chunks", 4, "dim", 1), "f32[N,3] f32[N,3] f32[N,3] f32[N,1]"},
		{"chunk", []ArgType{ty("f32[N,6]")}, kw("chunks", 4, "dim", -1), "f32[N,2] f32[N,2] f32[N,2]"},
		{"chunk", []ArgType{ty("f32[4*N,6]")}, kw("chunks", 2), "f32[2*N,6] f32[2*N,6]"},
		{"chunk", []ArgType{ty("f32[N,6]")}, kw("chunks", 2), "error: symbolic dim N"},
		{"split", []ArgType{ty("f32[N,128,768]")}, kw("split_size_or_sections", 256, "dim", 2), "f32[N,128,256] f32[N,128,256] f32[N,128,256]"},
		{"split", []ArgType{ty("f32[N,7]")}, kw("split_size_or_sections", []int{2, 5}, "dim", 1), "f32[N,2] f32[N,5]"},
		{"split", []ArgType{ty("f32[N,7]")}, kw("split_size_or_sections", []int{2, 4}, "dim", 1), "error: add up to 6"},
		{"select", []ArgType{ty("f32[N,16,128]")}, kw("dim", 1, "index", 15), "f32[N,128]"},
		{"select", []ArgType{ty("f32[N,16,128]")}, kw("dim", 1, "index", -16), "f32[N,128]"},
		{"select", []ArgType{ty("f32[N,16,128]")}, kw("dim", 1, "index", 16), "error: index 16 out of range"},
		{"slice", []ArgType{ty("f32[N,10]")}, kw("dim", 1, "start", 2, "end", -1, "step", 3), "f32[N,3]"},
		{"slice", []ArgType{ty("f32[N,10]")}, kw("dim", 0), "f32[N,10]"},
		{"slice", []ArgType{ty("f32[N,10]")}, kw("dim", 0, "start", 1), "error: symbolic dim"},
		{"slice", []ArgType{ty("f32[N,10]")}, kw("dim", 1, "step", 0), "error: step 0"},
		{"index_select", []ArgType{ty("f32[N,81]"), ty("i64[36]")}, kw("dim", 1), "f32[N,36]"},
		{"index_select", []ArgType{ty("f32[N,81]"), ty("i64[6,6]")}, kw("dim", 1), "error: want i64[n]"},
		{"stack", []ArgType{list("f32[N,64]", "f32[N,64]", "f32[N,64]")}, kw("dim", 1), "f32[N,3,64]"},
		{"stack", []ArgType{list("f32[N,64]", "f32[N,64]")}, kw("dim", -1), "f32[N,64,2]"},
		{"stack", []ArgType{list("f32[N,64]", "f32[N,32]")}, nil, "error: stack wants one type"},
		{"cat", []ArgType{list("f32[N,64]", "f32[N,36]")}, kw("dim", 1), "f32[N,100]"},
		{"cat", []ArgType{list("f32[N,4]", "f32[2*N,4]")}, nil, "f32[3*N,4]"},
		{"cat", []ArgType{list("f32[N,4]", "f32[2,4]")}, nil, "error: cannot add"},
		{"cat", []ArgType{list("f32[N,4]", "i64[N,4]")}, kw("dim", 1), "error: may differ only in dim 1"},
		{"masked_fill", []ArgType{ty("f32[N,4,128,128]"), ty("bool[128,128]")}, kw("value", math.Inf(-1)), "f32[N,4,128,128]"},
		{"masked_fill", []ArgType{ty("f32[N,4]"), ty("f32[N,4]")}, kw("value", 0.0), "error: want bool"},
		{"masked_fill", []ArgType{ty("f32[4]"), ty("bool[2,4]")}, kw("value", 0.0), "error: does not broadcast"},
		{"unsqueeze", []ArgType{ty("f32[N,64]")}, kw("dim", 1), "f32[N,1,64]"},
		{"unsqueeze", []ArgType{ty("f32[N,64]")}, kw("dim", -1), "f32[N,64,1]"},
		{"matmul", []ArgType{ty("f32[N,4,128,64]"), ty("f32[N,4,64,128]")}, nil, "f32[N,4,128,128]"},
		{"matmul", []ArgType{ty("f32[N,9,64]"), ty("f32[N,64,9]")}, nil, "f32[N,9,9]"},
	} {
		op := LookupOp(c.op)
		kwargs, err := op.NormalizeKwargs(c.kwargs)
		var got string
		if err == nil {
			var types []Type
			types, err = op.InferTypes(c.args, kwargs)
			var parts []string
			for _, ty := range types {
				parts = append(parts, ty.String())
			}
			got = strings.Join(parts, " ")
		}
		if err != nil {
			got = "error: " + err.Error()
		}
		if want, ok := strings.CutPrefix(c.want, "error: "); ok {
			if !strings.Contains(got, want) {
				t.Errorf("%s%v %v: got %q, want an error containing %q", c.op, c.args, c.kwargs, got, want)
			}
		} else if got != c.want {
			t.Errorf("%s%v %v: got %s, want %s", c.op, c.args, c.kwargs, got, c.want)
		}
	}
}

// TestListResultsKernels runs chunk and split through Eval, which passes
// their results as one slice.
func TestListResultsKernels(t *testing.T) {
	for _, name := range []string{"chunk", "split"} {
		if !LookupOp(name).ListResults() || LookupOp(name).KernelResults() != -1 {
			t.Errorf("%s: ListResults false, want true", name)
		}
	}
	if LookupOp("stack").ListResults() {
		t.Errorf("stack: ListResults true, want false")
	}
	x := runtime.FromFloat32([]float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 2, 5)
	for _, c := range []struct {
		op   string
		kw   []Kwarg
		want string
	}{
		{"chunk", []Kwarg{{"chunks", 3}, {"dim", 1}}, "[[0 1 5 6] [2 3 7 8] [4 9]]"},
		{"split", []Kwarg{{"split_size_or_sections", []int{1, 4}}, {"dim", -1}}, "[[0 5] [1 2 3 4 6 7 8 9]]"},
		{"chunk", []Kwarg{{"chunks", 2}}, "[[0 1 2 3 4] [5 6 7 8 9]]"},
	} {
		op := LookupOp(c.op)
		kw, err := op.NormalizeKwargs(c.kw)
		if err != nil {
			t.Fatal(err)
		}
		outs, err := op.Eval([]any{x}, kw)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		var got [][]float32
		for _, o := range outs {
			got = append(got, o.F32)
		}
		if fmt.Sprint(got) != c.want {
			t.Errorf("%s %v: got %v, want %s", c.op, c.kw, got, c.want)
		}
	}
}

func TestSequenceModuleKinds(t *testing.T) {
	for _, name := range []string{"LayerNorm", "Embedding"} {
		k := LookupModuleKind(name)
		if k == nil {
			t.Fatalf("module kind %s is not registered", name)
		}
		if err := k.Check(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
