// AVX2 transposes for packing a transposed GEMM operand: one 8×8 or 6×8
// float32 block, scaled (6 is the row count of the AVX2 GEMM tile), and a
// whole 16-column panel of B.

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

// TRANSPOSE8 transposes the 8×8 block of rows Y0-Y7 into columns Y8-Y15
// (column q in Y8+q); Y0-Y7 are scratch.
#define TRANSPOSE8 \
	VUNPCKLPS Y1, Y0, Y8; \
	VUNPCKHPS Y1, Y0, Y9; \
	VUNPCKLPS Y3, Y2, Y10; \
	VUNPCKHPS Y3, Y2, Y11; \
	VUNPCKLPS Y5, Y4, Y12; \
	VUNPCKHPS Y5, Y4, Y13; \
	VUNPCKLPS Y7, Y6, Y14; \
	VUNPCKHPS Y7, Y6, Y15; \
	VSHUFPS $0x44, Y10, Y8, Y0; \
	VSHUFPS $0xee, Y10, Y8, Y1; \
	VSHUFPS $0x44, Y11, Y9, Y2; \
	VSHUFPS $0xee, Y11, Y9, Y3; \
	VSHUFPS $0x44, Y14, Y12, Y4; \
	VSHUFPS $0xee, Y14, Y12, Y5; \
	VSHUFPS $0x44, Y15, Y13, Y6; \
	VSHUFPS $0xee, Y15, Y13, Y7; \
	VPERM2F128 $0x20, Y4, Y0, Y8; \
	VPERM2F128 $0x20, Y5, Y1, Y9; \
	VPERM2F128 $0x20, Y6, Y2, Y10; \
	VPERM2F128 $0x20, Y7, Y3, Y11; \
	VPERM2F128 $0x31, Y4, Y0, Y12; \
	VPERM2F128 $0x31, Y5, Y1, Y13; \
	VPERM2F128 $0x31, Y6, Y2, Y14; \
	VPERM2F128 $0x31, Y7, Y3, Y15

// LOAD8(B0, B4) loads rows B0, B0+ld, B0+2ld, B0+3ld, B4, ... B4+3ld (SI is
// ld in bytes, R8 3·ld) into Y0-Y7.
#define LOAD8(B0, B4) \
	VMOVUPS (B0), Y0; \
	VMOVUPS (B0)(SI*1), Y1; \
	VMOVUPS (B0)(SI*2), Y2; \
	VMOVUPS (B0)(R8*1), Y3; \
	VMOVUPS (B4), Y4; \
	VMOVUPS (B4)(SI*1), Y5; \
	VMOVUPS (B4)(SI*2), Y6; \
	VMOVUPS (B4)(R8*1), Y7

// STORE8(OFF) stores columns Y8-Y15 at DI+OFF, DI+OFF+64, ... DI+OFF+448.
#define STORE8(OFF) \
	VMOVUPS Y8, OFF(DI); \
	VMOVUPS Y9, OFF+64(DI); \
	VMOVUPS Y10, OFF+128(DI); \
	VMOVUPS Y11, OFF+192(DI); \
	VMOVUPS Y12, OFF+256(DI); \
	VMOVUPS Y13, OFF+320(DI); \
	VMOVUPS Y14, OFF+384(DI); \
	VMOVUPS Y15, OFF+448(DI)

// func transposePanel16AVX2(src *float32, ld int, dst *float32, k8 int)
// dst[q*16+i] = src[i*ld+q] for i < 16 and q < k8, a multiple of 8 (> 0):
// one 16-column panel of a transposed GEMM operand, 8 columns of src at a
// time.
TEXT ·transposePanel16AVX2(SB), NOSPLIT, $0-32
	MOVQ src+0(FP), AX
	MOVQ ld+8(FP), SI
	SHLQ $2, SI
	MOVQ dst+16(FP), DI
	MOVQ k8+24(FP), CX
	LEAQ (SI)(SI*2), R8  // 3·ld
	LEAQ (AX)(SI*4), R10 // row 4
	LEAQ (AX)(SI*8), R11 // row 8
	LEAQ (R10)(SI*8), R12 // row 12

panel16:
	LOAD8(AX, R10)
	TRANSPOSE8
	STORE8(0)
	LOAD8(R11, R12)
	TRANSPOSE8
	STORE8(32)
	ADDQ $32, AX
	ADDQ $32, R10
	ADDQ $32, R11
	ADDQ $32, R12
	ADDQ $512, DI
	SUBQ $8, CX
	JNE  panel16
	VZEROUPPER
	RET
