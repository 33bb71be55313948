// GEMM kernel selection without assembly (noasm tag or non-amd64).

//go:build !amd64 || noasm

package runtime

// bestKernel returns the micro-kernel used by Sgemm on this build.
func bestKernel() *gemmKernel { return genericKernel }

// availableKernels lists every micro-kernel this build and CPU can run.
func availableKernels() []*gemmKernel { return []*gemmKernel{genericKernel} }

// packTranspose sets dst[q*dstStride+i] = alpha·src[i*ld+q] for i < rows
// and q < cols.
func packTranspose(dst []float32, dstStride int, src []float32, ld, rows, cols int, alpha float32) {
	packTransposeGo(dst, dstStride, src, ld, rows, cols, alpha)
}

// hasPackRows32 reports whether packB can use an assembly packRows32; this
// build has none.
const hasPackRows32 = false

// packRows32 is never called in this build (hasPackRows32 is false).
func packRows32(dst, src *float32, ldb, kb, full, tail int) { panic("unreachable") }

// hasPackRows16 is hasPackRows32 for packRows16.
const hasPackRows16 = false

// packRows16 is never called in this build (hasPackRows16 is false).
func packRows16(dst, src *float32, ldb, kb, full, tail int) { panic("unreachable") }

// packPanel16T packs a 16-column panel of a transposed operand with
// assembly where there is some; this build has none.
func packPanel16T(dst, src []float32, ld, k int) bool { return false }
