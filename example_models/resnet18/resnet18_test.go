package resnet18

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

const inputSpec = "x=f32[N,3,224,224]"

// newTestModel returns a ResNet18 whose BatchNorm parameters and running
// statistics are random (a fresh model's are 1, 0, 0, 1, which would hide
// a swapped operand).
func newTestModel() *ResNet18 {
	m := NewResNet18()
	testutil.RandomizeNorms(nn.StateDict(m), 18, resblock.IsBatchNorm)
	return m
}

func TestCompiledMatchesEager(t *testing.T) {
	m := newTestModel()
	c := NewResNet18Compiled(m)
	for _, n := range testBatches {
		x := testutil.RandFloat32(uint64(n), n, 3, 224, 224)
		if err := testutil.Close(c.Forward(x), m.Forward(x), tolerance); err != nil {
			t.Errorf("N=%d: %v", n, err)
		}
	}
}

func TestCompiledRejectsBadInput(t *testing.T) {
	c := NewResNet18Compiled(NewResNet18())
	defer func() {
		if r := recover(); r == nil {
			t.Errorf("Forward accepted an input of shape [2,3,224,223]")
		}
	}()
	c.Forward(testutil.RandFloat32(1, 2, 3, 224, 223))
}

func TestStateDictNames(t *testing.T) {
	params := nn.NamedParameters(NewResNet18())
	// 17 convolutions + 3 downsample convolutions, 20 BatchNorms of 5
	// tensors each, fc weight and bias: torchvision's state dict has 122
	// entries.
	if len(params) != 122 {
		t.Errorf("got %d parameters and buffers, want 122", len(params))
	}
	var names []string
	for _, p := range params {
		names = append(names, p.Name+p.Tensor.Type().String())
	}
	got := strings.Join(names, " ")
	for _, want := range []string{
		"conv1.weightf32[64,3,7,7] bn1.weightf32[64] bn1.biasf32[64] bn1.running_meanf32[64] bn1.running_varf32[64] bn1.num_batches_trackedi64[] layer1.0.conv1.weightf32[64,64,3,3]",
		"layer1.1.bn2.num_batches_trackedi64[] layer2.0.conv1.weightf32[128,64,3,3]",
		"layer2.0.downsample.0.weightf32[128,64,1,1] layer2.0.downsample.1.weightf32[128]",
		"layer4.0.downsample.1.num_batches_trackedi64[] layer4.1.conv1.weightf32[512,512,3,3]",
		"layer4.1.bn2.num_batches_trackedi64[] fc.weightf32[1000,512] fc.biasf32[1000]",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("state dict names lack %q", want)
		}
	}
}

// flops returns the FLOPs of the convolutions and the linear layer of one
// forward pass over n images.
func flops(tb testing.TB, n int) float64 {
	g, err := tracer.Trace(NewResNet18(), tracer.MustParseInputs(inputSpec))
	if err != nil {
		tb.Fatal(err)
	}
	return testutil.GraphFLOPs(g, map[string]int{"N": n})
}

func BenchmarkForward(b *testing.B) {
	m := newTestModel()
	c := NewResNet18Compiled(m)
	for _, n := range []int{1, 8} {
		x := testutil.RandFloat32(1, n, 3, 224, 224)
		fl := flops(b, n)
		testutil.BenchForward(b, n, fl, func() { m.Forward(x) }, func() { c.Forward(x) })
	}
}

func TestFLOPs(t *testing.T) {
	// ResNet-18 is about 1.81 GMACs per 224×224 image.
	if got := flops(t, 1) / 2; got < 1.80e9 || got > 1.83e9 {
		t.Errorf("got %.4g MACs per image, want about 1.81e9", got)
	}
}
