// AVX2+FMA activation kernels computed in float32, eight lanes at a time:
// sigmoid, SiLU, tanh, GELU (exact and tanh) and softmax's exponential.
// Each is built on one exponential (but the exact GELU's fast path, a
// polynomial of Φ for x ≥ -4), e^a for a = -|x| (or -2|x|, -x²/2,
// -|v|) in (-∞, 0], so nothing overflows: a is clamped to [-112, 88.8],
// split as n·ln2 + r with n = round(a·log2 e) (ln 2 in two parts, the
// first rounded to float32, applied with FMA), e^r = 1 + r + r²·Q(r) with
// Q of degree 5 (a least-squares fit whose relative error is 1.7e-9 on
// |r| ≤ ln2/2), and 2^n made in the exponent field in two factors, so that
// a subnormal result is rounded once. NaN passes through every step.
// Sigmoid and tanh are within 2 float32 units in the last place of the
// float64 portable loops, SiLU within 3, the tanh GELU within 4 and the
// exact GELU within 6 (activation_vec_test.go; PyTorch 1.13's own float32
// kernels flush the tails and are millions of units off there).

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_avx2_amd64.h"
#include "activation_f32_amd64.h"

// EXPF8PART sets A = e^A/2^m and N = 2^m on eight float32 lanes, m half
// of the binary exponent, so that A·N rounds once even when it is
// subnormal; R and T are scratch; Y14 and Y15 hold fEXPLO and fEXPHI, R9
// the constant table. VMAXPS and VMINPS return their second Intel source
// (A) when either is NaN.
#define EXPF8PART(A, N, R, T) \
	VMINPS A, Y15, A; \
	EXPF8PARTLE(A, N, R, T)

// EXPF8PARTLE is EXPF8PART for A ≤ 0 (or NaN), which needs no upper clamp.
#define EXPF8PARTLE(A, N, R, T) \
	VMAXPS A, Y14, A; \
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

// GELUF8 sets Y0 = x·Φ(x) for x in Y0 (Φ the normal distribution). With
// a = |x|, Φ(-a) = e^{-a²/2}·R, R a polynomial of degree 5 in u = t - C,
// t = 1/w, w = 1 + 0.45a, on six pieces of w (least-squares fits with
// relative error 5.5e-8 at most in float32 coefficients; VPERMPS picks
// each lane's piece's coefficients by bits of w). w and t are rounded, so
// u adds back what they lost: with d = (1 - w) + 0.45a (w's error, one
// FMA), u = (t - C) + t·(1 - w·t - d·t). -a²/2 is split exactly into
// h + lo by FMA, so that e^{-a²/2} = e^h·(1+lo) loses nothing to the
// rounding of a². With q = R·(1+lo)·e^h, GELU is x·q where x < 0, rounded
// once when subnormal, and x·(1-q) where x ≥ 0; beyond a = 14.9 q is 0,
// which gives x, -0, or NaN at -∞ as x·Φ(x) is.
#define GELUF8 \
	VANDPS fABS(R9), Y0, Y1; \
	VMULPS fNHALF(R9), Y1, Y2; \
	VMULPS Y1, Y2, Y3; \
	VMOVAPS Y3, Y4; \
	VFMSUB231PS Y1, Y2, Y4; \
	EXPF8PART(Y3, Y5, Y6, Y7); \
	VMOVUPS fONE(R9), Y6; \
	VFMADD231PS fGS(R9), Y1, Y6; \
	VMOVUPS fONE(R9), Y7; \
	VSUBPS Y6, Y7, Y10; \
	VFMADD231PS fGS(R9), Y1, Y10; \
	VDIVPS Y6, Y7, Y7; \
	VMOVUPS fONE(R9), Y11; \
	VFNMADD231PS Y7, Y6, Y11; \
	VFNMADD231PS Y7, Y10, Y11; \
	VPSRLD $22, Y6, Y6; \
	VPERMPS fGC(R9), Y6, Y8; \
	VSUBPS Y8, Y7, Y8; \
	VFMADD213PS Y8, Y11, Y7; \
	VPERMPS fGP5(R9), Y6, Y8; \
	VPERMPS fGP4(R9), Y6, Y9; \
	VFMADD213PS Y9, Y7, Y8; \
	VPERMPS fGP3(R9), Y6, Y10; \
	VFMADD213PS Y10, Y7, Y8; \
	VPERMPS fGP2(R9), Y6, Y11; \
	VFMADD213PS Y11, Y7, Y8; \
	VPERMPS fGP1(R9), Y6, Y12; \
	VFMADD213PS Y12, Y7, Y8; \
	VPERMPS fGP0(R9), Y6, Y9; \
	VFMADD213PS Y9, Y7, Y8; \
	VFMADD213PS Y8, Y4, Y8; \
	VMULPS Y3, Y8, Y8; \
	VCMPPS $2, fGBIG(R9), Y1, Y9; \
	VANDPS Y9, Y8, Y8; \
	VMULPS Y0, Y8, Y9; \
	VMULPS Y5, Y9, Y9; \
	VFNMADD213PS fONE(R9), Y5, Y8; \
	VMULPS Y0, Y8, Y8; \
	VBLENDVPS Y0, Y9, Y8, Y0

// POLYFASTF8 sets Y1 = x·F(x) for x in Y0, F a polynomial of degree 9 in
// u = x - C on eight pieces of x + SHIFT, each lane's coefficients picked
// by VPERMPS from bits 22 to 24 of x + SHIFT, x clamped to HI (where F
// rounds to 1, so that +∞ gives +∞); lanes whose x + SHIFT is below 1 get
// garbage, and x is kept. Y2 to Y5 are scratch. The exact GELU's fast path
// (GELUFASTF8) takes F = Φ on pieces of x + 5, the tanh GELU's
// (GELUTANHFASTF8) F = sigmoid(v(x)) on pieces of x + 3.5.
#define POLYFASTF8(SHIFT, HI, C, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0) \
	VMINPS HI(R9), Y0, Y1; \
	VADDPS SHIFT(R9), Y1, Y2; \
	VPSRLD $22, Y2, Y2; \
	VPERMPS C(R9), Y2, Y3; \
	VSUBPS Y3, Y1, Y3; \
	VPERMPS P9(R9), Y2, Y1; \
	VPERMPS P8(R9), Y2, Y4; \
	VFMADD213PS Y4, Y3, Y1; \
	VPERMPS P7(R9), Y2, Y5; \
	VFMADD213PS Y5, Y3, Y1; \
	VPERMPS P6(R9), Y2, Y4; \
	VFMADD213PS Y4, Y3, Y1; \
	VPERMPS P5(R9), Y2, Y5; \
	VFMADD213PS Y5, Y3, Y1; \
	VPERMPS P4(R9), Y2, Y4; \
	VFMADD213PS Y4, Y3, Y1; \
	VPERMPS P3(R9), Y2, Y5; \
	VFMADD213PS Y5, Y3, Y1; \
	VPERMPS P2(R9), Y2, Y4; \
	VFMADD213PS Y4, Y3, Y1; \
	VPERMPS P1(R9), Y2, Y5; \
	VFMADD213PS Y5, Y3, Y1; \
	VPERMPS P0(R9), Y2, Y4; \
	VFMADD213PS Y4, Y3, Y1; \
	VMULPS Y0, Y1, Y1

#define GELUFASTF8 POLYFASTF8(fGFSHIFT, fGFHI, fGFC, fGFP9, fGFP8, fGFP7, fGFP6, fGFP5, fGFP4, fGFP3, fGFP2, fGFP1, fGFP0)
#define GELUTANHFASTF8 POLYFASTF8(fGTSHIFT, fGTHI, fGTC, fGTP9, fGTP8, fGTP7, fGTP6, fGTP5, fGTP4, fGTP3, fGTP2, fGTP1, fGTP0)

// GELUTANHF8 sets Y0 = x·sigmoid(v), v = 2·√(2/π)·x·(1+0.044715x²), the
// tanh approximation of GELU, for x in Y0 (R10 holds f64Const). v is
// computed in float64 and split into float32 hi + lo, so that
// e = e^{-|v|} = e^{-|hi|}·(1 ∓ lo) loses nothing to rounding v (whose
// error e would multiply by |v|, up to 112); then as SILUF8, with v's sign
// choosing the numerator and x·e rounded once when subnormal, and 0
// (x·0: -0, or NaN at -∞) where -|hi| is below fEXPLO.
#define GELUTANHF8 \
	VCVTPS2PD X0, Y1; \
	VEXTRACTF128 $1, Y0, X2; \
	VCVTPS2PD X2, Y2; \
	VMOVUPD dGT1(R10), Y6; \
	VMULPD Y1, Y1, Y3; \
	VFMADD213PD dONE(R10), Y6, Y3; \
	VMULPD Y1, Y3, Y3; \
	VMULPD dGT2(R10), Y3, Y3; \
	VMULPD Y2, Y2, Y4; \
	VFMADD213PD dONE(R10), Y6, Y4; \
	VMULPD Y2, Y4, Y4; \
	VMULPD dGT2(R10), Y4, Y4; \
	VCVTPD2PSY Y3, X5; \
	VCVTPD2PSY Y4, X6; \
	VCVTPS2PD X5, Y7; \
	VSUBPD Y7, Y3, Y3; \
	VCVTPS2PD X6, Y7; \
	VSUBPD Y7, Y4, Y4; \
	VCVTPD2PSY Y3, X3; \
	VCVTPD2PSY Y4, X4; \
	VINSERTF128 $1, X6, Y5, Y5; \
	VINSERTF128 $1, X4, Y3, Y3; \
	VORPS fSIGN(R9), Y5, Y1; \
	VANDPS fSIGN(R9), Y5, Y2; \
	VXORPS fSIGN(R9), Y3, Y3; \
	VXORPS Y2, Y3, Y3; \
	VCMPPS $13, Y14, Y1, Y6; \
	EXPF8PART(Y1, Y2, Y4, Y7); \
	VFMADD231PS Y3, Y1, Y1; \
	VANDPS Y6, Y1, Y1; \
	VMULPS Y0, Y1, Y3; \
	VMULPS Y2, Y3, Y3; \
	VMULPS Y2, Y1, Y1; \
	VADDPS fONE(R9), Y1, Y1; \
	VBLENDVPS Y5, Y3, Y0, Y3; \
	VDIVPS Y1, Y3, Y0

// ACTLOOP8 runs BODY over n float32s in Y0: eight at a time, then the rest
// under the mask Y13.
#define ACTLOOP8(BODY) \
	MOVQ out+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	LEAQ f32Const<>(SB), R9; \
	LEAQ f64Const<>(SB), R10; \
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

// EXPSHIFTLOOP8(BODY) is the body of expShiftAVX2 and expShiftBelowAVX2:
// BODY on eight at a time, EXPSHIFTF8 on the rest under the mask Y13.
#define EXPSHIFTLOOP8(BODY) \
	MOVQ out+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	LEAQ f32Const<>(SB), R9; \
	VMOVUPS fEXPLO(R9), Y14; \
	VMOVUPS fEXPHI(R9), Y15; \
	VCVTSD2SS shift+24(FP), X12, X12; \
	VBROADCASTSS X12, Y12; \
	VXORPD Y10, Y10, Y10; \
	VXORPD Y11, Y11, Y11; \
eloop: \
	CMPQ CX, $8; \
	JL etail; \
	VMOVUPS (SI), Y0; \
	BODY; \
	VMOVUPS Y1, (DI); \
	EXPSUMSTORED8; \
	ADDQ $32, SI; \
	ADDQ $32, DI; \
	SUBQ $8, CX; \
	JMP eloop; \
etail: \
	TESTQ CX, CX; \
	JEQ esum; \
	TAILMASK8(Y13); \
	VMASKMOVPS (SI), Y13, Y0; \
	EXPSHIFTF8; \
	VANDPS Y13, Y1, Y1; \
	EXPSUM8; \
	VMASKMOVPS Y1, Y13, (DI); \
esum: \
	VADDPD Y11, Y10, Y0; \
	HSUMPD4; \
	MOVSD X0, sum+32(FP); \
	VZEROUPPER; \
	RET

// FASTLOOP8(FAST, LO) is the body of the fast GELU kernels: FAST on eight
// lanes at a time, storing its results, and appending each lane below LO
// (or NaN) to the buffers (SLOWLANES) instead, until n or until the buffers
// may not have room for another vector's.
#define FASTLOOP8(FAST, LO) \
	MOVQ out+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	MOVQ slowIdx+24(FP), R11; \
	MOVQ slowX+32(FP), R12; \
	LEAQ f32Const<>(SB), R9; \
	MOVQ room+40(FP), R13; \
	SUBQ $8, R13; \
	XORQ R10, R10; \
	XORQ R8, R8; \
loop: \
	CMPQ R10, R13; \
	JG   done; \
	CMPQ CX, $8; \
	JL   tail; \
	VMOVUPS (SI), Y0; \
	FAST; \
	VCMPPS    $13, LO(R9), Y0, Y2; \
	VMOVMSKPS Y2, AX; \
	XORL      $0xff, AX; \
	JEQ       store; \
	SLOWLANES(slow8); \
store: \
	VMOVUPS Y1, (DI); \
	ADDQ    $32, SI; \
	ADDQ    $32, DI; \
	ADDQ    $8, R8; \
	SUBQ    $8, CX; \
	JMP     loop; \
tail: \
	TESTQ CX, CX; \
	JEQ   done; \
	TAILMASK8(Y13); \
	VMASKMOVPS (SI), Y13, Y0; \
	FAST; \
	VCMPPS     $13, LO(R9), Y0, Y2; \
	VMOVMSKPS  Y2, AX; \
	XORL       $0xff, AX; \
	JEQ        tailstore; \
	SLOWLANES(slowtail); \
tailstore: \
	VMASKMOVPS Y1, Y13, (DI); \
	ADDQ CX, R8; \
done: \
	MOVQ R8, done+48(FP); \
	MOVQ R10, slow+56(FP); \
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

// func geluTanhAVX2(out, x *float32, n int)
TEXT ·geluTanhAVX2(SB), NOSPLIT, $0-24
	ACTLOOP8(GELUTANHF8)

// func geluAVX2(out, x *float32, n int)
TEXT ·geluAVX2(SB), NOSPLIT, $0-24
	ACTLOOP8(GELUF8)

// func geluFastAVX2(out, x *float32, n int, slowIdx *int32, slowX *float32, room int) (done, slow int)
TEXT ·geluFastAVX2(SB), NOSPLIT, $0-64
	FASTLOOP8(GELUFASTF8, fGFLO)

// func geluTanhFastAVX2(out, x *float32, n int, slowIdx *int32, slowX *float32, room int) (done, slow int)
TEXT ·geluTanhFastAVX2(SB), NOSPLIT, $0-64
	FASTLOOP8(GELUTANHFASTF8, fGTLO)

// SHIFTLO8 sets Y1 = x - shift rounded to float32 and Y3 its rounding
// error (Knuth's two-sum; 0 where it is NaN) for x in Y0 and shift in
// Y12, with Y2 and Y4 as scratch.
#define SHIFTLO8 \
	VSUBPS Y12, Y0, Y1; \
	VSUBPS Y0, Y1, Y2; \
	VSUBPS Y2, Y1, Y3; \
	VSUBPS Y3, Y0, Y3; \
	VADDPS Y12, Y2, Y4; \
	VSUBPS Y4, Y3, Y3; \
	VCMPPS $0, Y3, Y3, Y4; \
	VANDPS Y4, Y3, Y3

// EXPSHIFTF8 sets Y1 = e^(x-shift) for x in Y0 and shift in Y12 (see
// expShiftAVX2), with Y2 to Y6 as scratch.
#define EXPSHIFTF8 \
	SHIFTLO8; \
	EXPF8(Y1, Y4, Y5, Y6); \
	VMOVAPS Y1, Y2; \
	VFMADD231PS Y3, Y1, Y2; \
	VCMPPS $0, fINF(R9), Y1, Y4; \
	VBLENDVPS Y4, Y1, Y2, Y1

// EXPSHIFTLE8 is EXPSHIFTF8 where x ≤ shift: e^a ≤ 1 needs neither the
// upper clamp nor the keeping of +∞, and the steps left are the same.
#define EXPSHIFTLE8 \
	SHIFTLO8; \
	EXPF8PARTLE(Y1, Y4, Y5, Y6); \
	VMULPS Y4, Y1, Y1; \
	VFMADD231PS Y3, Y1, Y1

// EXPSUM8 adds the eight float32 lanes of Y1 to the float64 sums in Y10
// and Y11, with Y2 and Y3 as scratch.
#define EXPSUM8 \
	VCVTPS2PD X1, Y2; \
	VADDPD Y2, Y10, Y10; \
	VEXTRACTF128 $1, Y1, X3; \
	VCVTPS2PD X3, Y3; \
	VADDPD Y3, Y11, Y11

// EXPSUMSTORED8 is EXPSUM8 for eight results just stored at DI: it
// converts them from memory, which spares port 5 the two conversions'
// lane crossing and the extraction (21.5 → 19.9 cycles a vector on a Xeon
// Sapphire Rapids core).
#define EXPSUMSTORED8 \
	VCVTPS2PD (DI), Y2; \
	VADDPD Y2, Y10, Y10; \
	VCVTPS2PD 16(DI), Y3; \
	VADDPD Y3, Y11, Y11

// func expShiftAVX2(out, x *float32, n int, shift float64) (sum float64)
//
// out[i] = e^(x[i]-shift) with shift a float32 value: x - shift is rounded
// to float32 as a, its rounding error lo recovered exactly (Knuth's
// two-sum; 0 where it is NaN, at infinities) and e^(x-shift) taken as
// e^a + e^a·lo (e^a where that is +∞). The sum adds the float32 results in float64.
TEXT ·expShiftAVX2(SB), NOSPLIT, $0-40
	EXPSHIFTLOOP8(EXPSHIFTF8)

// func expShiftBelowAVX2(out, x *float32, n int, shift float64) (sum float64)
//
// expShiftAVX2 for x[i] ≤ shift (softmax's row maximum), with its bits.
TEXT ·expShiftBelowAVX2(SB), NOSPLIT, $0-40
	EXPSHIFTLOOP8(EXPSHIFTLE8)
