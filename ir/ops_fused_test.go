// This file tests the fused ops against their unfused compositions and the
// prepared-operand declarations of the vocabulary.

package ir

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/runtime"
)

func randF32(r *rand.Rand, shape ...int) *runtime.Array {
	a := runtime.NewArray(runtime.Float32, shape...)
	for i := range a.F32 {
		a.F32[i] = r.Float32()*2 - 1
	}
	return a
}

func evalOp(t *testing.T, name string, args []any, kwargs ...Kwarg) *runtime.Array {
	t.Helper()
	op := LookupOp(name)
	kw, err := op.NormalizeKwargs(kwargs)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := op.Eval(args, kw)
	if err != nil {
		t.Fatal(err)
	}
	return outs[0]
}

func sameArray(t *testing.T, what string, got, want *runtime.Array, tol float32) {
	t.Helper()
	if !reflect.DeepEqual(got.Shape, want.Shape) {
		t.Fatalf("%s: got shape %v, want %v", what, got.Shape, want.Shape)
	}
	for i := range want.F32 {
		if d := got.F32[i] - want.F32[i]; d > tol || d < -tol {
			t.Fatalf("%s: element %d: got %v, want %v", what, i, got.F32[i], want.F32[i])
		}
	}
}

func TestFusedOpsMatchUnfused(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	acts := []string{"", "relu", "gelu"}
	x, w, b := randF32(r, 3, 5), randF32(r, 4, 5), randF32(r, 4)
	for act := ActNone; act <= ActGELU; act++ {
		want := evalOp(t, "linear", []any{x, w, b})
		if act != ActNone {
			want = evalOp(t, acts[act], []any{want})
		}
		got := evalOp(t, "linear_act", []any{x, w, b}, Kwarg{"act", act})
		sameArray(t, "linear_act "+acts[act], got, want, 0)
	}
	xc, wc, bc := randF32(r, 2, 3, 6, 6), randF32(r, 4, 3, 3, 3), randF32(r, 4)
	conv := []Kwarg{{"stride", []int{2, 2}}, {"padding", []int{1, 1}}}
	for act := ActNone; act <= ActGELU; act++ {
		want := evalOp(t, "conv2d", []any{xc, wc, bc}, conv...)
		if act != ActNone {
			want = evalOp(t, acts[act], []any{want})
		}
		got := evalOp(t, "conv2d_act", []any{xc, wc, bc}, append(conv, Kwarg{"act", act})...)
		sameArray(t, "conv2d_act "+acts[act], got, want, 0)
	}
	res := randF32(r, 3, 4)
	want := evalOp(t, "add", []any{res, evalOp(t, "linear", []any{x, w, b})})
	got := evalOp(t, "linear_residual", []any{x, w, b, res})
	sameArray(t, "linear_residual", got, want, 1e-6)
	if _, err := LookupOp("linear_residual").InferTypes([]ArgType{{Type: TypeOf(x)}, {Type: TypeOf(w)}, {Absent: true}, {Type: TypeOf(x)}}, nil); err == nil || !strings.Contains(err.Error(), "residual") {
		t.Errorf("linear_residual with a residual of the input's shape: got error %v, want one naming the residual", err)
	}
	if _, err := LookupOp("linear_act").InferTypes([]ArgType{{Type: TypeOf(x)}, {Type: TypeOf(w)}, {Absent: true}}, []Kwarg{{"act", 5}}); err == nil || !strings.Contains(err.Error(), "act 5") {
		t.Errorf("linear_act with act 5: got error %v, want one naming act 5", err)
	}
}

// TestPreparedOperands checks every op that declares a prepared operand:
// its signatures are consistent, and the prepared kernel computes what the
// op's kernel computes.
func TestPreparedOperands(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var have []string
	for _, op := range Ops() {
		if op.Prepared == nil {
			continue
		}
		have = append(have, op.Name)
		if err := op.CheckPrepared(); err != nil {
			t.Errorf("%s: %v", op.Name, err)
		}
	}
	const wantOps = "conv2d conv2d_act conv2d_residual depthwise_conv2d_nhwc linear linear_act linear_residual"
	if got := strings.Join(have, " "); got != wantOps {
		t.Errorf("ops with a prepared operand: got %q, want %q", got, wantOps)
	}
	lx, lw, lb := randF32(r, 6, 9), randF32(r, 5, 9), randF32(r, 5)
	// A 3×3 convolution with stride 1 and 32 channels: the Winograd path
	// on the AVX2 tier.
	cx, cw, cb := randF32(r, 2, 32, 7, 9), randF32(r, 8, 32, 3, 3), randF32(r, 8)
	conv := []any{[]int{1, 1}, []int{1, 1}, 1}
	for _, c := range []struct {
		op    string
		attrs []any
	}{
		{"linear", nil}, {"linear_act", []any{ActReLU}}, {"linear_act", []any{ActGELU}}, {"linear_residual", []any{randF32(r, 6, 5)}},
		{"conv2d", conv}, {"conv2d_act", append(conv, ActReLU)}, {"conv2d_act", append(conv, ActGELU)},
		{"conv2d_residual", append([]any{randF32(r, 2, 8, 7, 9)}, append(conv, ActReLU)...)},
		{"depthwise_conv2d_nhwc", []any{[]int{2, 2}, []int{1, 1}, ActReLU6}},
	} {
		op := LookupOp(c.op)
		x, w, b, shape, tol := lx, lw, lb, []int{6, 5}, float32(1e-5)
		if strings.HasPrefix(c.op, "conv") {
			// Sums of 288 products reach 16: a few float32 ulps apart.
			x, w, b, shape, tol = cx, cw, cb, []int{2, 8, 7, 9}, 1e-4
		}
		if c.op == "depthwise_conv2d_nhwc" {
			x, w, b, shape = randF32(r, 2, 7, 9, 16), randF32(r, 16, 1, 3, 3), randF32(r, 16), []int{2, 4, 5, 16}
		}
		want := runtime.NewArray(runtime.Float32, shape...)
		got := runtime.NewArray(runtime.Float32, shape...)
		args := func(out, weight any) []reflect.Value {
			vs := []reflect.Value{reflect.ValueOf(out), reflect.ValueOf(x), reflect.ValueOf(weight), reflect.ValueOf(b)}
			for _, a := range c.attrs {
				vs = append(vs, reflect.ValueOf(a))
			}
			return vs
		}
		reflect.ValueOf(op.Kernel).Call(args(want, w))
		// The attributes follow the operands (a residual after the bias).
		first := 4 + len(op.Operands) - 3
		prep := append([]reflect.Value{reflect.ValueOf(w)}, args(nil, nil)[first:first+op.PrepareAttrs()]...)
		packed := reflect.ValueOf(op.Prepared.Prepare).Call(prep)[0].Interface()
		reflect.ValueOf(op.Prepared.Kernel).Call(args(got, packed))
		sameArray(t, c.op+" prepared", got, want, tol)
	}
}

func TestCheckPreparedRejectsMismatches(t *testing.T) {
	base := LookupOp("linear")
	for _, c := range []struct {
		pr   Prepared
		want string
	}{
		{Prepared{Operand: 2, Prepare: runtime.PackLinear, Kernel: runtime.LinearPacked}, "not a tensor operand"},
		{Prepared{Operand: 1, Prepare: runtime.Relu, Kernel: runtime.LinearPacked}, "prepare function"},
		{Prepared{Operand: 1, Prepare: runtime.PackLinear, Kernel: runtime.Linear}, "parameter 2 is *runtime.Array, want *runtime.PackedB"},
		{Prepared{Operand: 1, Prepare: runtime.PackLinear, Kernel: runtime.LinearActPacked}, "prepared kernel"},
		{Prepared{Operand: 1, Prepare: runtime.PrepareConv2d, Kernel: runtime.LinearPacked}, "takes 3 attributes, the kernel 0"},
	} {
		op := *base
		op.Prepared = &c.pr
		if err := op.CheckPrepared(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got error %v, want one containing %q", c.pr, err, c.want)
		}
	}
	// A prepare function's attributes must be the kernel's first ones.
	conv := *LookupOp("conv2d")
	conv.Prepared = &Prepared{Operand: 1, Prepare: func(*runtime.Array, []int, int) *runtime.ConvFilters { return nil }, Kernel: runtime.Conv2dPrepared}
	if err := conv.CheckPrepared(); err == nil || !strings.Contains(err.Error(), "parameter 2 is int, want the kernel's attribute parameter []int") {
		t.Errorf("conv2d with a prepare function taking (stride, groups): got error %v", err)
	}
}
