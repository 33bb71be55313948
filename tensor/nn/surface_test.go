package nn_test

import (
	"strings"
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// surfaceNet uses each module added for PyTorch's surface once.
type surfaceNet struct {
	Bag  *nn.EmbeddingBag
	Bag2 *nn.EmbeddingBag
	Conv *nn.Conv1d
	Bn   *nn.BatchNorm1d
	Pool *nn.AvgPool2d
	Up   *nn.Upsample
	Bi   *nn.Upsample
}

func (m *surfaceNet) Forward(idx, off, bags, seq, img *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor, *tensor.Tensor, *tensor.Tensor) {
	e := m.Bag.Forward(idx, off).Add(m.Bag2.Forward(bags, nil))
	s := m.Bn.Forward(m.Conv.Forward(seq))
	p := m.Up.Forward(m.Pool.Forward(img))
	return e, s, p, m.Bi.Forward(img)
}

func newSurfaceNet() *surfaceNet {
	bn := nn.NewBatchNorm1d(6, nn.Eps(1e-3))
	bn.RunningMean = testutil.RandFloat32(11, 6)
	bn.Weight = testutil.RandFloat32(12, 6)
	return &surfaceNet{
		Bag: nn.NewEmbeddingBag(10, 4, "mean"), Bag2: nn.NewEmbeddingBag(10, 4, "max"),
		Conv: nn.NewConv1d(3, 6, 3, nn.Padding(1), nn.Stride(2)), Bn: bn,
		Pool: nn.NewAvgPool2d(3, nn.Stride(2), nn.Padding(1), nn.CeilMode(true), nn.CountIncludePad(false)),
		Up:   nn.NewUpsample(2, "nearest"),
		Bi:   &nn.Upsample{Size: []int{5, 7}, Mode: "bilinear", AlignCorners: true},
	}
}

// TestSurfaceModules traces the modules to one call_module each, of the
// kinds of the op table, and checks the interpreter against eager
// execution.
func TestSurfaceModules(t *testing.T) {
	m := newSurfaceNet()
	if got, want := paramNames(m), "bag.weightf32[10,4] bag2.weightf32[10,4] conv.weightf32[6,3,3] conv.biasf32[6] "+
		"bn.weightf32[6] bn.biasf32[6] bn.running_meanf32[6] bn.running_varf32[6] bn.num_batches_trackedi64[]"; got != want {
		t.Errorf("params: got %q, want %q", got, want)
	}
	g, err := tracer.Trace(m, tracer.MustParseInputs("idx=i64[7]", "off=i64[N]", "bags=i64[N,3]", "seq=f32[N,3,9]", "img=f32[N,2,7,6]"))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, n := range g.Nodes() {
		if n.Op == ir.CallModule {
			kinds = append(kinds, n.Target+":"+g.Modules[n.Target].Kind+n.Types[0].String())
		}
	}
	want := "bag:EmbeddingBagf32[N,4] bag2:EmbeddingBagf32[N,4] conv:Conv1df32[N,6,5] bn:BatchNorm2df32[N,6,5] " +
		"pool:AvgPool2df32[N,2,4,4] up:UpsampleNearestf32[N,2,8,8] bi:UpsampleBilinearf32[N,2,5,7]"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("call_module nodes:\ngot  %s\nwant %s", got, want)
	}
	idx := tensor.FromInt64([]int64{1, 2, 9, 4, 0, 3, 3}, 7)
	off := tensor.FromInt64([]int64{0, 2, 2}, 3) // a middle bag is empty
	bags := tensor.FromInt64([]int64{1, 5, 5, 9, 0, 2, 7, 7, 7}, 3, 3)
	seq, img := testutil.RandFloat32(13, 3, 3, 9), testutil.RandFloat32(14, 3, 2, 7, 6)
	e, s, p, b := m.Forward(idx, off, bags, seq, img)
	outs, err := ir.NewInterpreter(g).Run(idx.Array(), off.Array(), bags.Array(), seq.Array(), img.Array())
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []*tensor.Tensor{e, s, p, b} {
		if err := testutil.Close(tensor.FromArray(outs[i]), want, 1e-6); err != nil {
			t.Errorf("result %d: interpreter vs eager: %v", i, err)
		}
	}
	// The middle bag is empty: its mean is zero.
	for j, v := range m.Bag.Forward(idx, off).Array().F32[4:8] {
		if v != 0 {
			t.Errorf("empty bag, col %d: %v, want 0", j, v)
		}
	}
}

// TestEmbeddingBagModes checks the three modes of nn.EmbeddingBag against
// sums, means and maxima of nn.Embedding's rows.
func TestEmbeddingBagModes(t *testing.T) {
	for _, mode := range []string{"sum", "mean", "max"} {
		bag := nn.NewEmbeddingBag(6, 3, mode)
		rows := (&nn.Embedding{Weight: bag.Weight}).Forward(tensor.FromInt64([]int64{4, 1, 5}, 3)).Array()
		got := bag.Forward(tensor.FromInt64([]int64{4, 1, 5}, 3), tensor.FromInt64([]int64{0}, 1)).Array()
		for j := 0; j < 3; j++ {
			a, b, c := rows.F32[j], rows.F32[3+j], rows.F32[6+j]
			want := map[string]float32{"sum": a + b + c, "mean": (a + b + c) / 3, "max": max(a, b, c)}[mode]
			if d := got.F32[j] - want; d > 1e-6 || d < -1e-6 {
				t.Errorf("mode %s col %d: %v, want %v", mode, j, got.F32[j], want)
			}
		}
	}
	if msg := mustPanic(t, func() { nn.NewEmbeddingBag(2, 2, "median") }); !strings.Contains(msg, `mode "median"`) {
		t.Errorf("panic %q", msg)
	}
}

// squeezer squeezes every dim of size 1.
type squeezer struct{}

func (squeezer) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Squeeze() }

// TestSqueezeSymbolicRefused: squeezing a symbolic batch dim would drop it
// eagerly at N = 1 but not in compiled code, so the trace refuses it.
func TestSqueezeSymbolicRefused(t *testing.T) {
	_, err := tracer.Trace(squeezer{}, tracer.MustParseInputs("x=f32[N,1,3]"))
	if err == nil || !strings.Contains(err.Error(), "may be 1 at run time") {
		t.Fatalf("trace of x.Squeeze() on f32[N,1,3]: %v", err)
	}
	g, err := tracer.Trace(squeezer{}, tracer.MustParseInputs("x=f32[2,1,3]"))
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Nodes()[1].Types[0].String(); got != "f32[2,3]" {
		t.Errorf("squeeze of f32[2,1,3]: %s", got)
	}
}
