// This file tests LayerNorm and Embedding: defaults, names, forward.

package nn_test

import (
	"math"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

func seqParamNames(m any) string {
	var parts []string
	for _, p := range nn.NamedParameters(m) {
		parts = append(parts, p.Name+p.Tensor.Type().String())
	}
	return strings.Join(parts, " ")
}

func TestLayerNormDefaults(t *testing.T) {
	l := nn.NewLayerNorm(6)
	if got, want := seqParamNames(l), "weightf32[6] biasf32[6]"; got != want {
		t.Errorf("NewLayerNorm(6) params: got %q, want %q", got, want)
	}
	for i, v := range l.Weight.Float32s() {
		if v != 1 || l.Bias.Float32s()[i] != 0 {
			t.Fatalf("element %d: weight %v bias %v, want 1 and 0", i, v, l.Bias.Float32s()[i])
		}
	}
	if l.Eps != 1e-5 {
		t.Errorf("Eps: got %v, want 1e-5", l.Eps)
	}
}

func TestLayerNormForward(t *testing.T) {
	l := nn.NewLayerNorm(5)
	l.Weight = testutil.RandFloat32(3, 5)
	l.Bias = testutil.RandFloat32(4, 5)
	x := testutil.RandFloat32(5, 2, 3, 5)
	got := l.Forward(x).Float32s()
	xs, w, b := x.Float32s(), l.Weight.Float32s(), l.Bias.Float32s()
	for r := 0; r < 6; r++ {
		var mean, v float64
		for j := 0; j < 5; j++ {
			mean += float64(xs[r*5+j]) / 5
		}
		for j := 0; j < 5; j++ {
			d := float64(xs[r*5+j]) - mean
			v += d * d / 5
		}
		for j := 0; j < 5; j++ {
			want := (float64(xs[r*5+j])-mean)/math.Sqrt(v+1e-5)*float64(w[j]) + float64(b[j])
			if math.Abs(float64(got[r*5+j])-want) > 1e-5 {
				t.Fatalf("row %d column %d: got %v, want %v", r, j, got[r*5+j], want)
			}
		}
	}
}

func TestEmbeddingInitAndLookup(t *testing.T) {
	e := nn.NewEmbedding(1000, 64)
	if got, want := seqParamNames(e), "weightf32[1000,64]"; got != want {
		t.Errorf("NewEmbedding(1000, 64) params: got %q, want %q", got, want)
	}
	var s, ss float64
	w := e.Weight.Float32s()
	for _, v := range w {
		s += float64(v)
		ss += float64(v) * float64(v)
	}
	mean := s / float64(len(w))
	std := math.Sqrt(ss/float64(len(w)) - mean*mean)
	if math.Abs(mean) > 0.02 || math.Abs(std-1) > 0.02 {
		t.Errorf("weight mean %.4f std %.4f, want N(0, 1)", mean, std)
	}
	idx := tensor.FromInt64([]int64{999, 0, 5}, 3)
	out := e.Forward(idx)
	if got := out.Shape(); len(got) != 2 || got[0] != 3 || got[1] != 64 {
		t.Fatalf("shape %v, want [3 64]", got)
	}
	for i, ix := range []int{999, 0, 5} {
		for j := 0; j < 64; j++ {
			if out.Float32s()[i*64+j] != w[ix*64+j] {
				t.Fatalf("row %d column %d: got %v, want weight[%d][%d] = %v", i, j, out.Float32s()[i*64+j], ix, j, w[ix*64+j])
			}
		}
	}
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "out of range [0, 1000)") {
			t.Errorf("index 1000: got panic %q, want an out-of-range message", msg)
		}
	}()
	e.Forward(tensor.FromInt64([]int64{1000}, 1))
}
