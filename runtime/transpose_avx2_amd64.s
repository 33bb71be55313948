// AVX2 transpose of one 8×8 or 6×8 float32 block, scaled, for packing a
// transposed GEMM operand (6 is the row count of the AVX2 GEMM tile).

//go:build amd64 && !noasm

#include "textflag.h"

// func transpose8AVX2(src *float32, ld int, dst *float32, dstStride, rows int, alpha float32)
// dst[q*dstStride+i] = alpha·src[i*ld+q] for i < rows and q < 8; rows is 6
// or 8.
TEXT ·transpose8AVX2(SB), NOSPLIT, $0-44
	MOVQ src+0(FP), AX
	MOVQ ld+8(FP), SI
	SHLQ $2, SI
	MOVQ dst+16(FP), DI
	MOVQ dstStride+24(FP), DX
	SHLQ $2, DX
	MOVQ rows+32(FP), R9
	VBROADCASTSS alpha+40(FP), Y15
	LEAQ (SI)(SI*2), R8 // 3·ld

	VMULPS (AX), Y15, Y0
	VMULPS (AX)(SI*1), Y15, Y1
	VMULPS (AX)(SI*2), Y15, Y2
	VMULPS (AX)(R8*1), Y15, Y3
	LEAQ (AX)(SI*4), AX
	VMULPS (AX), Y15, Y4
	VMULPS (AX)(SI*1), Y15, Y5
	CMPQ R9, $8
	JNE  zero67
	VMULPS (AX)(SI*2), Y15, Y6
	VMULPS (AX)(R8*1), Y15, Y7
	JMP  rows

zero67:
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

rows:

	// Pairs of rows interleaved, within each 128-bit half.
	VUNPCKLPS Y1, Y0, Y8
	VUNPCKHPS Y1, Y0, Y9
	VUNPCKLPS Y3, Y2, Y10
	VUNPCKHPS Y3, Y2, Y11
	VUNPCKLPS Y5, Y4, Y12
	VUNPCKHPS Y5, Y4, Y13
	VUNPCKLPS Y7, Y6, Y14
	VUNPCKHPS Y7, Y6, Y15

	// Four rows of one column per 128-bit half: columns 0|4, 1|5, 2|6,
	// 3|7 of rows 0-3 (Y0-Y3) and rows 4-7 (Y4-Y7).
	VSHUFPS $0x44, Y10, Y8, Y0
	VSHUFPS $0xee, Y10, Y8, Y1
	VSHUFPS $0x44, Y11, Y9, Y2
	VSHUFPS $0xee, Y11, Y9, Y3
	VSHUFPS $0x44, Y14, Y12, Y4
	VSHUFPS $0xee, Y14, Y12, Y5
	VSHUFPS $0x44, Y15, Y13, Y6
	VSHUFPS $0xee, Y15, Y13, Y7

	// Whole columns: low halves give columns 0-3, high halves 4-7.
	LEAQ (DX)(DX*2), R8
	VPERM2F128 $0x20, Y4, Y0, Y8
	VPERM2F128 $0x20, Y5, Y1, Y9
	VPERM2F128 $0x20, Y6, Y2, Y10
	VPERM2F128 $0x20, Y7, Y3, Y11
	VPERM2F128 $0x31, Y4, Y0, Y12
	VPERM2F128 $0x31, Y5, Y1, Y13
	VPERM2F128 $0x31, Y6, Y2, Y14
	VPERM2F128 $0x31, Y7, Y3, Y15
	LEAQ (DI)(DX*4), R10
	CMPQ R9, $8
	JNE  store6
	VMOVUPS Y8, (DI)
	VMOVUPS Y9, (DI)(DX*1)
	VMOVUPS Y10, (DI)(DX*2)
	VMOVUPS Y11, (DI)(R8*1)
	VMOVUPS Y12, (R10)
	VMOVUPS Y13, (R10)(DX*1)
	VMOVUPS Y14, (R10)(DX*2)
	VMOVUPS Y15, (R10)(R8*1)
	VZEROUPPER
	RET

// STORE6(Y, X, B, IB) stores the low six floats of Y (whose low half is
// X) at address B and the next two at IB, B's address plus 16; X0 is
// scratch.
#define STORE6(Y, X, B, IB) \
	VMOVUPS X, B; \
	VEXTRACTF128 $1, Y, X0; \
	VMOVSD X0, IB

store6:
	STORE6(Y8, X8, (DI), 16(DI))
	STORE6(Y9, X9, (DI)(DX*1), 16(DI)(DX*1))
	STORE6(Y10, X10, (DI)(DX*2), 16(DI)(DX*2))
	STORE6(Y11, X11, (DI)(R8*1), 16(DI)(R8*1))
	STORE6(Y12, X12, (R10), 16(R10))
	STORE6(Y13, X13, (R10)(DX*1), 16(R10)(DX*1))
	STORE6(Y14, X14, (R10)(DX*2), 16(R10)(DX*2))
	STORE6(Y15, X15, (R10)(R8*1), 16(R10)(R8*1))
	VZEROUPPER
	RET
