// Kernel tier selection without assembly (noasm tag or non-amd64).

//go:build !amd64 || noasm

package runtime

// cpuISA is the best tier this build can run: the portable Go kernels.
const cpuISA = ISAGeneric

// applyISA switches every kernel family to tier isa; this build has one.
func applyISA(ISA) { selectedKernel = bestKernel() }
