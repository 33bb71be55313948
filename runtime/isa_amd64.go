// Kernel tier selection for amd64 with assembly.

//go:build amd64 && !noasm

package runtime

// cpuHasAVX2FMA and cpuHasAVX512 are what the CPU supports; hasAVX2FMA
// and hasAVX512 what the selected tier lets the kernels use.
var cpuHasAVX2FMA, cpuHasAVX512 = cpuFeatures()

var (
	hasAVX2FMA bool
	hasAVX512  bool
	// hasPackRows32 reports whether packB can use the AVX-512 packRows32.
	hasPackRows32 bool
	// hasPackRows16 reports whether packB can use the AVX2 packRows16.
	hasPackRows16 bool
)

// cpuISA is the best tier the CPU can run.
var cpuISA = func() ISA {
	switch {
	case cpuHasAVX512:
		return ISAAVX512
	case cpuHasAVX2FMA:
		return ISAAVX2
	}
	return ISAGeneric
}()

// applyISA switches every kernel family to tier isa.
func applyISA(isa ISA) {
	hasAVX2FMA = isa >= ISAAVX2
	hasAVX512 = isa >= ISAAVX512
	hasPackRows32 = hasAVX512
	hasPackRows16 = hasAVX2FMA
	selectedKernel = bestKernel()
	vec = bestVec()
}
