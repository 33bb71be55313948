// CPU feature detection for the amd64 GEMM kernels.

//go:build amd64 && !noasm

package runtime

// cpuid executes CPUID with the given EAX and ECX inputs.
//
//go:noescape
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv reads extended control register 0 (the OS-enabled state bits).
//
//go:noescape
func xgetbv() (eax, edx uint32)

// cpuFeatures reports whether the CPU and OS support AVX2 with FMA and
// AVX-512F (with the ZMM and opmask state enabled by the OS).
func cpuFeatures() (avx2fma, avx512 bool) {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false, false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		fmaBit     = 1 << 12
		osxsaveBit = 1 << 27
		avxBit     = 1 << 28
	)
	if ecx1&osxsaveBit == 0 || ecx1&avxBit == 0 {
		return false, false
	}
	xcr0, _ := xgetbv()
	if xcr0&0x6 != 0x6 { // XMM and YMM state
		return false, false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	avx2fma = ebx7&(1<<5) != 0 && ecx1&fmaBit != 0
	avx512 = avx2fma && ebx7&(1<<16) != 0 && xcr0&0xe0 == 0xe0 // opmask, ZMM0-15 high, ZMM16-31
	return avx2fma, avx512
}
