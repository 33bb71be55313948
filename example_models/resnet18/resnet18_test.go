package resnet18

import (
	"testing"

	"github.com/fxgen/fxgen/example_models/internal/resblock/resblocktest"
)

var spec = resblocktest.Spec{
	New:     func() resblocktest.Forwarder { return NewResNet18() },
	Compile: func(m resblocktest.Forwarder) resblocktest.Forwarder { return NewResNet18Compiled(m.(*ResNet18)) },
	Seed:    18,
	Image:   224,
	// Both run the same runtime kernels in the same order.
	Tolerance:    1e-6,
	TestBatches:  testBatches,
	BenchBatches: []int{1, 8},
	// A forward pass of ResNet-18 is 3.6 GFLOP per image: fewer calls.
	CallsPerGoroutine: 1,
	AllocRuns:         2,
	// 17 convolutions + 3 downsample convolutions, 20 BatchNorms of 5
	// tensors each, fc weight and bias: torchvision's state dict has 122
	// entries.
	Params: 122,
	Names: []string{
		"conv1.weightf32[64,3,7,7] bn1.weightf32[64] bn1.biasf32[64] bn1.running_meanf32[64] bn1.running_varf32[64] bn1.num_batches_trackedi64[] layer1.0.conv1.weightf32[64,64,3,3]",
		"layer1.1.bn2.num_batches_trackedi64[] layer2.0.conv1.weightf32[128,64,3,3]",
		"layer2.0.downsample.0.weightf32[128,64,1,1] layer2.0.downsample.1.weightf32[128]",
		"layer4.0.downsample.1.num_batches_trackedi64[] layer4.1.conv1.weightf32[512,512,3,3]",
		"layer4.1.bn2.num_batches_trackedi64[] fc.weightf32[1000,512] fc.biasf32[1000]",
	},
	// ResNet-18 is about 1.81 GMACs per 224×224 image.
	MACs: [2]float64{1.80e9, 1.83e9},
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
