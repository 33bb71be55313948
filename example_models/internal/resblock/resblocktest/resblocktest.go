// Package resblocktest holds the tests and benchmark that the BasicBlock
// ResNets of the model zoo (resnet18, resnet20) share: compiled against
// eager, bad input, state-dict names, FLOPs and the eager-vs-compiled
// benchmark. Each model's test file describes itself in a Spec.
package resblocktest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/example_models/internal/resblock"
	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// Forwarder is an eager model or its compiled form.
type Forwarder interface {
	Forward(x *tensor.Tensor) *tensor.Tensor
}

// Spec describes one ResNet to the shared tests.
type Spec struct {
	New     func() Forwarder            // a freshly initialized eager model
	Compile func(m Forwarder) Forwarder // the generated constructor
	Seed    uint64                      // for the random BatchNorm statistics
	Image   int                         // input height and width (3 channels)

	// Tolerance bounds |compiled - eager| relative to max(1, max|eager|).
	Tolerance float64
	// TestBatches and BenchBatches are the batch sizes of the comparison
	// and of the benchmark.
	TestBatches, BenchBatches []int
	// CallsPerGoroutine and AllocRuns are as in testutil.Compiled.
	CallsPerGoroutine, AllocRuns int

	// Params is the number of state-dict entries; Names are runs of
	// "name"+"type" pairs, space-separated, that the state dict must hold.
	Params int
	Names  []string
	// MACs bounds the multiply-adds of one image: [low, high].
	MACs [2]float64
}

// inputSpec is the fxgen -input flag of the model.
func (s *Spec) inputSpec() string { return fmt.Sprintf("x=f32[N,3,%d,%d]", s.Image, s.Image) }

// testModel returns an eager model whose BatchNorm parameters and running
// statistics are random (a fresh model's are 1, 0, 0, 1, which would hide
// a swapped operand).
func (s *Spec) testModel() Forwarder {
	m := s.New()
	testutil.RandomizeNorms(nn.StateDict(m), s.Seed, resblock.IsBatchNorm)
	return m
}

// compiled describes the model to the tests every compiled model shares.
func (s *Spec) compiled() *testutil.Compiled {
	return &testutil.Compiled{
		New:     func() any { return s.testModel() },
		Eager:   func(m any) testutil.Forward { return testutil.Unary(m.(Forwarder).Forward) },
		Compile: func(m any) testutil.Forward { return testutil.Unary(s.Compile(m.(Forwarder)).Forward) },
		Inputs: func(n int, seed uint64) []*tensor.Tensor {
			return []*tensor.Tensor{fxgentest.RandFloat32(seed, n, 3, s.Image, s.Image)}
		},
		Batches:           s.TestBatches,
		Tolerance:         s.Tolerance,
		CallsPerGoroutine: s.CallsPerGoroutine,
		AllocRuns:         s.AllocRuns,
	}
}

// CompiledMatchesEager checks the compiled model against the eager one on
// random images for each of TestBatches, on every kernel tier.
func (s *Spec) CompiledMatchesEager(t *testing.T) { s.compiled().MatchesEagerEveryTier(t) }

// CompiledWorkersAgree checks that the compiled model computes the same
// bits on one worker (where ResNet-20 runs a large batch a slice at a
// time) as on two, on every tier.
func (s *Spec) CompiledWorkersAgree(t *testing.T) { s.compiled().WorkersAgreeEveryTier(t) }

// CompiledConcurrent checks one compiled model shared by 8 goroutines.
func (s *Spec) CompiledConcurrent(t *testing.T) { s.compiled().Concurrent(t) }

// CompiledAllocs checks that every tier allocates as much per Forward.
func (s *Spec) CompiledAllocs(t *testing.T) { s.compiled().AllocsEveryTier(t) }

// CompiledBuiltBeforeLoad checks a model compiled before a weight load.
func (s *Spec) CompiledBuiltBeforeLoad(t *testing.T) { s.compiled().BuiltBeforeLoad(t) }

// LoadsWithoutNumBatchesTracked saves a model as safetensors without the
// BatchNorms' num_batches_tracked, as many exported checkpoints are, and
// loads it strictly into a fresh model, which must then compute the same.
func (s *Spec) LoadsWithoutNumBatchesTracked(t *testing.T) {
	src := s.testModel()
	sd := nn.StateDict(src)
	dropped := 0
	for name := range sd {
		if strings.HasSuffix(name, ".num_batches_tracked") {
			delete(sd, name)
			dropped++
		}
	}
	if dropped == 0 {
		t.Fatal("the model has no num_batches_tracked to leave out")
	}
	var file bytes.Buffer
	if err := nn.WriteSafetensors(&file, sd, nil); err != nil {
		t.Fatal(err)
	}
	dst := s.New()
	if err := nn.LoadSafetensors(bytes.NewReader(file.Bytes()), dst); err != nil {
		t.Fatalf("strict load without num_batches_tracked: %v", err)
	}
	x := fxgentest.RandFloat32(3, 1, 3, s.Image, s.Image)
	if err := testutil.Close(dst.Forward(x), src.Forward(x), 0); err != nil {
		t.Errorf("the loaded model computes otherwise: %v", err)
	}
	// Any other missing name is still an error.
	delete(sd, "fc.bias")
	file.Reset()
	if err := nn.WriteSafetensors(&file, sd, nil); err != nil {
		t.Fatal(err)
	}
	if err := nn.LoadSafetensors(bytes.NewReader(file.Bytes()), s.New()); err == nil || !strings.Contains(err.Error(), "missing fc.bias") {
		t.Errorf("strict load without fc.bias: got %v, want an error naming it", err)
	}
}

// CompiledRejectsBadInput checks that the compiled Forward panics on an
// image one column short.
func (s *Spec) CompiledRejectsBadInput(t *testing.T) {
	c := s.Compile(s.New())
	defer func() {
		if r := recover(); r == nil {
			t.Errorf("Forward accepted an input of shape [2,3,%d,%d]", s.Image, s.Image-1)
		}
	}()
	c.Forward(fxgentest.RandFloat32(1, 2, 3, s.Image, s.Image-1))
}

// StateDictNames checks the number of state-dict entries and the runs of
// names and types in Names.
func (s *Spec) StateDictNames(t *testing.T) {
	params := nn.NamedParameters(s.New())
	if len(params) != s.Params {
		t.Errorf("got %d parameters and buffers, want %d", len(params), s.Params)
	}
	var names []string
	for _, p := range params {
		names = append(names, p.Name+p.Tensor.Type().String())
	}
	got := strings.Join(names, " ")
	for _, want := range s.Names {
		if !strings.Contains(got, want) {
			t.Errorf("state dict names lack %q", want)
		}
	}
}

// flops returns the FLOPs of the convolutions and the linear layer of one
// forward pass over n images.
func (s *Spec) flops(tb testing.TB, n int) float64 {
	g, err := tracer.Trace(s.New(), tracer.MustParseInputs(s.inputSpec()))
	if err != nil {
		tb.Fatal(err)
	}
	return testutil.GraphFLOPs(g, map[string]int{"N": n})
}

// FLOPs checks the multiply-adds of one image against MACs.
func (s *Spec) FLOPs(t *testing.T) {
	if got := s.flops(t, 1) / 2; got < s.MACs[0] || got > s.MACs[1] {
		t.Errorf("got %.4g MACs per image, want %.4g to %.4g", got, s.MACs[0], s.MACs[1])
	}
}

// BenchmarkForward times eager and compiled Forward for each of
// BenchBatches, reporting GFLOP/s.
func (s *Spec) BenchmarkForward(b *testing.B) {
	m := s.testModel()
	c := s.Compile(m)
	for _, n := range s.BenchBatches {
		x := fxgentest.RandFloat32(1, n, 3, s.Image, s.Image)
		testutil.BenchForward(b, n, s.flops(b, n), func() { m.Forward(x) }, func() { c.Forward(x) })
	}
}
