package resnet20

import (
	"github.com/fxgen/fxgen/example_models/internal/resblock"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// tolerance bounds |compiled - eager| relative to max(1, max|eager|): both
// run the same runtime kernels in the same order.
const tolerance = 1e-6

const inputSpec = "x=f32[N,3,32,32]"

// newTestModel returns a ResNet20 whose BatchNorm parameters and running
// statistics are random (a fresh model's are 1, 0, 0, 1, which would hide
// a swapped operand).
func newTestModel() *ResNet20 {
	m := NewResNet20()
	testutil.RandomizeNorms(nn.StateDict(m), 20, resblock.IsBatchNorm)
	return m
}

func TestCompiledMatchesEager(t *testing.T) {
	m := newTestModel()
	c := NewResNet20Compiled(m)
	for _, n := range []int{1, 3, 1} { // 1 again: the workspace shrinks back
		x := testutil.RandFloat32(uint64(n), n, 3, 32, 32)
		if err := testutil.Close(c.Forward(x), m.Forward(x), tolerance); err != nil {
			t.Errorf("N=%d: %v", n, err)
		}
	}
}

func TestCompiledRejectsBadInput(t *testing.T) {
	c := NewResNet20Compiled(NewResNet20())
	defer func() {
		if r := recover(); r == nil {
			t.Errorf("Forward accepted an input of shape [2,3,32,31]")
		}
	}()
	c.Forward(testutil.RandFloat32(1, 2, 3, 32, 31))
}

func TestStateDictNames(t *testing.T) {
	params := nn.NamedParameters(NewResNet20())
	// 19 convolutions + 2 downsample convolutions, 21 BatchNorms of 5
	// tensors each, fc weight and bias: PyTorch's state dict has 128 entries.
	if len(params) != 128 {
		t.Errorf("got %d parameters and buffers, want 128", len(params))
	}
	var names []string
	for _, p := range params {
		names = append(names, p.Name+p.Tensor.Type().String())
	}
	got := strings.Join(names, " ")
	for _, want := range []string{
		"conv1.weightf32[16,3,3,3] bn1.weightf32[16] bn1.biasf32[16] bn1.running_meanf32[16] bn1.running_varf32[16] bn1.num_batches_trackedi64[] layer1.0.conv1.weightf32[16,16,3,3]",
		"layer2.0.downsample.0.weightf32[32,16,1,1] layer2.0.downsample.1.weightf32[32]",
		"layer3.2.bn2.num_batches_trackedi64[] fc.weightf32[10,64] fc.biasf32[10]",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("state dict names lack %q", want)
		}
	}
}

// flops returns the FLOPs of the convolutions and the linear layer of one
// forward pass over n images.
func flops(tb testing.TB, n int) float64 {
	g, err := tracer.Trace(NewResNet20(), tracer.MustParseInputs(inputSpec))
	if err != nil {
		tb.Fatal(err)
	}
	return testutil.GraphFLOPs(g, map[string]int{"N": n})
}

func BenchmarkForward(b *testing.B) {
	m := newTestModel()
	c := NewResNet20Compiled(m)
	for _, n := range []int{1, 64} {
		x := testutil.RandFloat32(1, n, 3, 32, 32)
		fl := flops(b, n)
		testutil.BenchForward(b, n, fl, func() { m.Forward(x) }, func() { c.Forward(x) })
	}
}

func TestFLOPs(t *testing.T) {
	// ResNet-20 is about 41 MMACs per 32×32 image.
	if got := flops(t, 1) / 2; got < 40e6 || got > 42e6 {
		t.Errorf("got %.4g MACs per image, want about 41e6", got)
	}
}
