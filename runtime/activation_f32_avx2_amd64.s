// AVX2+FMA activation kernels computed in float32, eight lanes at a time:
// sigmoid, SiLU and tanh. Each is built on one exponential, e^a for
// a = -|x| (or -2|x|) in (-∞, 0], so nothing overflows: a is clamped to
// [-112, 88.8], split as n·ln2 + r with n = round(a·log2 e) (ln 2 in two
// parts, the first rounded to float32, applied with FMA), e^r =
// 1 + r + r²·Q(r) with Q of degree 5 (a least-squares fit whose relative
// error is 1.7e-9 on |r| ≤ ln2/2), and 2^n made in the exponent field in
// two factors, so that a subnormal result is rounded once. NaN passes
// through every step. The results are within 2 float32 units in the last
// place of the float64 portable loops (activation_vec_test.go measures
// it).

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_avx2_amd64.h"

// Each constant fills 32 bytes (eight float32 lanes), so that it can be a
// memory operand of a 256-bit instruction.
#define C8(off, v) DATA f32Const<>+(off)(SB)/4, v; DATA f32Const<>+(off+4)(SB)/4, v; DATA f32Const<>+(off+8)(SB)/4, v; DATA f32Const<>+(off+12)(SB)/4, v; DATA f32Const<>+(off+16)(SB)/4, v; DATA f32Const<>+(off+20)(SB)/4, v; DATA f32Const<>+(off+24)(SB)/4, v; DATA f32Const<>+(off+28)(SB)/4, v

#define fONE 0
#define fSIGN 32
#define fABS 64
#define fEXPLO 96
#define fEXPHI 128
#define fLOG2E 160
#define fLN2HI 192
#define fLN2LO 224
#define fQ0 256
#define fQ1 288
#define fQ2 320
#define fQ3 352
#define fQ4 384
#define fQ5 416
#define fBIAS 448
#define fTSMALL 480
#define fT0 512
#define fT1 544
#define fT2 576
#define fT3 608
#define fT4 640

C8(fONE, $0x3f800000)    // 1
C8(fSIGN, $0x80000000)   // sign bit
C8(fABS, $0x7fffffff)    // all but the sign bit
C8(fEXPLO, $0xc2e00000)  // -112: e^a and x·e^a round to 0 below
C8(fEXPHI, $0x42b1999a)  // 88.8: e^a overflows above 88.73
C8(fLOG2E, $0x3fb8aa3b)  // log2 e
C8(fLN2HI, $0x3f317218)  // ln 2 rounded to float32
C8(fLN2LO, $0xb102e308)  // ln 2 - fLN2HI
C8(fQ0, $0x3f000000)     // Q(r) = 0.5 + 0.16666666r + ...
C8(fQ1, $0x3e2aaaaa)
C8(fQ2, $0x3d2aaa26)
C8(fQ3, $0x3c0888d9)
C8(fQ4, $0x3ab6de19)
C8(fQ5, $0x39501740)
C8(fBIAS, $0x0000007f)   // the float32 exponent bias, 127
C8(fTSMALL, $0x3f200000) // 0.625: tanh's polynomial below
C8(fT0, $0xbeaaaaa3)     // tanh x = x + x³·T(x²), T(z) = -0.33333310 + ...
C8(fT1, $0x3e088597)
C8(fT2, $0xbd5c5f67)
C8(fT3, $0x3caab3f3)
C8(fT4, $0xbbc21844)
GLOBL f32Const<>(SB), RODATA|NOPTR, $672

// EXPF8PART sets A = e^A/2^m and N = 2^m on eight float32 lanes, m half
// of the binary exponent, so that A·N rounds once even when it is
// subnormal; R and T are scratch; Y14 and Y15 hold fEXPLO and fEXPHI, R9
// the constant table. VMAXPS and VMINPS return their second Intel source
// (A) when either is NaN.
#define EXPF8PART(A, N, R, T) \
	VMAXPS A, Y14, A; \
	VMINPS A, Y15, A; \
	VMULPS fLOG2E(R9), A, N; \
	VROUNDPS $8, N, N; \
	VMOVAPS A, R; \
	VFNMADD231PS fLN2HI(R9), N, R; \
	VFNMADD231PS fLN2LO(R9), N, R; \
	VMOVUPS fQ5(R9), A; \
	VFMADD213PS fQ4(R9), R, A; \
	VFMADD213PS fQ3(R9), R, A; \
	VFMADD213PS fQ2(R9), R, A; \
	VFMADD213PS fQ1(R9), R, A; \
	VFMADD213PS fQ0(R9), R, A; \
	VMULPS R, R, T; \
	VFMADD213PS R, T, A; \
	VADDPS fONE(R9), A, A; \
	VCVTPS2DQ N, N; \
	VPSRAD $1, N, T; \
	VPSUBD T, N, N; \
	VPADDD fBIAS(R9), T, T; \
	VPSLLD $23, T, T; \
	VMULPS T, A, A; \
	VPADDD fBIAS(R9), N, N; \
	VPSLLD $23, N, N

// EXPF8 sets A = e^A as EXPF8PART.
#define EXPF8(A, N, R, T) \
	EXPF8PART(A, N, R, T); \
	VMULPS N, A, A

// SIGMOIDNUM8 sets Y2 = 1 + e^{-|x|} and Y3 = the numerator of sigmoid(x)
// over it (1 where x ≥ 0, e^{-|x|} where x < 0) for x in Y0, which it
// keeps; Y1, Y4 are scratch.
#define SIGMOIDNUM8 \
	VORPS fSIGN(R9), Y0, Y1; \
	EXPF8(Y1, Y2, Y3, Y4); \
	VADDPS fONE(R9), Y1, Y2; \
	VMOVUPS fONE(R9), Y3; \
	VBLENDVPS Y0, Y1, Y3, Y3

// SIGMOIDF8 sets Y0 = sigmoid(x) for x in Y0 with one rounded division.
#define SIGMOIDF8 \
	SIGMOIDNUM8; \
	VDIVPS Y2, Y3, Y0

// SILUF8 sets Y0 = x·sigmoid(x) for x in Y0: x/(1+e) where x ≥ 0, else
// x·e/(1+e), e = e^{-|x|}, with x·e rounded once even when subnormal and
// 0·x (NaN at -∞, as x·sigmoid(x) is) below fEXPLO, where e was clamped.
#define SILUF8 \
	VORPS fSIGN(R9), Y0, Y1; \
	EXPF8PART(Y1, Y2, Y3, Y4); \
	VCMPPS $13, Y14, Y0, Y4; \
	VANDPS Y4, Y1, Y3; \
	VMULPS Y0, Y3, Y3; \
	VMULPS Y2, Y3, Y3; \
	VMULPS Y2, Y1, Y1; \
	VADDPS fONE(R9), Y1, Y2; \
	VBLENDVPS Y0, Y3, Y0, Y3; \
	VDIVPS Y2, Y3, Y0

// TANHF8 sets Y0 = tanh(x) for x in Y0: (1-e)/(1+e) with e = e^{-2|x|} and
// the sign of x where |x| ≥ 0.625, else x + x³·T(x²) (T of degree 4, a
// least-squares fit with relative error 1.3e-8).
#define TANHF8 \
	VANDPS fABS(R9), Y0, Y1; \
	VADDPS Y1, Y1, Y2; \
	VORPS fSIGN(R9), Y2, Y2; \
	EXPF8(Y2, Y3, Y4, Y5); \
	VMOVUPS fONE(R9), Y3; \
	VSUBPS Y2, Y3, Y4; \
	VADDPS Y2, Y3, Y3; \
	VDIVPS Y3, Y4, Y4; \
	VANDPS fSIGN(R9), Y0, Y5; \
	VORPS Y5, Y4, Y4; \
	VMULPS Y0, Y0, Y5; \
	VMOVUPS fT4(R9), Y6; \
	VFMADD213PS fT3(R9), Y5, Y6; \
	VFMADD213PS fT2(R9), Y5, Y6; \
	VFMADD213PS fT1(R9), Y5, Y6; \
	VFMADD213PS fT0(R9), Y5, Y6; \
	VMULPS Y5, Y0, Y5; \
	VFMADD213PS Y0, Y5, Y6; \
	VCMPPS $1, fTSMALL(R9), Y1, Y7; \
	VBLENDVPS Y7, Y6, Y4, Y0

// ACTLOOP8 runs BODY over n float32s in Y0: eight at a time, then the rest
// under the mask Y13.
#define ACTLOOP8(BODY) \
	MOVQ out+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	LEAQ f32Const<>(SB), R9; \
	VMOVUPS fEXPLO(R9), Y14; \
	VMOVUPS fEXPHI(R9), Y15; \
loop: \
	CMPQ CX, $8; \
	JL tail; \
	VMOVUPS (SI), Y0; \
	BODY; \
	VMOVUPS Y0, (DI); \
	ADDQ $32, SI; \
	ADDQ $32, DI; \
	SUBQ $8, CX; \
	JMP loop; \
tail: \
	TESTQ CX, CX; \
	JEQ done; \
	TAILMASK8(Y13); \
	VMASKMOVPS (SI), Y13, Y0; \
	BODY; \
	VMASKMOVPS Y0, Y13, (DI); \
done: \
	VZEROUPPER; \
	RET

// func sigmoidAVX2(out, x *float32, n int)
TEXT ·sigmoidAVX2(SB), NOSPLIT, $0-24
	ACTLOOP8(SIGMOIDF8)

// func siluAVX2(out, x *float32, n int)
TEXT ·siluAVX2(SB), NOSPLIT, $0-24
	ACTLOOP8(SILUF8)

// func tanhAVX2(out, x *float32, n int)
TEXT ·tanhAVX2(SB), NOSPLIT, $0-24
	ACTLOOP8(TANHF8)
