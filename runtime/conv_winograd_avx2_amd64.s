//go:build amd64 && !noasm

#include "textflag.h"

// The transforms of the Winograd F(2×2, 3×3) convolution on eight channels
// at a time; see conv_winograd.go for their definitions and reference loops.

// WINOROW computes the row transform of one 4×4 input row at register B
// (four vectors of eight channels, 32 bytes apart) into S0..S3:
// (d0−d2, d1+d2, d2−d1, d1−d3).
#define WINOROW(B, S0, S1, S2, S3) \
	VMOVUPS 0(B), S0; \
	VSUBPS  64(B), S0, S0; \
	VMOVUPS 32(B), S1; \
	VADDPS  64(B), S1, S1; \
	VMOVUPS 64(B), S2; \
	VSUBPS  32(B), S2, S2; \
	VMOVUPS 32(B), S3; \
	VSUBPS  96(B), S3, S3

// WINOCOL finishes column j: with S0..S3 its four row results, it stores
// (s0−s2, s1+s2, s2−s1, s1−s3) to planes j, 4+j, 8+j and 12+j, whose
// addresses are P0, P1, P2 and P3. S0 and S3 are overwritten.
#define WINOCOL(S0, S1, S2, S3, P0, P1, P2, P3) \
	VSUBPS  S2, S0, S0; \
	VMOVUPS S0, P0; \
	VSUBPS  S3, S1, S3; \
	VMOVUPS S3, P3; \
	VADDPS  S2, S1, S0; \
	VMOVUPS S0, P1; \
	VSUBPS  S1, S2, S0; \
	VMOVUPS S0, P2

// WINOTILE transforms the tile of eight channels at SI (rows R8 bytes
// apart) into the sixteen planes from DI (R9 bytes apart; DX is 3·R9).
// It uses AX, BX, R11, R12 and Y0..Y15.
#define WINOTILE \
	LEAQ (SI)(R8*1), R11; \
	LEAQ (SI)(R8*2), AX; \
	LEAQ (AX)(R8*1), R12; \
	WINOROW(SI, Y0, Y1, Y2, Y3); \
	WINOROW(R11, Y4, Y5, Y6, Y7); \
	WINOROW(AX, Y8, Y9, Y10, Y11); \
	WINOROW(R12, Y12, Y13, Y14, Y15); \
	LEAQ (DI)(R9*4), BX; \
	LEAQ (DI)(R9*8), R11; \
	LEAQ (R11)(R9*4), R12; \
	WINOCOL(Y0, Y4, Y8, Y12, (DI), (BX), (R11), (R12)); \
	WINOCOL(Y1, Y5, Y9, Y13, (DI)(R9*1), (BX)(R9*1), (R11)(R9*1), (R12)(R9*1)); \
	WINOCOL(Y2, Y6, Y10, Y14, (DI)(R9*2), (BX)(R9*2), (R11)(R9*2), (R12)(R9*2)); \
	WINOCOL(Y3, Y7, Y11, Y15, (DI)(DX*1), (BX)(DX*1), (R11)(DX*1), (R12)(DX*1))

// WINOSUM3 sets D to the sum of the vectors at A, B and C.
#define WINOSUM3(A, B, C, D) \
	VMOVUPS A, D; \
	VADDPS  B, D, D; \
	VADDPS  C, D, D

// WINODIFF3 sets D to A − B − C for the vectors at A, B and C.
#define WINODIFF3(A, B, C, D) \
	VMOVUPS A, D; \
	VSUBPS  B, D, D; \
	VSUBPS  C, D, D

// WINOOUT transforms the tile of eight channels at SI (planes R9 bytes
// apart; DX is 3·R9) into the 2×2 outputs at DI (rows R8 bytes apart),
// with the bias Y14, a ReLU unless relu is 0, and NaN lanes of y − y
// summed into Y13. It uses BX, R11, R12 and Y0..Y12, Y15.
#define WINOOUT(L) \
	LEAQ (SI)(R9*4), BX; \
	LEAQ (SI)(R9*8), R11; \
	LEAQ (R11)(R9*4), R12; \
	WINOSUM3((SI), (BX), (R11), Y0); \
	WINOSUM3((SI)(R9*1), (BX)(R9*1), (R11)(R9*1), Y1); \
	WINOSUM3((SI)(R9*2), (BX)(R9*2), (R11)(R9*2), Y2); \
	WINOSUM3((SI)(DX*1), (BX)(DX*1), (R11)(DX*1), Y3); \
	WINODIFF3((BX), (R11), (R12), Y4); \
	WINODIFF3((BX)(R9*1), (R11)(R9*1), (R12)(R9*1), Y5); \
	WINODIFF3((BX)(R9*2), (R11)(R9*2), (R12)(R9*2), Y6); \
	WINODIFF3((BX)(DX*1), (R11)(DX*1), (R12)(DX*1), Y7); \
	VADDPS Y1, Y0, Y8; \
	VADDPS Y2, Y8, Y8; \
	VSUBPS Y2, Y1, Y9; \
	VSUBPS Y3, Y9, Y9; \
	VADDPS Y5, Y4, Y10; \
	VADDPS Y6, Y10, Y10; \
	VSUBPS Y6, Y5, Y11; \
	VSUBPS Y7, Y11, Y11; \
	VADDPS Y14, Y8, Y8; \
	VADDPS Y14, Y9, Y9; \
	VADDPS Y14, Y10, Y10; \
	VADDPS Y14, Y11, Y11; \
	CMPQ   relu+56(FP), $0; \
	JEQ    L; \
	VXORPS Y15, Y15, Y15; \
	VMAXPS Y8, Y15, Y8; \
	VMAXPS Y9, Y15, Y9; \
	VMAXPS Y10, Y15, Y10; \
	VMAXPS Y11, Y15, Y11; \
L:; \
	VSUBPS  Y8, Y8, Y12; \
	VADDPS  Y12, Y13, Y13; \
	VSUBPS  Y9, Y9, Y12; \
	VADDPS  Y12, Y13, Y13; \
	VSUBPS  Y10, Y10, Y12; \
	VADDPS  Y12, Y13, Y13; \
	VSUBPS  Y11, Y11, Y12; \
	VADDPS  Y12, Y13, Y13; \
	VMOVUPS Y8, (DI); \
	VMOVUPS Y9, 32(DI); \
	VMOVUPS Y10, (DI)(R8*1); \
	VMOVUPS Y11, 32(DI)(R8*1)

// WINOREWIND moves STRIDED back by N blocks of R14 bytes and PACKED by N
// blocks of 32 bytes (eight floats), through R13 and AX: from the last
// block of a pair of tiles to the first.
#define WINOREWIND(N, STRIDED, PACKED) \
	MOVQ  N, R13; \
	MOVQ  R13, AX; \
	IMULQ R14, AX; \
	SUBQ  AX, STRIDED; \
	SHLQ  $5, R13; \
	SUBQ  R13, PACKED

// func winoInputAVX2(xb *float32, rowStride int, v *float32, tileStride, planeStride, tiles, blocks, blockStride int)
//
// For tiles t < tiles and blocks c < blocks ≥ 1, with d[i][j] the eight
// floats at xb + c·blockStride + t·64 + i·rowStride + j·32 bytes, stores
// the sixteen vectors (Bᵀ d B)[a][b] at v + c·32 + t·tileStride +
// (4a+b)·planeStride bytes: two tiles at a time through every block, so
// that the lines of V a pair of tiles fills are whole while in L1.
TEXT ·winoInputAVX2(SB), NOSPLIT, $0-64
	MOVQ xb+0(FP), SI
	MOVQ rowStride+8(FP), R8
	MOVQ v+16(FP), DI
	MOVQ tileStride+24(FP), R10
	MOVQ planeStride+32(FP), R9
	MOVQ tiles+40(FP), CX
	MOVQ blockStride+56(FP), R14
	LEAQ (R9)(R9*2), DX // 3 planes
	TESTQ CX, CX
	JLE  indone

inpair:
	MOVQ blocks+48(FP), R13

inblock:
	WINOTILE
	CMPQ CX, $1
	JEQ  innext
	ADDQ $64, SI
	ADDQ R10, DI
	WINOTILE
	SUBQ $64, SI
	SUBQ R10, DI

innext:
	ADDQ R14, SI
	ADDQ $32, DI
	DECQ R13
	JNZ  inblock

	// Back to the first block, two tiles on.
	WINOREWIND(blocks+48(FP), SI, DI)
	ADDQ  $128, SI
	LEAQ  (DI)(R10*2), DI
	SUBQ  $2, CX
	JG    inpair

indone:
	VZEROUPPER
	RET

// func winoOutputAVX2(m *float32, planeStride, tileStride int, ob *float32, rowStride, tiles int, bias *float32, relu, blocks, blockStride int) (nonFinite int)
//
// For tiles t < tiles and blocks c < blocks ≥ 1, with m[a][b] the eight
// floats at m + c·32 + t·tileStride + (4a+b)·planeStride bytes, stores
// y = Aᵀ m A + bias (eight floats at bias + c·32), then max(0, ·) keeping
// NaN when relu ≠ 0, as y[i][j] at ob + c·blockStride + t·64 +
// i·rowStride + j·32 bytes: two tiles at a time through every block, so
// that the lines of M a pair of tiles reads are whole while in L1.
// nonFinite is not 0 when some stored value is an infinity or NaN.
TEXT ·winoOutputAVX2(SB), NOSPLIT, $0-88
	MOVQ m+0(FP), SI
	MOVQ planeStride+8(FP), R9
	MOVQ tileStride+16(FP), R10
	MOVQ ob+24(FP), DI
	MOVQ rowStride+32(FP), R8
	MOVQ tiles+40(FP), CX
	MOVQ blockStride+72(FP), R14
	VXORPS Y13, Y13, Y13 // stays 0 unless some y − y is NaN
	LEAQ (R9)(R9*2), DX
	TESTQ CX, CX
	JLE  outdone

outpair:
	MOVQ bias+48(FP), AX
	MOVQ blocks+64(FP), R13

outblock:
	VMOVUPS (AX), Y14
	WINOOUT(outfirst)
	CMPQ CX, $1
	JEQ  outnext
	ADDQ R10, SI
	ADDQ $64, DI
	WINOOUT(outsecond)
	SUBQ R10, SI
	SUBQ $64, DI

outnext:
	ADDQ $32, SI
	ADDQ R14, DI
	ADDQ $32, AX
	DECQ R13
	JNZ  outblock

	// Back to the first block, two tiles on.
	WINOREWIND(blocks+64(FP), DI, SI)
	LEAQ  (SI)(R10*2), SI
	ADDQ  $128, DI
	SUBQ  $2, CX
	JG    outpair

outdone:
	VCMPPS    $3, Y13, Y13, Y13 // unordered: NaN
	VMOVMSKPS Y13, AX
	MOVQ      AX, nonFinite+80(FP)
	VZEROUPPER
	RET
