// This file tests the fused kernels against the unfused compositions.

package runtime

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// actRef applies act to a copy of a with the unfused kernels.
func actRef(a *Array, act int) *Array {
	out := a.Clone()
	switch Activation(act) {
	case ActReLU:
		Relu(out, a)
	case ActGELU:
		Gelu(out, a)
	case ActReLU6:
		Relu6(out, a)
	case ActSiLU:
		Silu(out, a)
	}
	return out
}

func TestLinearPackedMatchesLinear(t *testing.T) { forEachISA(t, testLinearPackedMatchesLinear) }

func testLinearPackedMatchesLinear(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ lead []int }{{[]int{1}}, {[]int{3}}, {[]int{2, 5}}, {[]int{67}}, {[]int{0}}} {
		for _, dims := range [][2]int{{1, 1}, {5, 7}, {33, 17}, {64, 10}, {129, 70}, {0, 3}} {
			in, outF := dims[0], dims[1]
			x := randArray(r, append(append([]int{}, c.lead...), in)...)
			w := randArray(r, outF, in)
			pw := PackLinear(w)
			for _, bias := range []*Array{nil, randArray(r, outF)} {
				oshape := append(append([]int{}, c.lead...), outF)
				want := NewArray(Float32, oshape...)
				Linear(want, x, w, bias)
				got := nanArray(oshape...)
				LinearPacked(got, x, pw, bias)
				if err := closeArrays(got, want, 1e-5); err != nil {
					t.Errorf("x %v, w %v, bias %v: %v", x.Shape, w.Shape, bias != nil, err)
				}
				for act := ActNone; act <= ActSiLU; act++ {
					ref := actRef(want, int(act))
					got := nanArray(oshape...)
					LinearActPacked(got, x, pw, bias, int(act))
					if err := closeArrays(got, ref, 1e-5); err != nil {
						t.Errorf("LinearActPacked act %d, x %v, w %v: %v", act, x.Shape, w.Shape, err)
					}
					got = nanArray(oshape...)
					LinearAct(got, x, w, bias, int(act))
					if err := closeArrays(got, ref, 1e-6); err != nil {
						t.Errorf("LinearAct act %d, x %v, w %v: %v", act, x.Shape, w.Shape, err)
					}
				}
			}
		}
	}
}

func TestPackLinearIsASnapshot(t *testing.T) { forEachISA(t, testPackLinearIsASnapshot) }

func testPackLinearIsASnapshot(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	x, w := randArray(r, 2, 3), randArray(r, 4, 3)
	pw := PackLinear(w)
	want := NewArray(Float32, 2, 4)
	Linear(want, x, w, nil)
	w.F32[0] += 10
	got := NewArray(Float32, 2, 4)
	LinearPacked(got, x, pw, nil)
	if err := closeArrays(got, want, 1e-6); err != nil {
		t.Errorf("after changing w: %v", err)
	}
}

func TestConv2dActMatchesComposition(t *testing.T) { forEachISA(t, testConv2dActMatchesComposition) }

func testConv2dActMatchesComposition(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ n, ch, h, o, k, stride, pad, groups int }{
		{1, 3, 5, 4, 3, 1, 1, 1},
		{2, 4, 7, 6, 1, 2, 0, 1},
		{2, 4, 6, 6, 1, 1, 0, 1},    // 1×1: the GEMM reads x directly
		{3, 6, 9, 4, 3, 1, 1, 2},    // groups
		{8, 16, 16, 16, 3, 1, 1, 1}, // large enough for the parallel paths
		{1, 32, 40, 48, 3, 1, 1, 1}, // one large image: parallel GEMM
	} {
		x := randArray(r, c.n, c.ch, c.h, c.h)
		w := randArray(r, c.o, c.ch/c.groups, c.k, c.k)
		bias := randArray(r, c.o)
		oh := (c.h+2*c.pad-c.k)/c.stride + 1
		plain := NewArray(Float32, c.n, c.o, oh, oh)
		st, pd := []int{c.stride, c.stride}, []int{c.pad, c.pad}
		Conv2d(plain, x, w, bias, st, pd, c.groups)
		for act := ActNone; act <= ActSiLU; act++ {
			got := nanArray(c.n, c.o, oh, oh)
			Conv2dAct(got, x, w, bias, st, pd, c.groups, act)
			if err := closeArrays(got, actRef(plain, act), 0); err != nil {
				t.Errorf("case %+v act %d: %v", c, act, err)
			}
		}
	}
}

func TestFusedRejectUnknownActivation(t *testing.T) { forEachISA(t, testFusedRejectUnknownActivation) }

func testFusedRejectUnknownActivation(t *testing.T) {
	for _, f := range []func(){
		func() {
			LinearAct(NewArray(Float32, 1, 1), NewArray(Float32, 1, 1), NewArray(Float32, 1, 1), nil, ActSiLU+1)
		},
		func() {
			LinearActPacked(NewArray(Float32, 1, 1), NewArray(Float32, 1, 1), PackLinear(NewArray(Float32, 1, 1)), nil, -1)
		},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "unknown activation") {
					t.Errorf("got panic %v, want one about an unknown activation", r)
				}
			}()
			f()
		}()
	}
}

func TestReluInPlaceMatchesRelu(t *testing.T) { forEachISA(t, testReluInPlaceMatchesRelu) }

func testReluInPlaceMatchesRelu(t *testing.T) {
	x := FromFloat32([]float32{-1, 0, 2, float32(math.NaN()), float32(math.Inf(-1)), float32(math.Inf(1))}, 6)
	want := NewArray(Float32, 6)
	Relu(want, x)
	applyAct(x.F32, ActReLU)
	if err := closeArrays(x, want, 0); err != nil {
		t.Error(err)
	}
}
