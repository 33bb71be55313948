// Package runtime holds the numeric kernels that eager tensors, the graph
// interpreter and fxgen's generated code all call: GEMM, convolution,
// pooling, normalization, activations, elementwise ops, reductions and
// index ops over flat slices plus shapes.
//
// The package knows nothing of graphs or tracing. Exported kernels check the
// lengths and shapes of what they are given and panic with a message naming
// the kernel; inner loops do not check.
//
// The hot kernels are Go assembly for amd64, chosen at start-up from the
// CPU's features: the GEMM micro-kernels for AVX-512 and AVX2, and AVX-512
// loops for ReLU, GELU, sigmoid, tanh, softmax, layer normalization and the
// float32 binary ops. Each has a portable Go twin, used on other CPUs and
// architectures and everywhere with the build tag noasm, and is tested
// against it. A product of weights packed by PackB whose left operand is
// mostly zeros (a ReLU's output) skips the zeros' terms, with the bits of
// the full product (at batch 1 on the vector tiers only). The tier (ISA:
// avx512, avx2 or generic) is chosen at start-up; the environment
// variable FXGEN_ISA or SetISA forces a lower one, so one machine can
// test and time every tier.
//
// Large kernels split their work over a fixed pool of worker goroutines
// (SetWorkers; GOMAXPROCS by default). The split never changes a result:
// the same inputs give the same bits for any number of workers. Idle
// workers poll for new work for a short while before they block
// (SetSpinWait).
package runtime
