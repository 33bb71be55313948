// AVX2+FMA activation kernels: the tanh GELU, the row maximum and ReLU
// of float32 arrays (the exact GELU, sigmoid, SiLU, tanh and softmax's
// shifted exp and sum are in activation_f32_avx2_amd64.s). The smooth
// functions here are computed in float64 four lanes at a time with the
// formulas of the AVX-512 kernels (activation_amd64.s): e^x as 2^n·e^r
// with a degree-10 Taylor polynomial for e^r. AVX2 has no VSCALEFPD, so
// 2^n is built in the exponent field, in two factors so that both stay
// normal numbers. The last n%4 (or n%8) elements go
// through the same code under a VMASKMOVPS mask.

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_avx2_amd64.h"

// Each constant fills 32 bytes (four float64 lanes), so that it can be a
// memory operand of a 256-bit instruction.
#define C4(off, v) DATA avx2Const<>+(off)(SB)/8, v; DATA avx2Const<>+(off+8)(SB)/8, v; DATA avx2Const<>+(off+16)(SB)/8, v; DATA avx2Const<>+(off+24)(SB)/8, v

#define cHALF 0
#define cONE 32
#define cTWO 64
#define cABS 96
#define cEXPMIN 128
#define cEXPMAX 160
#define cLOG2E 192
#define cLN2HI 224
#define cLN2LO 256
#define cF2 288
#define cF3 320
#define cF4 352
#define cF5 384
#define cF6 416
#define cF7 448
#define cF8 480
#define cF9 512
#define cF10 544
#define cSIGN 576
#define cEXPBIAS 608
#define cGT1 640
#define cGT2 672

C4(cHALF, $0x3fe0000000000000)      // 0.5
C4(cONE, $0x3ff0000000000000)       // 1
C4(cTWO, $0x4000000000000000)       // 2
C4(cABS, $0x7fffffffffffffff)       // abs mask
C4(cEXPMIN, $0xc087500000000000)    // exp argument min, -746
C4(cEXPMAX, $0x4086300000000000)    // exp argument max, 710
C4(cLOG2E, $0x3ff71547652b82fe)     // log2 e
C4(cLN2HI, $0x3fe62e42fee00000)     // ln 2, high part
C4(cLN2LO, $0x3dea39ef35793c76)     // ln 2, low part
C4(cF2, $0x3fe0000000000000)        // 1/2!
C4(cF3, $0x3fc5555555555555)        // 1/3!
C4(cF4, $0x3fa5555555555555)        // 1/4!
C4(cF5, $0x3f81111111111111)        // 1/5!
C4(cF6, $0x3f56c16c16c16c17)        // 1/6!
C4(cF7, $0x3f2a01a01a01a01a)        // 1/7!
C4(cF8, $0x3efa01a01a01a01a)        // 1/8!
C4(cF9, $0x3ec71de3a556c734)        // 1/9!
C4(cF10, $0x3e927e4fb7789f5c)       // 1/10!
C4(cSIGN, $0x8000000000000000)      // sign mask
C4(cEXPBIAS, $0x43380000000003ff)   // 1.5·2^52 + 1023
C4(cGT1, $0x3fa6e4e26d4801f7)       // GELU tanh: 0.044715
C4(cGT2, $0x3ff9884533d43651)       // GELU tanh: 2·√(2/π)
GLOBL avx2Const<>(SB), RODATA|NOPTR, $704

// EXP4 sets A = e^A in four float64 lanes (NaN stays NaN; below -746 it
// is 0, above 710 +Inf) using N, R and T as scratch; R8 points at
// avx2Const, Y14 and Y15 hold the clamp bounds -746 and 710 (VMAXPD and
// VMINPD return their second source when a lane is NaN, so NaN passes).
// With k = round(A·log2 e) and r = A - k·ln 2, e^A = e^r · 2^k1 · 2^k2
// where k1 = floor(k/2) and k2 = k - k1: adding 1.5·2^52 + 1023 to an
// integer-valued k1 leaves k1 + 1023 in the low mantissa bits, and a left
// shift by 52 moves it into the exponent field.
#define EXP4(A, N, R, T) \
	VMAXPD A, Y14, A; \
	VMINPD A, Y15, A; \
	VMULPD cLOG2E(R8), A, N; \
	VROUNDPD $8, N, N; \
	VMOVAPD A, R; \
	VFNMADD231PD cLN2HI(R8), N, R; \
	VFNMADD231PD cLN2LO(R8), N, R; \
	VMOVUPD cF10(R8), A; \
	VFMADD213PD cF9(R8), R, A; \
	VFMADD213PD cF8(R8), R, A; \
	VFMADD213PD cF7(R8), R, A; \
	VFMADD213PD cF6(R8), R, A; \
	VFMADD213PD cF5(R8), R, A; \
	VFMADD213PD cF4(R8), R, A; \
	VFMADD213PD cF3(R8), R, A; \
	VFMADD213PD cF2(R8), R, A; \
	VFMADD213PD cONE(R8), R, A; \
	VFMADD213PD cONE(R8), R, A; \
	VMULPD cHALF(R8), N, T; \
	VROUNDPD $9, T, T; \
	VSUBPD T, N, N; \
	VADDPD cEXPBIAS(R8), T, T; \
	VPSLLQ $52, T, T; \
	VMULPD T, A, A; \
	VADDPD cEXPBIAS(R8), N, N; \
	VPSLLQ $52, N, N; \
	VMULPD N, A, A

// SIGMOID4 sets Y0 = 1/(1+e^-x) for x in Y0.
#define SIGMOID4 \
	VXORPD cSIGN(R8), Y0, Y0; \
	EXP4(Y0, Y1, Y2, Y3); \
	VADDPD cONE(R8), Y0, Y0; \
	VMOVUPD cONE(R8), Y1; \
	VDIVPD Y0, Y1, Y0

// GELUTANH4 sets Y0 to the tanh approximation of GELU for x in Y0, as
// x·sigmoid(2u) with u = √(2/π)·x·(1+0.044715x²) (see GELUTANH8).
#define GELUTANH4 \
	VMOVAPD Y0, Y12; \
	VMULPD Y0, Y0, Y1; \
	VMULPD cGT1(R8), Y1, Y1; \
	VADDPD cONE(R8), Y1, Y1; \
	VMULPD Y12, Y1, Y1; \
	VMULPD cGT2(R8), Y1, Y0; \
	SIGMOID4; \
	VMULPD Y12, Y0, Y0

// ACTLOOP4 runs BODY over n float32s: four at a time, then the rest under
// the mask X13.
#define ACTLOOP4(BODY) \
	MOVQ out+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	LEAQ avx2Const<>(SB), R8; \
	VMOVUPD cEXPMIN(R8), Y14; \
	VMOVUPD cEXPMAX(R8), Y15; \
loop: \
	CMPQ CX, $4; \
	JL tail; \
	VCVTPS2PD (SI), Y0; \
	BODY; \
	VCVTPD2PSY Y0, X0; \
	VMOVUPS X0, (DI); \
	ADDQ $16, SI; \
	ADDQ $16, DI; \
	SUBQ $4, CX; \
	JMP loop; \
tail: \
	TESTQ CX, CX; \
	JEQ done; \
	TAILMASK8(Y13); \
	VMASKMOVPS (SI), X13, X0; \
	VCVTPS2PD X0, Y0; \
	BODY; \
	VCVTPD2PSY Y0, X0; \
	VMASKMOVPS X0, X13, (DI); \
done: \
	VZEROUPPER; \
	RET

// func geluTanhAVX2(out, x *float32, n int)
TEXT ·geluTanhAVX2(SB), NOSPLIT, $0-24
	ACTLOOP4(GELUTANH4)

DATA avx2NegInf32<>+0(SB)/4, $0xff800000
GLOBL avx2NegInf32<>(SB), RODATA|NOPTR, $4

// func maxAVX2(x *float32, n int) (m float32, nan bool)
TEXT ·maxAVX2(SB), NOSPLIT, $0-21
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS avx2NegInf32<>(SB), Y0
	VMOVAPS Y0, Y3
	VXORPS Y4, Y4, Y4

maxloop:
	CMPQ CX, $8
	JL   maxtail
	VMOVUPS (SI), Y1
	VMAXPS Y1, Y0, Y0
	VCMPPS $3, Y1, Y1, Y2
	VORPS Y2, Y4, Y4
	ADDQ $32, SI
	SUBQ $8, CX
	JMP  maxloop

maxtail:
	TESTQ CX, CX
	JEQ   maxreduce
	TAILMASK8(Y13)
	VMASKMOVPS (SI), Y13, Y1
	VBLENDVPS Y13, Y1, Y3, Y1
	VMAXPS Y1, Y0, Y0
	VCMPPS $3, Y1, Y1, Y2
	VORPS Y2, Y4, Y4

maxreduce:
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VMAXPS X1, X0, X0
	MOVSS X0, m+16(FP)
	VMOVMSKPS Y4, AX
	TESTL AX, AX
	SETNE nan+20(FP)
	VZEROUPPER
	RET

// func reluAVX2(out, x *float32, n int)
// VMAXPS returns its second source when either is NaN, so x's NaNs and -0
// pass through, as in the portable loop.
TEXT ·reluAVX2(SB), NOSPLIT, $0-24
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VXORPS Y1, Y1, Y1

reluloop:
	CMPQ CX, $16
	JL   relutail8
	VMOVUPS (SI), Y2
	VMOVUPS 32(SI), Y3
	VMAXPS Y2, Y1, Y2
	VMAXPS Y3, Y1, Y3
	VMOVUPS Y2, (DI)
	VMOVUPS Y3, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $16, CX
	JMP  reluloop

relutail8:
	CMPQ CX, $8
	JL   relutail
	VMOVUPS (SI), Y2
	VMAXPS Y2, Y1, Y2
	VMOVUPS Y2, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX

relutail:
	TESTQ CX, CX
	JEQ   reludone
	TAILMASK8(Y13)
	VMASKMOVPS (SI), Y13, Y2
	VMAXPS Y2, Y1, Y2
	VMASKMOVPS Y2, Y13, (DI)

reludone:
	VZEROUPPER
	RET
