// This file tests state dicts: names, strict and relaxed loading, and
// loading in place into the model's arrays.

package nn

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// toy has a parameter of each dtype and a submodule.
type toy struct {
	Weight *tensor.Tensor // f32[2,3]
	Count  *tensor.Tensor // i64[]
	Mask   *tensor.Tensor // bool[2]
	Fc     *Linear        // fc.weight f32[2,3], fc.bias f32[2]
}

// newToy returns a toy whose values depend on seed.
func newToy(seed uint64) *toy {
	r := rand.New(rand.NewPCG(seed, 0))
	f := func(shape ...int) *tensor.Tensor {
		a := runtime.NewArray(runtime.Float32, shape...)
		for i := range a.F32 {
			a.F32[i] = r.Float32()
		}
		return tensor.FromArray(a)
	}
	return &toy{
		Weight: f(2, 3),
		Count:  tensor.FromArray(runtime.Int64Scalar(r.Int64())),
		Mask:   tensor.FromBool([]bool{r.IntN(2) == 0, r.IntN(2) == 0}, 2),
		Fc:     &Linear{Weight: f(2, 3), Bias: f(2)},
	}
}

// snapshot returns deep copies of m's arrays by name.
func snapshot(m any) map[string]*runtime.Array {
	s := map[string]*runtime.Array{}
	for name, t := range StateDict(m) {
		s[name] = t.Array().Clone()
	}
	return s
}

// checkUnchanged reports any array of m that differs from the snapshot.
func checkUnchanged(t *testing.T, m any, before map[string]*runtime.Array) {
	t.Helper()
	for name, t2 := range StateDict(m) {
		if d := sameArray(t2.Array(), before[name]); d != "" {
			t.Errorf("%s changed by a failed load: %s", name, d)
		}
	}
}

func TestStateDictNames(t *testing.T) {
	sd := StateDict(newToy(1))
	for _, name := range []string{"weight", "count", "mask", "fc.weight", "fc.bias"} {
		if sd[name] == nil {
			t.Errorf("StateDict has no %s", name)
		}
	}
	if len(sd) != 5 {
		t.Errorf("StateDict has %d entries, want 5", len(sd))
	}
}

func TestLoadSafetensorsInPlace(t *testing.T) {
	src, dst := newToy(1), newToy(2)
	var buf bytes.Buffer
	if err := SaveSafetensors(&buf, src); err != nil {
		t.Fatal(err)
	}
	// A compiled module holds the arrays it got at construction time.
	held := map[string]*runtime.Array{}
	for name, t := range StateDict(dst) {
		held[name] = t.Array()
	}
	if err := LoadSafetensors(bytes.NewReader(buf.Bytes()), dst); err != nil {
		t.Fatal(err)
	}
	want := StateDict(src)
	for name, got := range StateDict(dst) {
		if got.Array() != held[name] {
			t.Errorf("%s: the load replaced the model's array instead of copying into it", name)
		}
		if d := sameArray(held[name], want[name].Array()); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}

func TestLoadStrict(t *testing.T) {
	full := func() map[string]*tensor.Tensor { return StateDict(newToy(3)) }
	for _, tc := range []struct {
		name   string
		edit   func(sd map[string]*tensor.Tensor)
		opts   []LoadOption
		want   []string // substrings of the error; none: success
		loaded bool     // whether fc.bias is expected to be overwritten
	}{
		{name: "exact", loaded: true},
		{name: "missing", edit: func(sd map[string]*tensor.Tensor) { delete(sd, "count"); delete(sd, "fc.weight") },
			want: []string{"missing count (i64[] in the model)", "missing fc.weight (f32[2,3] in the model)"}},
		{name: "missing allowed", edit: func(sd map[string]*tensor.Tensor) { delete(sd, "count") }, opts: []LoadOption{AllowMissing()}, loaded: true},
		{name: "unexpected", edit: func(sd map[string]*tensor.Tensor) { sd["fc.extra"] = tensor.Scalar(1) },
			want: []string{"unexpected fc.extra"}},
		{name: "unexpected allowed", edit: func(sd map[string]*tensor.Tensor) { sd["fc.extra"] = tensor.Scalar(1) }, opts: []LoadOption{AllowUnexpected()}, loaded: true},
		{name: "shape", edit: func(sd map[string]*tensor.Tensor) { sd["fc.weight"] = tensor.FromFloat32(make([]float32, 6), 3, 2) },
			want: []string{"fc.weight: shape [3 2] in the source, [2 3] in the model"}},
		{name: "dtype", edit: func(sd map[string]*tensor.Tensor) { sd["count"] = tensor.Scalar(1) },
			want: []string{"count: dtype f32 in the source, i64 in the model"}},
		{name: "bool dtype", edit: func(sd map[string]*tensor.Tensor) { sd["mask"] = tensor.FromInt64([]int64{1, 0}, 2) },
			want: []string{"mask: dtype i64 in the source, bool in the model"}},
		{name: "nil", edit: func(sd map[string]*tensor.Tensor) { sd["weight"] = nil }, want: []string{"weight: nil tensor"}},
		{name: "several", edit: func(sd map[string]*tensor.Tensor) { delete(sd, "mask"); sd["zz"] = tensor.Scalar(1) },
			opts: []LoadOption{AllowMissing()}, want: []string{"unexpected zz"}},
	} {
		sd := full()
		if tc.edit != nil {
			tc.edit(sd)
		}
		m := newToy(4)
		before := snapshot(m)
		err := LoadStateDict(m, sd, tc.opts...)
		if len(tc.want) == 0 {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		} else {
			if err == nil {
				t.Errorf("%s: LoadStateDict succeeded, want an error", tc.name)
				continue
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: error %q does not contain %q", tc.name, err, w)
				}
			}
			checkUnchanged(t, m, before)
		}
		if tc.loaded {
			if d := sameArray(m.Fc.Bias.Array(), sd["fc.bias"].Array()); d != "" {
				t.Errorf("%s: fc.bias not loaded: %s", tc.name, d)
			}
		}
	}
}

func TestLoadSafetensorsStrictByDefault(t *testing.T) {
	file := validFile(t) // weight, count, mask: no fc
	m := newToy(5)
	before := snapshot(m)
	err := LoadSafetensors(bytes.NewReader(file), m)
	if err == nil || !strings.Contains(err.Error(), "missing fc.weight") || !strings.Contains(err.Error(), "missing fc.bias") {
		t.Errorf("LoadSafetensors = %v, want errors for missing fc.weight and fc.bias", err)
	}
	checkUnchanged(t, m, before)
	if err := LoadSafetensors(bytes.NewReader(file), m, AllowMissing()); err != nil {
		t.Fatal(err)
	}
	if got := m.Count.Item(); got != 4 {
		t.Errorf("count = %v, want 4", got)
	}
	if d := sameArray(m.Fc.Bias.Array(), before["fc.bias"]); d != "" {
		t.Errorf("fc.bias changed although the file has none: %s", d)
	}
}
