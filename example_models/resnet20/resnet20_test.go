package resnet20

import (
	"testing"

	"github.com/fxgen/fxgen/example_models/internal/resblock/resblocktest"
)

var spec = resblocktest.Spec{
	New:     func() resblocktest.Forwarder { return NewResNet20() },
	Compile: func(m resblocktest.Forwarder) resblocktest.Forwarder { return NewResNet20Compiled(m.(*ResNet20)) },
	Seed:    20,
	Image:   32,
	// Both run the same runtime kernels in the same order.
	Tolerance: 1e-6,
	// 19 images run in slices of 7, 6 and 6 (plan.BatchChunk).
	TestBatches:  []int{1, 3, 19},
	BenchBatches: []int{1, 64},
	// 19 convolutions + 2 downsample convolutions, 21 BatchNorms of 5
	// tensors each, fc weight and bias: PyTorch's state dict has 128
	// entries.
	Params: 128,
	Names: []string{
		"conv1.weightf32[16,3,3,3] bn1.weightf32[16] bn1.biasf32[16] bn1.running_meanf32[16] bn1.running_varf32[16] bn1.num_batches_trackedi64[] layer1.0.conv1.weightf32[16,16,3,3]",
		"layer2.0.downsample.0.weightf32[32,16,1,1] layer2.0.downsample.1.weightf32[32]",
		"layer3.2.bn2.num_batches_trackedi64[] fc.weightf32[10,64] fc.biasf32[10]",
	},
	// ResNet-20 is about 41 MMACs per 32×32 image.
	MACs: [2]float64{40e6, 42e6},
}

func TestCompiledMatchesEager(t *testing.T)          { spec.CompiledMatchesEager(t) }
func TestCompiledRejectsBadInput(t *testing.T)       { spec.CompiledRejectsBadInput(t) }
func TestCompiledConcurrent(t *testing.T)            { spec.CompiledConcurrent(t) }
func TestCompiledWorkersAgree(t *testing.T)          { spec.CompiledWorkersAgree(t) }
func TestCompiledAllocs(t *testing.T)                { spec.CompiledAllocs(t) }
func TestCompiledBuiltBeforeLoad(t *testing.T)       { spec.CompiledBuiltBeforeLoad(t) }
func TestLoadsWithoutNumBatchesTracked(t *testing.T) { spec.LoadsWithoutNumBatchesTracked(t) }
func TestStateDictNames(t *testing.T)                { spec.StateDictNames(t) }
func TestFLOPs(t *testing.T)                         { spec.FLOPs(t) }
func BenchmarkForward(b *testing.B)                  { spec.BenchmarkForward(b) }
