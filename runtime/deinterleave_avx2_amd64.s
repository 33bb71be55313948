// AVX2 deinterleaving of a float32 row into its even and odd elements,
// the stride-2 phases of the direct convolution's padded image.

//go:build amd64 && !noasm

#include "textflag.h"

// func deinterleave2AVX2(a, b, src *float32, n, rows, dstStride, srcStride int)
// For rows r < rows, with src, a and b advanced by r·srcStride and
// r·dstStride bytes: a[i] = src[2i] and b[i] = src[2i+1] for i < n, n a
// multiple of 8.
TEXT ·deinterleave2AVX2(SB), NOSPLIT, $0-56
	MOVQ  a+0(FP), DI
	MOVQ  b+8(FP), R8
	MOVQ  src+16(FP), SI
	MOVQ  n+24(FP), DX
	SHRQ  $3, DX
	JEQ   done
	MOVQ  rows+32(FP), R11
	TESTQ R11, R11
	JLE   done
	MOVQ  dstStride+40(FP), R9
	MOVQ  srcStride+48(FP), R10

row:
	MOVQ DX, CX
	XORQ AX, AX // src bytes into the row
	XORQ BX, BX // a and b bytes into the row

loop:
	VMOVUPS (SI)(AX*1), Y0
	VMOVUPS 32(SI)(AX*1), Y1
	VSHUFPS $0x88, Y1, Y0, Y2 // per 128-bit lane: even elements of Y0, then of Y1
	VSHUFPS $0xDD, Y1, Y0, Y3 // odd elements
	VPERMPD $0xD8, Y2, Y2     // 64-bit units 0, 2, 1, 3: the lanes in order
	VPERMPD $0xD8, Y3, Y3
	VMOVUPS Y2, (DI)(BX*1)
	VMOVUPS Y3, (R8)(BX*1)
	ADDQ    $64, AX
	ADDQ    $32, BX
	DECQ    CX
	JNE     loop
	ADDQ    R10, SI
	ADDQ    R9, DI
	ADDQ    R9, R8
	DECQ    R11
	JNE     row

done:
	VZEROUPPER
	RET
