// This file tests that shape rules refuse results whose size an int
// cannot count: a reshape target whose product wraps around to the
// input's size, constructors of absurd shapes.
// Its cases are 64-bit sizes, so it builds on 64-bit platforms only.

//go:build amd64 || arm64 || loong64 || mips64 || mips64le || ppc64 || ppc64le || riscv64 || s390x

package ir

import (
	"strings"
	"testing"
)

func TestInferRefusesUncountableResults(t *testing.T) {
	f32 := func(s string) ArgType {
		typ, err := ParseType(s)
		if err != nil {
			t.Fatal(err)
		}
		return ArgType{Type: typ}
	}
	for _, tc := range []struct {
		op     string
		args   []ArgType
		kwargs []Kwarg
		want   string
	}{
		// (2^62+1)·4 wraps to 4, the input's size.
		{"reshape", []ArgType{f32("f32[4]")}, []Kwarg{{"shape", []int{1<<62 + 1, 4}}}, "more elements than an int can count"},
		// The target's product wraps to 0: the message must not say so.
		{"reshape", []ArgType{f32("f32[4]")}, []Kwarg{{"shape", []int{1 << 62, 4}}}, "cannot reshape [4] to [4611686018427387904 4]: the target has more elements than an int can count"},
		{"reshape", []ArgType{f32("f32[N,4]")}, []Kwarg{{"shape", []int{-1, 1 << 62, 1 << 62}}}, "the target has more elements than an int can count"},
		{"zeros", nil, []Kwarg{{"shape", []int{1 << 62, 4}}, {"dtype", Float32}}, "more elements than an int can count"},
		{"ones", nil, []Kwarg{{"shape", []int{1 << 32, 1 << 32}}, {"dtype", Float32}}, "more elements than an int can count"},
		{"rand", nil, []Kwarg{{"shape", []int{1 << 62, 4}}, {"seed", 1}}, "more elements than an int can count"},
	} {
		_, err := LookupOp(tc.op).InferTypes(tc.args, tc.kwargs)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v %v: %v, want an error containing %q", tc.op, tc.args, tc.kwargs, err, tc.want)
		}
	}
	// Zero-size and large-but-countable shapes stay fine.
	for _, shape := range [][]int{{0, 1 << 62, 1 << 62}, {1 << 31, 1 << 31}} {
		if _, err := LookupOp("zeros").InferTypes(nil, []Kwarg{{"shape", shape}, {"dtype", Float32}}); err != nil {
			t.Errorf("zeros %v: %v", shape, err)
		}
	}
}
