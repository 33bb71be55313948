// AVX-512 activation kernels computed in float32, sixteen lanes at a
// time: sigmoid, SiLU, tanh, GELU (exact and tanh) and softmax's
// exponential. They are the AVX2 kernels of activation_f32_avx2_amd64.s
// (whose comment gives the algorithms and their accuracy) with the same
// constants (activation_f32_amd64.h) and the same rounded steps, so that
// both tiers give the same bits, lane for lane. Two steps differ in form
// only: 2^n is applied with VSCALEFPS, which rounds p·2^n once as the
// AVX2 kernels' two exponent-field factors do (the first of them leaves
// its operand normal, so scaling by it is exact), and the last n%16
// elements go through the same code under an opmask instead of a lane
// mask. Only AVX-512F instructions are used: VPANDD, VPORD and
// VPTERNLOGD stand in for the float bitwise operations, which need DQ.

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_amd64.h"
#include "activation_f32_amd64.h"

// EXPCONST16 broadcasts the exponential's constants (R9 holding
// f32Const) into Z19 to Z31, where the kernels below keep them.
#define EXPCONST16 \
	VBROADCASTSS fSIGN(R9), Z19; \
	VBROADCASTSS fONE(R9), Z20; \
	VBROADCASTSS fQ0(R9), Z21; \
	VBROADCASTSS fQ1(R9), Z22; \
	VBROADCASTSS fQ2(R9), Z23; \
	VBROADCASTSS fQ3(R9), Z24; \
	VBROADCASTSS fQ4(R9), Z25; \
	VBROADCASTSS fQ5(R9), Z26; \
	VBROADCASTSS fLN2LO(R9), Z27; \
	VBROADCASTSS fLN2HI(R9), Z28; \
	VBROADCASTSS fLOG2E(R9), Z29; \
	VBROADCASTSS fEXPLO(R9), Z30; \
	VBROADCASTSS fEXPHI(R9), Z31

// EXPF16PART sets A = e^r and N = n, a float32 integer, for e^A = e^r·2^n
// on sixteen float32 lanes (EXPF8PART's steps before it makes 2^n), so
// that a product with e^r can be scaled by 2^n with one rounding; R and T
// are scratch. VMAXPS and VMINPS return their second Intel source (A)
// when either is NaN.
#define EXPF16PART(A, N, R, T) \
	VMINPS A, Z31, A; \
	EXPF16PARTLE(A, N, R, T)

// EXPF16PARTLE is EXPF16PART for A ≤ 0 (or NaN), which needs no upper
// clamp.
#define EXPF16PARTLE(A, N, R, T) \
	VMAXPS A, Z30, A; \
	VMULPS Z29, A, N; \
	VRNDSCALEPS $8, N, N; \
	VMOVAPS A, R; \
	VFNMADD231PS Z28, N, R; \
	VFNMADD231PS Z27, N, R; \
	VMOVAPS Z26, A; \
	VFMADD213PS Z25, R, A; \
	VFMADD213PS Z24, R, A; \
	VFMADD213PS Z23, R, A; \
	VFMADD213PS Z22, R, A; \
	VFMADD213PS Z21, R, A; \
	VMULPS R, R, T; \
	VFMADD213PS R, T, A; \
	VADDPS Z20, A, A

// EXPF16 sets A = e^A as EXPF16PART, with 0 where A is below fEXPZ (the
// lanes K6 leaves out of the scaling): there e^A rounds to 0, and
// VSCALEFPS would take a microcode assist for each such lane on Intel
// cores (Xeon SPR: the softmax of 4×128×128 floats under a causal mask,
// half of them -∞, took 204 µs against 37 µs unmasked). Between fEXPZ and
// -87.3, where e^A is subnormal, the assists remain.
#define EXPF16(A, N, R, T) \
	VMINPS A, Z31, A; \
	EXPF16LE(A, N, R, T)

// EXPF16LE is EXPF16 for A ≤ 0 (or NaN).
#define EXPF16LE(A, N, R, T) \
	VCMPPS.BCST $5, fEXPZ(R9), A, K6; \
	EXPF16PARTLE(A, N, R, T); \
	VSCALEFPS.Z N, A, K6, A

// SIGMOIDF16 sets Z0 = sigmoid(x) for x in Z0 as SIGMOIDF8: e = e^{-|x|},
// 1/(1+e) or, where x's sign bit is set, e/(1+e).
#define SIGMOIDF16 \
	VPORD Z19, Z0, Z1; \
	EXPF16(Z1, Z2, Z3, Z4); \
	VADDPS Z20, Z1, Z2; \
	VPTESTMD Z19, Z0, K1; \
	VBLENDMPS Z1, Z20, K1, Z3; \
	VDIVPS Z2, Z3, Z0

// SILUF16 sets Z0 = x·sigmoid(x) for x in Z0 as SILUF8: x/(1+e), or
// x·e/(1+e) where x's sign bit is set, with x·e rounded once and 0·x
// where x is below fEXPLO (or NaN).
#define SILUF16 \
	VPORD Z19, Z0, Z1; \
	EXPF16PART(Z1, Z2, Z3, Z4); \
	VCMPPS $13, Z30, Z0, K2; \
	VMOVAPS.Z Z1, K2, Z3; \
	VMULPS Z0, Z3, Z3; \
	VSCALEFPS Z2, Z3, Z3; \
	VSCALEFPS Z2, Z1, Z1; \
	VADDPS Z20, Z1, Z2; \
	VPTESTMD Z19, Z0, K1; \
	VBLENDMPS Z3, Z0, K1, Z3; \
	VDIVPS Z2, Z3, Z0

// TANHF16 sets Z0 = tanh(x) for x in Z0 as TANHF8: (1-e)/(1+e), e =
// e^{-2|x|}, with x's sign bit or'ed in, and x + x³·T(x²) where |x| <
// 0.625. VPTERNLOGD $0xf8 is A | (B & C).
#define TANHF16 \
	VPANDD.BCST fABS(R9), Z0, Z1; \
	VADDPS Z1, Z1, Z2; \
	VPORD Z19, Z2, Z2; \
	EXPF16(Z2, Z3, Z4, Z5); \
	VSUBPS Z2, Z20, Z4; \
	VADDPS Z2, Z20, Z3; \
	VDIVPS Z3, Z4, Z4; \
	VPTERNLOGD $0xf8, Z19, Z0, Z4; \
	VMULPS Z0, Z0, Z5; \
	VBROADCASTSS fT4(R9), Z6; \
	VFMADD213PS.BCST fT3(R9), Z5, Z6; \
	VFMADD213PS.BCST fT2(R9), Z5, Z6; \
	VFMADD213PS.BCST fT1(R9), Z5, Z6; \
	VFMADD213PS.BCST fT0(R9), Z5, Z6; \
	VMULPS Z5, Z0, Z5; \
	VFMADD213PS Z0, Z5, Z6; \
	VCMPPS.BCST $1, fTSMALL(R9), Z1, K1; \
	VBLENDMPS Z6, Z4, K1, Z0

// GELUF16 sets Z0 = x·Φ(x) for x in Z0 as GELUF8: q = R·(1+lo)·e^h,
// zero beyond a = 14.9, R from the same pieces (the tables repeat their
// eight entries for VPERMPS's sixteen); x·q where x < 0, x·(1-q) where
// not. 1 - q is a VSCALEFPS and a subtraction where GELUF8 fuses them:
// the same bits, since the scaled q is exact unless it is below 2^-126,
// where both give 1.
#define GELUF16 \
	VPANDD.BCST fABS(R9), Z0, Z1; \
	VMULPS.BCST fNHALF(R9), Z1, Z2; \
	VMULPS Z1, Z2, Z3; \
	VMOVAPS Z3, Z4; \
	VFMSUB231PS Z1, Z2, Z4; \
	EXPF16PART(Z3, Z5, Z6, Z7); \
	VMOVAPS Z20, Z6; \
	VFMADD231PS.BCST fGS(R9), Z1, Z6; \
	VSUBPS Z6, Z20, Z10; \
	VFMADD231PS.BCST fGS(R9), Z1, Z10; \
	VDIVPS Z6, Z20, Z7; \
	VMOVAPS Z20, Z11; \
	VFNMADD231PS Z7, Z6, Z11; \
	VFNMADD231PS Z7, Z10, Z11; \
	VPSRLD $22, Z6, Z6; \
	VPERMPS fGC(R9), Z6, Z8; \
	VSUBPS Z8, Z7, Z8; \
	VFMADD213PS Z8, Z11, Z7; \
	VPERMPS fGP5(R9), Z6, Z8; \
	VPERMPS fGP4(R9), Z6, Z9; \
	VFMADD213PS Z9, Z7, Z8; \
	VPERMPS fGP3(R9), Z6, Z10; \
	VFMADD213PS Z10, Z7, Z8; \
	VPERMPS fGP2(R9), Z6, Z11; \
	VFMADD213PS Z11, Z7, Z8; \
	VPERMPS fGP1(R9), Z6, Z12; \
	VFMADD213PS Z12, Z7, Z8; \
	VPERMPS fGP0(R9), Z6, Z9; \
	VFMADD213PS Z9, Z7, Z8; \
	VFMADD213PS Z8, Z4, Z8; \
	VCMPPS.BCST $2, fGBIG(R9), Z1, K2; \
	VMULPS.Z Z3, Z8, K2, Z8; \
	VMULPS Z0, Z8, Z9; \
	VSCALEFPS Z5, Z9, Z9; \
	VSCALEFPS Z5, Z8, Z8; \
	VSUBPS Z8, Z20, Z8; \
	VMULPS Z0, Z8, Z8; \
	VPTESTMD Z19, Z0, K1; \
	VBLENDMPS Z9, Z8, K1, Z0

// POLYFASTF16(SHIFT, HI, LO, C, P9, ..., P0) sets Z13 = x·F(x) for x in Z0
// as POLYFASTF8 (the same pieces and steps, so the same bits) and the
// opmask K3 to the lanes where x ≥ LO; Z14 to Z17 are scratch.
#define POLYFASTF16(SHIFT, HI, LO, C, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0) \
	VMINPS.BCST HI(R9), Z0, Z13; \
	VADDPS.BCST SHIFT(R9), Z13, Z14; \
	VPSRLD $22, Z14, Z14; \
	VPERMPS C(R9), Z14, Z15; \
	VSUBPS Z15, Z13, Z15; \
	VPERMPS P9(R9), Z14, Z13; \
	VPERMPS P8(R9), Z14, Z16; \
	VFMADD213PS Z16, Z15, Z13; \
	VPERMPS P7(R9), Z14, Z17; \
	VFMADD213PS Z17, Z15, Z13; \
	VPERMPS P6(R9), Z14, Z16; \
	VFMADD213PS Z16, Z15, Z13; \
	VPERMPS P5(R9), Z14, Z17; \
	VFMADD213PS Z17, Z15, Z13; \
	VPERMPS P4(R9), Z14, Z16; \
	VFMADD213PS Z16, Z15, Z13; \
	VPERMPS P3(R9), Z14, Z17; \
	VFMADD213PS Z17, Z15, Z13; \
	VPERMPS P2(R9), Z14, Z16; \
	VFMADD213PS Z16, Z15, Z13; \
	VPERMPS P1(R9), Z14, Z17; \
	VFMADD213PS Z17, Z15, Z13; \
	VPERMPS P0(R9), Z14, Z16; \
	VFMADD213PS Z16, Z15, Z13; \
	VMULPS Z0, Z13, Z13; \
	VCMPPS.BCST $13, LO(R9), Z0, K3

#define GELUFASTF16 POLYFASTF16(fGFSHIFT, fGFHI, fGFLO, fGFC, fGFP9, fGFP8, fGFP7, fGFP6, fGFP5, fGFP4, fGFP3, fGFP2, fGFP1, fGFP0)
#define GELUTANHFASTF16 POLYFASTF16(fGTSHIFT, fGTHI, fGTLO, fGTC, fGTP9, fGTP8, fGTP7, fGTP6, fGTP5, fGTP4, fGTP3, fGTP2, fGTP1, fGTP0)
// GELUTANHF16 sets Z0 = x·sigmoid(v), v = 2·√(2/π)·x·(1+0.044715x²), for
// x in Z0 as GELUTANHF8 (R10 holds f64Const): v in float64, eight lanes
// at a time, split into float32 hi + lo; e = e^{-|hi|}·(1 ∓ lo), zero
// where -|hi| is below fEXPLO; x/(1+e), or x·e/(1+e) where hi's sign bit
// is set. VPTERNLOGD $0xd2 is A ^ (C & ^B): lo's sign flipped unless hi's
// is set.
#define GELUTANHF16 \
	VCVTPS2PD Y0, Z1; \
	VEXTRACTF64X4 $1, Z0, Y2; \
	VCVTPS2PD Y2, Z2; \
	VBROADCASTSD dGT1(R10), Z6; \
	VMULPD Z1, Z1, Z3; \
	VFMADD213PD.BCST dONE(R10), Z6, Z3; \
	VMULPD Z1, Z3, Z3; \
	VMULPD.BCST dGT2(R10), Z3, Z3; \
	VMULPD Z2, Z2, Z4; \
	VFMADD213PD.BCST dONE(R10), Z6, Z4; \
	VMULPD Z2, Z4, Z4; \
	VMULPD.BCST dGT2(R10), Z4, Z4; \
	VCVTPD2PS Z3, Y5; \
	VCVTPD2PS Z4, Y6; \
	VCVTPS2PD Y5, Z7; \
	VSUBPD Z7, Z3, Z3; \
	VCVTPS2PD Y6, Z7; \
	VSUBPD Z7, Z4, Z4; \
	VCVTPD2PS Z3, Y3; \
	VCVTPD2PS Z4, Y4; \
	VINSERTF64X4 $1, Y6, Z5, Z5; \
	VINSERTF64X4 $1, Y4, Z3, Z3; \
	VPORD Z19, Z5, Z1; \
	VPTERNLOGD $0xd2, Z19, Z5, Z3; \
	VCMPPS $13, Z30, Z1, K2; \
	EXPF16PART(Z1, Z2, Z4, Z7); \
	VFMADD231PS.Z Z3, Z1, K2, Z1; \
	VMULPS Z0, Z1, Z3; \
	VSCALEFPS Z2, Z3, Z3; \
	VSCALEFPS Z2, Z1, Z1; \
	VADDPS Z20, Z1, Z1; \
	VPTESTMD Z19, Z5, K1; \
	VBLENDMPS Z3, Z0, K1, Z3; \
	VDIVPS Z1, Z3, Z0

// ACTLOOP16 runs BODY over n float32s in Z0: sixteen at a time, then the
// rest under the opmask K4 (masked-off lanes are neither read nor
// written).
#define ACTLOOP16(BODY) \
	MOVQ out+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	LEAQ f32Const<>(SB), R9; \
	LEAQ f64Const<>(SB), R10; \
	EXPCONST16; \
loop: \
	CMPQ CX, $16; \
	JL tail; \
	VMOVUPS (SI), Z0; \
	BODY; \
	VMOVUPS Z0, (DI); \
	ADDQ $64, SI; \
	ADDQ $64, DI; \
	SUBQ $16, CX; \
	JMP loop; \
tail: \
	TESTQ CX, CX; \
	JEQ done; \
	TAILMASK(K4); \
	VMOVUPS.Z (SI), K4, Z0; \
	BODY; \
	VMOVUPS Z0, K4, (DI); \
done: \
	VZEROUPPER; \
	RET

// EXPSHIFTLOOP16(BODY) is the body of expShiftAVX512 and
// expShiftBelowAVX512: BODY on sixteen at a time, EXPSHIFTF16 on the rest
// under the opmask K4.
#define EXPSHIFTLOOP16(BODY) \
	MOVQ out+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	LEAQ f32Const<>(SB), R9; \
	EXPCONST16; \
	VCVTSD2SS shift+24(FP), X12, X12; \
	VBROADCASTSS X12, Z12; \
	VPXORQ Z10, Z10, Z10; \
	VPXORQ Z11, Z11, Z11; \
eloop: \
	CMPQ CX, $16; \
	JL etail; \
	VMOVUPS (SI), Z0; \
	BODY; \
	EXPSUM16; \
	VMOVUPS Z1, (DI); \
	ADDQ $64, SI; \
	ADDQ $64, DI; \
	SUBQ $16, CX; \
	JMP eloop; \
etail: \
	TESTQ CX, CX; \
	JEQ esum; \
	TAILMASK(K4); \
	VMOVUPS.Z (SI), K4, Z0; \
	EXPSHIFTF16; \
	VMOVAPS.Z Z1, K4, Z1; \
	EXPSUM16; \
	VMOVUPS Z1, K4, (DI); \
esum: \
	VADDPD Z11, Z10, Z0; \
	HSUMPD0; \
	MOVSD X0, sum+32(FP); \
	VZEROUPPER; \
	RET

// COMPRESSSLOW16 appends the lanes of Z0 that K3 leaves out (and R8 plus
// their lane numbers) to slowX (R12) and slowIdx (R11) at R10, which it
// advances: all sixteen lanes are stored, those past the count to be
// overwritten, so the buffers need room for sixteen. AX, DX, K5 and Z18
// are scratch.
#define COMPRESSSLOW16 \
	KNOTW K3, K5; \
	VCOMPRESSPS Z0, K5, Z18; \
	VMOVUPS Z18, (R12)(R10*4); \
	MOVL R8, DX; \
	VPBROADCASTD DX, Z18; \
	VPADDD fIOTA(R9), Z18, Z18; \
	VPCOMPRESSD Z18, K5, Z18; \
	VMOVDQU32 Z18, (R11)(R10*4); \
	KMOVW K5, AX; \
	POPCNTL AX, AX; \
	ADDQ AX, R10

// FASTLOOP16(FAST) is FASTLOOP8 sixteen lanes at a time, FAST setting the
// opmask K3 to the lanes it does not leave to the general kernel, which
// COMPRESSSLOW16 gathers.
#define FASTLOOP16(FAST) \
	MOVQ out+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	MOVQ slowIdx+24(FP), R11; \
	MOVQ slowX+32(FP), R12; \
	LEAQ f32Const<>(SB), R9; \
	MOVQ room+40(FP), R13; \
	SUBQ $16, R13; \
	XORQ R10, R10; \
	XORQ R8, R8; \
loop: \
	CMPQ R10, R13; \
	JG   done; \
	CMPQ CX, $16; \
	JL   tail; \
	VMOVUPS (SI), Z0; \
	FAST; \
	KORTESTW K3, K3; \
	JCS store; \
	COMPRESSSLOW16; \
store: \
	VMOVUPS Z13, (DI); \
	ADDQ    $64, SI; \
	ADDQ    $64, DI; \
	ADDQ    $16, R8; \
	SUBQ    $16, CX; \
	JMP     loop; \
tail: \
	TESTQ CX, CX; \
	JEQ   done; \
	TAILMASK(K4); \
	VMOVUPS.Z (SI), K4, Z0; \
	FAST; \
	KORTESTW K3, K3; \
	JCS tailstore; \
	COMPRESSSLOW16; \
tailstore: \
	VMOVUPS Z13, K4, (DI); \
	ADDQ CX, R8; \
done: \
	MOVQ R8, done+48(FP); \
	MOVQ R10, slow+56(FP); \
	VZEROUPPER; \
	RET

// func sigmoidAVX512(out, x *float32, n int)
TEXT ·sigmoidAVX512(SB), NOSPLIT, $0-24
	ACTLOOP16(SIGMOIDF16)

// func siluAVX512(out, x *float32, n int)
TEXT ·siluAVX512(SB), NOSPLIT, $0-24
	ACTLOOP16(SILUF16)

// func tanhAVX512(out, x *float32, n int)
TEXT ·tanhAVX512(SB), NOSPLIT, $0-24
	ACTLOOP16(TANHF16)

// func geluAVX512(out, x *float32, n int)
TEXT ·geluAVX512(SB), NOSPLIT, $0-24
	ACTLOOP16(GELUF16)

// func geluFastAVX512(out, x *float32, n int, slowIdx *int32, slowX *float32, room int) (done, slow int)
TEXT ·geluFastAVX512(SB), NOSPLIT, $0-64
	FASTLOOP16(GELUFASTF16)

// func geluTanhFastAVX512(out, x *float32, n int, slowIdx *int32, slowX *float32, room int) (done, slow int)
TEXT ·geluTanhFastAVX512(SB), NOSPLIT, $0-64
	FASTLOOP16(GELUTANHFASTF16)

// func geluTanhAVX512(out, x *float32, n int)
TEXT ·geluTanhAVX512(SB), NOSPLIT, $0-24
	ACTLOOP16(GELUTANHF16)

// EXPSHIFTF16 sets Z1 = e^(x-shift) for x in Z0 and shift in Z12 as
// EXPSHIFTF8: e^a + e^a·lo with a = x - shift rounded and lo its rounding
// error; the FMA is skipped (leaving e^a) where lo is NaN, which is where
// EXPSHIFTF8 zeroes lo, and where e^a is +∞. Z2 to Z6 are scratch.
#define EXPSHIFTF16 \
	SHIFTLO16; \
	EXPF16(Z1, Z4, Z5, Z6); \
	VCMPPS $0, Z3, Z3, K1; \
	VCMPPS.BCST $4, fINF(R9), Z1, K1, K1; \
	VFMADD231PS Z3, Z1, K1, Z1

// SHIFTLO16 sets Z1 = x - shift rounded to float32 and Z3 its rounding
// error (Knuth's two-sum) for x in Z0 and shift in Z12, with Z2 and Z4 as
// scratch.
#define SHIFTLO16 \
	VSUBPS Z12, Z0, Z1; \
	VSUBPS Z0, Z1, Z2; \
	VSUBPS Z2, Z1, Z3; \
	VSUBPS Z3, Z0, Z3; \
	VADDPS Z12, Z2, Z4; \
	VSUBPS Z4, Z3, Z3

// EXPSHIFTLE16 is EXPSHIFTF16 where x ≤ shift (EXPSHIFTLE8's case): no
// upper clamp, and no +∞ to keep.
#define EXPSHIFTLE16 \
	SHIFTLO16; \
	EXPF16LE(Z1, Z4, Z5, Z6); \
	VCMPPS $0, Z3, Z3, K1; \
	VFMADD231PS Z3, Z1, K1, Z1

// EXPSUM16 adds the sixteen float32 lanes of Z1 to the float64 sums in
// Z10 (low eight) and Z11 (high eight), with Z2 and Z3 as scratch.
#define EXPSUM16 \
	VCVTPS2PD Y1, Z2; \
	VADDPD Z2, Z10, Z10; \
	VEXTRACTF64X4 $1, Z1, Y3; \
	VCVTPS2PD Y3, Z3; \
	VADDPD Z3, Z11, Z11

// func expShiftAVX512(out, x *float32, n int, shift float64) (sum float64)
//
// expShiftAVX2 sixteen lanes at a time: the same float32 results, their
// sum in float64 in another order.
TEXT ·expShiftAVX512(SB), NOSPLIT, $0-40
	EXPSHIFTLOOP16(EXPSHIFTF16)

// func expShiftBelowAVX512(out, x *float32, n int, shift float64) (sum float64)
//
// expShiftAVX512 for x[i] ≤ shift (softmax's row maximum), with its bits.
TEXT ·expShiftBelowAVX512(SB), NOSPLIT, $0-40
	EXPSHIFTLOOP16(EXPSHIFTLE16)

// func softmaxKeptAVX512(out, x *float32, size, rows int, kept *int) (done int)
//
// For each of rows rows of size floats (the r-th at x + r·size and out +
// r·size), with its first n = kept[r] elements kept (all size when kept is
// nil; n ≥ 1), sets out[0:n] to the softmax of x[0:n] (leaving out[n:size]
// to the caller), with the bits of the steps it fuses: maxAVX512's maximum
// m, then expShiftBelowAVX512's e^(x-m) and float64 sum s (constants loaded
// once for all rows), then each e^(x-m) times float32(1/s) as
// mulScalarAVX512. It stops before a row whose kept elements hold a NaN or
// whose maximum is ±∞ and returns the rows done; the caller computes that
// row. A row's maximum is taken before the row above is scaled: out may be
// x, and loads of a row just after stores to the row above would wait on
// them.
TEXT ·softmaxKeptAVX512(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ size+16(FP), R13
	SHLQ $2, R13
	MOVQ kept+32(FP), R14
	LEAQ f32Const<>(SB), R9
	EXPCONST16
	VBROADCASTSS fINF(R9), Z13
	VXORPS Z19, Z13, Z13 // -∞: Z19 holds the sign bit
	XORQ R15, R15        // the row
	XORQ R12, R12        // 1: the row above waits for its scaling

	// The maximum of row R15's n kept elements (BX) in X7, K5 set if any
	// is NaN.
snextmax:
	CMPQ R15, rows+24(FP)
	JGE  spending
	MOVQ size+16(FP), BX
	TESTQ R14, R14
	JEQ  smax
	MOVQ (R14)(R15*8), BX

smax:
	MOVQ SI, R8
	MOVQ BX, CX
	VMOVAPS Z13, Z7
	KXORW K5, K5, K5

	MAXROW16(R8, Z7, Y7, X7, K5, Z13, Z8, Y8, X8, K7)

	// The row above (R11 floats from R10) times float32(1/sum) in Z2.
spending:
	TESTQ R12, R12
	JEQ   scheck
	XORQ  R12, R12
	MOVQ  R11, CX

sscaleloop:
	CMPQ CX, $16
	JL   sscaletail
	VMOVUPS (R10), Z0
	VMULPS Z2, Z0, Z0
	VMOVUPS Z0, (R10)
	ADDQ $64, R10
	SUBQ $16, CX
	JMP  sscaleloop

sscaletail:
	TESTQ CX, CX
	JEQ   scheck
	TAILMASK(K2)
	VMOVUPS (R10), K2, Z0
	VMULPS Z2, Z0, Z0
	VMOVUPS Z0, K2, (R10)

	// Row R15: stop at the end or at a row left to the caller.
scheck:
	CMPQ R15, rows+24(FP)
	JGE  sdone
	KORTESTW K5, K5
	JNE  sdone
	JINF32(X7, sdone)

	// e^(x-m) into out, their sum in float64.
	VBROADCASTSS X7, Z12
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	MOVQ SI, R8
	MOVQ DI, R10
	MOVQ BX, CX

sexploop:
	CMPQ CX, $16
	JL   sexptail
	VMOVUPS (R8), Z0
	EXPSHIFTLE16
	EXPSUM16
	VMOVUPS Z1, (R10)
	ADDQ $64, R8
	ADDQ $64, R10
	SUBQ $16, CX
	JMP  sexploop

sexptail:
	TESTQ CX, CX
	JEQ   ssum
	TAILMASK(K4)
	VMOVUPS.Z (R8), K4, Z0
	EXPSHIFTF16
	VMOVAPS.Z Z1, K4, Z1
	EXPSUM16
	VMOVUPS Z1, K4, (R10)

ssum:
	VADDPD Z11, Z10, Z0
	HSUMPD0
	RECIPF32(X0, X1)
	VBROADCASTSS X1, Z2
	MOVQ DI, R10
	MOVQ BX, R11
	MOVQ $1, R12
	ADDQ R13, SI
	ADDQ R13, DI
	INCQ R15
	JMP  snextmax

sdone:
	MOVQ R15, done+40(FP)
	VZEROUPPER
	RET
