package plan_test

import (
	"testing"

	"github.com/fxgen/fxgen/plan"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tracer"
)

// convNet is a small residual convolution network over 16-channel images;
// mix adds an op that mixes the samples of the batch (a softmax over it).
type convNet struct {
	W1, W2, Fc *tensor.Tensor
	mix        bool
}

func newConvNet(mix bool, fcIn, fcOut int) convNet {
	return convNet{
		W1:  tensor.FromArray(runtime.NewArray(runtime.Float32, 16, 16, 3, 3)),
		W2:  tensor.FromArray(runtime.NewArray(runtime.Float32, 16, 16, 3, 3)),
		Fc:  tensor.FromArray(runtime.NewArray(runtime.Float32, fcOut, fcIn)),
		mix: mix,
	}
}

func (m convNet) Forward(x *tensor.Tensor) *tensor.Tensor {
	one := []int{1}
	h := tensor.Relu(tensor.Conv2d(x, m.W1, nil, one, one, 1))
	h = tensor.Relu(tensor.Add(tensor.Conv2d(h, m.W2, nil, one, one, 1), x))
	if m.mix {
		h = tensor.Softmax(h, 0)
	}
	h = tensor.Flatten(tensor.AdaptiveAvgPool2d(h, []int{1, 1}), 1, -1)
	return tensor.Linear(h, m.Fc, nil)
}

// mlp is two linear layers.
type mlp struct{ W1, W2 *tensor.Tensor }

func (m mlp) Forward(x *tensor.Tensor) *tensor.Tensor {
	return tensor.Linear(tensor.Relu(tensor.Linear(x, m.W1, nil)), m.W2, nil)
}

// TestBatchChunk checks which graphs run a slice of their batch at a time:
// a convolution network of 64 KB values per sample does, 8 samples a
// slice; not with an op that mixes the samples, nor with parameters
// (which every slice reads again) larger than a quarter of a slice's
// values, nor a network of small values (an MLP), nor with a batch size
// that is a multiple of a symbol rather than the symbol.
func TestBatchChunk(t *testing.T) {
	bigFc := 16 * 1024 * 1024 // 64 MB of parameters
	for _, tc := range []struct {
		name  string
		model any
		input string
		want  int
	}{
		{"conv net", newConvNet(false, 16, 10), "x=f32[N,16,32,32]", 8},
		{"softmax over the batch", newConvNet(true, 16, 10), "x=f32[N,16,32,32]", 0},
		{"large parameters", newConvNet(false, 16, bigFc/16), "x=f32[N,16,32,32]", 0},
		{"small values", mlp{tensor.FromArray(runtime.NewArray(runtime.Float32, 512, 784)), tensor.FromArray(runtime.NewArray(runtime.Float32, 10, 512))}, "x=f32[N,784]", 0},
		{"batch 2N", newConvNet(false, 16, 10), "x=f32[2*N,16,32,32]", 0},
	} {
		g, err := tracer.Trace(tc.model, tracer.MustParseInputs(tc.input))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := plan.BatchChunk(g, plan.ParamOnly(g)); got != tc.want {
			t.Errorf("%s: BatchChunk %d, want %d", tc.name, got, tc.want)
		}
	}
}
