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

// packLanes holds, for each 8-bit mask, the numbers of its set bits in
// increasing order, one byte each (the rest 0): the VPERMPS indices that
// move a vector's masked lanes to its front. The GEMM's sparse rows read
// it too (gemm_sparse_avx2_amd64.s).
DATA ·packLanes+0(SB)/8, $0x0000000000000000
DATA ·packLanes+8(SB)/8, $0x0000000000000000
DATA ·packLanes+16(SB)/8, $0x0000000000000001
DATA ·packLanes+24(SB)/8, $0x0000000000000100
DATA ·packLanes+32(SB)/8, $0x0000000000000002
DATA ·packLanes+40(SB)/8, $0x0000000000000200
DATA ·packLanes+48(SB)/8, $0x0000000000000201
DATA ·packLanes+56(SB)/8, $0x0000000000020100
DATA ·packLanes+64(SB)/8, $0x0000000000000003
DATA ·packLanes+72(SB)/8, $0x0000000000000300
DATA ·packLanes+80(SB)/8, $0x0000000000000301
DATA ·packLanes+88(SB)/8, $0x0000000000030100
DATA ·packLanes+96(SB)/8, $0x0000000000000302
DATA ·packLanes+104(SB)/8, $0x0000000000030200
DATA ·packLanes+112(SB)/8, $0x0000000000030201
DATA ·packLanes+120(SB)/8, $0x0000000003020100
DATA ·packLanes+128(SB)/8, $0x0000000000000004
DATA ·packLanes+136(SB)/8, $0x0000000000000400
DATA ·packLanes+144(SB)/8, $0x0000000000000401
DATA ·packLanes+152(SB)/8, $0x0000000000040100
DATA ·packLanes+160(SB)/8, $0x0000000000000402
DATA ·packLanes+168(SB)/8, $0x0000000000040200
DATA ·packLanes+176(SB)/8, $0x0000000000040201
DATA ·packLanes+184(SB)/8, $0x0000000004020100
DATA ·packLanes+192(SB)/8, $0x0000000000000403
DATA ·packLanes+200(SB)/8, $0x0000000000040300
DATA ·packLanes+208(SB)/8, $0x0000000000040301
DATA ·packLanes+216(SB)/8, $0x0000000004030100
DATA ·packLanes+224(SB)/8, $0x0000000000040302
DATA ·packLanes+232(SB)/8, $0x0000000004030200
DATA ·packLanes+240(SB)/8, $0x0000000004030201
DATA ·packLanes+248(SB)/8, $0x0000000403020100
DATA ·packLanes+256(SB)/8, $0x0000000000000005
DATA ·packLanes+264(SB)/8, $0x0000000000000500
DATA ·packLanes+272(SB)/8, $0x0000000000000501
DATA ·packLanes+280(SB)/8, $0x0000000000050100
DATA ·packLanes+288(SB)/8, $0x0000000000000502
DATA ·packLanes+296(SB)/8, $0x0000000000050200
DATA ·packLanes+304(SB)/8, $0x0000000000050201
DATA ·packLanes+312(SB)/8, $0x0000000005020100
DATA ·packLanes+320(SB)/8, $0x0000000000000503
DATA ·packLanes+328(SB)/8, $0x0000000000050300
DATA ·packLanes+336(SB)/8, $0x0000000000050301
DATA ·packLanes+344(SB)/8, $0x0000000005030100
DATA ·packLanes+352(SB)/8, $0x0000000000050302
DATA ·packLanes+360(SB)/8, $0x0000000005030200
DATA ·packLanes+368(SB)/8, $0x0000000005030201
DATA ·packLanes+376(SB)/8, $0x0000000503020100
DATA ·packLanes+384(SB)/8, $0x0000000000000504
DATA ·packLanes+392(SB)/8, $0x0000000000050400
DATA ·packLanes+400(SB)/8, $0x0000000000050401
DATA ·packLanes+408(SB)/8, $0x0000000005040100
DATA ·packLanes+416(SB)/8, $0x0000000000050402
DATA ·packLanes+424(SB)/8, $0x0000000005040200
DATA ·packLanes+432(SB)/8, $0x0000000005040201
DATA ·packLanes+440(SB)/8, $0x0000000504020100
DATA ·packLanes+448(SB)/8, $0x0000000000050403
DATA ·packLanes+456(SB)/8, $0x0000000005040300
DATA ·packLanes+464(SB)/8, $0x0000000005040301
DATA ·packLanes+472(SB)/8, $0x0000000504030100
DATA ·packLanes+480(SB)/8, $0x0000000005040302
DATA ·packLanes+488(SB)/8, $0x0000000504030200
DATA ·packLanes+496(SB)/8, $0x0000000504030201
DATA ·packLanes+504(SB)/8, $0x0000050403020100
DATA ·packLanes+512(SB)/8, $0x0000000000000006
DATA ·packLanes+520(SB)/8, $0x0000000000000600
DATA ·packLanes+528(SB)/8, $0x0000000000000601
DATA ·packLanes+536(SB)/8, $0x0000000000060100
DATA ·packLanes+544(SB)/8, $0x0000000000000602
DATA ·packLanes+552(SB)/8, $0x0000000000060200
DATA ·packLanes+560(SB)/8, $0x0000000000060201
DATA ·packLanes+568(SB)/8, $0x0000000006020100
DATA ·packLanes+576(SB)/8, $0x0000000000000603
DATA ·packLanes+584(SB)/8, $0x0000000000060300
DATA ·packLanes+592(SB)/8, $0x0000000000060301
DATA ·packLanes+600(SB)/8, $0x0000000006030100
DATA ·packLanes+608(SB)/8, $0x0000000000060302
DATA ·packLanes+616(SB)/8, $0x0000000006030200
DATA ·packLanes+624(SB)/8, $0x0000000006030201
DATA ·packLanes+632(SB)/8, $0x0000000603020100
DATA ·packLanes+640(SB)/8, $0x0000000000000604
DATA ·packLanes+648(SB)/8, $0x0000000000060400
DATA ·packLanes+656(SB)/8, $0x0000000000060401
DATA ·packLanes+664(SB)/8, $0x0000000006040100
DATA ·packLanes+672(SB)/8, $0x0000000000060402
DATA ·packLanes+680(SB)/8, $0x0000000006040200
DATA ·packLanes+688(SB)/8, $0x0000000006040201
DATA ·packLanes+696(SB)/8, $0x0000000604020100
DATA ·packLanes+704(SB)/8, $0x0000000000060403
DATA ·packLanes+712(SB)/8, $0x0000000006040300
DATA ·packLanes+720(SB)/8, $0x0000000006040301
DATA ·packLanes+728(SB)/8, $0x0000000604030100
DATA ·packLanes+736(SB)/8, $0x0000000006040302
DATA ·packLanes+744(SB)/8, $0x0000000604030200
DATA ·packLanes+752(SB)/8, $0x0000000604030201
DATA ·packLanes+760(SB)/8, $0x0000060403020100
DATA ·packLanes+768(SB)/8, $0x0000000000000605
DATA ·packLanes+776(SB)/8, $0x0000000000060500
DATA ·packLanes+784(SB)/8, $0x0000000000060501
DATA ·packLanes+792(SB)/8, $0x0000000006050100
DATA ·packLanes+800(SB)/8, $0x0000000000060502
DATA ·packLanes+808(SB)/8, $0x0000000006050200
DATA ·packLanes+816(SB)/8, $0x0000000006050201
DATA ·packLanes+824(SB)/8, $0x0000000605020100
DATA ·packLanes+832(SB)/8, $0x0000000000060503
DATA ·packLanes+840(SB)/8, $0x0000000006050300
DATA ·packLanes+848(SB)/8, $0x0000000006050301
DATA ·packLanes+856(SB)/8, $0x0000000605030100
DATA ·packLanes+864(SB)/8, $0x0000000006050302
DATA ·packLanes+872(SB)/8, $0x0000000605030200
DATA ·packLanes+880(SB)/8, $0x0000000605030201
DATA ·packLanes+888(SB)/8, $0x0000060503020100
DATA ·packLanes+896(SB)/8, $0x0000000000060504
DATA ·packLanes+904(SB)/8, $0x0000000006050400
DATA ·packLanes+912(SB)/8, $0x0000000006050401
DATA ·packLanes+920(SB)/8, $0x0000000605040100
DATA ·packLanes+928(SB)/8, $0x0000000006050402
DATA ·packLanes+936(SB)/8, $0x0000000605040200
DATA ·packLanes+944(SB)/8, $0x0000000605040201
DATA ·packLanes+952(SB)/8, $0x0000060504020100
DATA ·packLanes+960(SB)/8, $0x0000000006050403
DATA ·packLanes+968(SB)/8, $0x0000000605040300
DATA ·packLanes+976(SB)/8, $0x0000000605040301
DATA ·packLanes+984(SB)/8, $0x0000060504030100
DATA ·packLanes+992(SB)/8, $0x0000000605040302
DATA ·packLanes+1000(SB)/8, $0x0000060504030200
DATA ·packLanes+1008(SB)/8, $0x0000060504030201
DATA ·packLanes+1016(SB)/8, $0x0006050403020100
DATA ·packLanes+1024(SB)/8, $0x0000000000000007
DATA ·packLanes+1032(SB)/8, $0x0000000000000700
DATA ·packLanes+1040(SB)/8, $0x0000000000000701
DATA ·packLanes+1048(SB)/8, $0x0000000000070100
DATA ·packLanes+1056(SB)/8, $0x0000000000000702
DATA ·packLanes+1064(SB)/8, $0x0000000000070200
DATA ·packLanes+1072(SB)/8, $0x0000000000070201
DATA ·packLanes+1080(SB)/8, $0x0000000007020100
DATA ·packLanes+1088(SB)/8, $0x0000000000000703
DATA ·packLanes+1096(SB)/8, $0x0000000000070300
DATA ·packLanes+1104(SB)/8, $0x0000000000070301
DATA ·packLanes+1112(SB)/8, $0x0000000007030100
DATA ·packLanes+1120(SB)/8, $0x0000000000070302
DATA ·packLanes+1128(SB)/8, $0x0000000007030200
DATA ·packLanes+1136(SB)/8, $0x0000000007030201
DATA ·packLanes+1144(SB)/8, $0x0000000703020100
DATA ·packLanes+1152(SB)/8, $0x0000000000000704
DATA ·packLanes+1160(SB)/8, $0x0000000000070400
DATA ·packLanes+1168(SB)/8, $0x0000000000070401
DATA ·packLanes+1176(SB)/8, $0x0000000007040100
DATA ·packLanes+1184(SB)/8, $0x0000000000070402
DATA ·packLanes+1192(SB)/8, $0x0000000007040200
DATA ·packLanes+1200(SB)/8, $0x0000000007040201
DATA ·packLanes+1208(SB)/8, $0x0000000704020100
DATA ·packLanes+1216(SB)/8, $0x0000000000070403
DATA ·packLanes+1224(SB)/8, $0x0000000007040300
DATA ·packLanes+1232(SB)/8, $0x0000000007040301
DATA ·packLanes+1240(SB)/8, $0x0000000704030100
DATA ·packLanes+1248(SB)/8, $0x0000000007040302
DATA ·packLanes+1256(SB)/8, $0x0000000704030200
DATA ·packLanes+1264(SB)/8, $0x0000000704030201
DATA ·packLanes+1272(SB)/8, $0x0000070403020100
DATA ·packLanes+1280(SB)/8, $0x0000000000000705
DATA ·packLanes+1288(SB)/8, $0x0000000000070500
DATA ·packLanes+1296(SB)/8, $0x0000000000070501
DATA ·packLanes+1304(SB)/8, $0x0000000007050100
DATA ·packLanes+1312(SB)/8, $0x0000000000070502
DATA ·packLanes+1320(SB)/8, $0x0000000007050200
DATA ·packLanes+1328(SB)/8, $0x0000000007050201
DATA ·packLanes+1336(SB)/8, $0x0000000705020100
DATA ·packLanes+1344(SB)/8, $0x0000000000070503
DATA ·packLanes+1352(SB)/8, $0x0000000007050300
DATA ·packLanes+1360(SB)/8, $0x0000000007050301
DATA ·packLanes+1368(SB)/8, $0x0000000705030100
DATA ·packLanes+1376(SB)/8, $0x0000000007050302
DATA ·packLanes+1384(SB)/8, $0x0000000705030200
DATA ·packLanes+1392(SB)/8, $0x0000000705030201
DATA ·packLanes+1400(SB)/8, $0x0000070503020100
DATA ·packLanes+1408(SB)/8, $0x0000000000070504
DATA ·packLanes+1416(SB)/8, $0x0000000007050400
DATA ·packLanes+1424(SB)/8, $0x0000000007050401
DATA ·packLanes+1432(SB)/8, $0x0000000705040100
DATA ·packLanes+1440(SB)/8, $0x0000000007050402
DATA ·packLanes+1448(SB)/8, $0x0000000705040200
DATA ·packLanes+1456(SB)/8, $0x0000000705040201
DATA ·packLanes+1464(SB)/8, $0x0000070504020100
DATA ·packLanes+1472(SB)/8, $0x0000000007050403
DATA ·packLanes+1480(SB)/8, $0x0000000705040300
DATA ·packLanes+1488(SB)/8, $0x0000000705040301
DATA ·packLanes+1496(SB)/8, $0x0000070504030100
DATA ·packLanes+1504(SB)/8, $0x0000000705040302
DATA ·packLanes+1512(SB)/8, $0x0000070504030200
DATA ·packLanes+1520(SB)/8, $0x0000070504030201
DATA ·packLanes+1528(SB)/8, $0x0007050403020100
DATA ·packLanes+1536(SB)/8, $0x0000000000000706
DATA ·packLanes+1544(SB)/8, $0x0000000000070600
DATA ·packLanes+1552(SB)/8, $0x0000000000070601
DATA ·packLanes+1560(SB)/8, $0x0000000007060100
DATA ·packLanes+1568(SB)/8, $0x0000000000070602
DATA ·packLanes+1576(SB)/8, $0x0000000007060200
DATA ·packLanes+1584(SB)/8, $0x0000000007060201
DATA ·packLanes+1592(SB)/8, $0x0000000706020100
DATA ·packLanes+1600(SB)/8, $0x0000000000070603
DATA ·packLanes+1608(SB)/8, $0x0000000007060300
DATA ·packLanes+1616(SB)/8, $0x0000000007060301
DATA ·packLanes+1624(SB)/8, $0x0000000706030100
DATA ·packLanes+1632(SB)/8, $0x0000000007060302
DATA ·packLanes+1640(SB)/8, $0x0000000706030200
DATA ·packLanes+1648(SB)/8, $0x0000000706030201
DATA ·packLanes+1656(SB)/8, $0x0000070603020100
DATA ·packLanes+1664(SB)/8, $0x0000000000070604
DATA ·packLanes+1672(SB)/8, $0x0000000007060400
DATA ·packLanes+1680(SB)/8, $0x0000000007060401
DATA ·packLanes+1688(SB)/8, $0x0000000706040100
DATA ·packLanes+1696(SB)/8, $0x0000000007060402
DATA ·packLanes+1704(SB)/8, $0x0000000706040200
DATA ·packLanes+1712(SB)/8, $0x0000000706040201
DATA ·packLanes+1720(SB)/8, $0x0000070604020100
DATA ·packLanes+1728(SB)/8, $0x0000000007060403
DATA ·packLanes+1736(SB)/8, $0x0000000706040300
DATA ·packLanes+1744(SB)/8, $0x0000000706040301
DATA ·packLanes+1752(SB)/8, $0x0000070604030100
DATA ·packLanes+1760(SB)/8, $0x0000000706040302
DATA ·packLanes+1768(SB)/8, $0x0000070604030200
DATA ·packLanes+1776(SB)/8, $0x0000070604030201
DATA ·packLanes+1784(SB)/8, $0x0007060403020100
DATA ·packLanes+1792(SB)/8, $0x0000000000070605
DATA ·packLanes+1800(SB)/8, $0x0000000007060500
DATA ·packLanes+1808(SB)/8, $0x0000000007060501
DATA ·packLanes+1816(SB)/8, $0x0000000706050100
DATA ·packLanes+1824(SB)/8, $0x0000000007060502
DATA ·packLanes+1832(SB)/8, $0x0000000706050200
DATA ·packLanes+1840(SB)/8, $0x0000000706050201
DATA ·packLanes+1848(SB)/8, $0x0000070605020100
DATA ·packLanes+1856(SB)/8, $0x0000000007060503
DATA ·packLanes+1864(SB)/8, $0x0000000706050300
DATA ·packLanes+1872(SB)/8, $0x0000000706050301
DATA ·packLanes+1880(SB)/8, $0x0000070605030100
DATA ·packLanes+1888(SB)/8, $0x0000000706050302
DATA ·packLanes+1896(SB)/8, $0x0000070605030200
DATA ·packLanes+1904(SB)/8, $0x0000070605030201
DATA ·packLanes+1912(SB)/8, $0x0007060503020100
DATA ·packLanes+1920(SB)/8, $0x0000000007060504
DATA ·packLanes+1928(SB)/8, $0x0000000706050400
DATA ·packLanes+1936(SB)/8, $0x0000000706050401
DATA ·packLanes+1944(SB)/8, $0x0000070605040100
DATA ·packLanes+1952(SB)/8, $0x0000000706050402
DATA ·packLanes+1960(SB)/8, $0x0000070605040200
DATA ·packLanes+1968(SB)/8, $0x0000070605040201
DATA ·packLanes+1976(SB)/8, $0x0007060504020100
DATA ·packLanes+1984(SB)/8, $0x0000000706050403
DATA ·packLanes+1992(SB)/8, $0x0000070605040300
DATA ·packLanes+2000(SB)/8, $0x0000070605040301
DATA ·packLanes+2008(SB)/8, $0x0007060504030100
DATA ·packLanes+2016(SB)/8, $0x0000070605040302
DATA ·packLanes+2024(SB)/8, $0x0007060504030200
DATA ·packLanes+2032(SB)/8, $0x0007060504030201
DATA ·packLanes+2040(SB)/8, $0x0706050403020100
GLOBL ·packLanes(SB), RODATA|NOPTR, $2048

// COMPRESSSLOW8 appends the lanes of Y0 set in the mask AX (and R8 plus
// their lane numbers) to slowX (R12) and slowIdx (R11) at R10, which it
// advances: a VPERMPS by packLanes moves them to the front, and all eight
// lanes are stored, those past the count to be overwritten, so the
// buffers need room for eight. BX, DX and Y3 to Y5 are scratch.
#define COMPRESSSLOW8 \
	LEAQ ·packLanes(SB), BX; \
	VPMOVZXBD (BX)(AX*8), Y5; \
	VPERMPS Y0, Y5, Y4; \
	VMOVUPS Y4, (R12)(R10*4); \
	VPERMD fIOTA(R9), Y5, Y4; \
	MOVL R8, DX; \
	VMOVD DX, X3; \
	VPBROADCASTD X3, Y3; \
	VPADDD Y3, Y4, Y4; \
	VMOVDQU Y4, (R11)(R10*4); \
	POPCNTL AX, AX; \
	ADDQ AX, R10

// FASTLOOP8(FAST, LO) is the body of the fast GELU kernels: FAST on eight
// lanes at a time, storing its results, and appending each lane below LO
// (or NaN) to the buffers (COMPRESSSLOW8) instead, until n or until the buffers
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
	COMPRESSSLOW8; \
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
	COMPRESSSLOW8; \
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

// func softmaxKeptAVX2(out, x *float32, size, rows int, kept *int) (done int)
//
// softmaxKeptAVX512 eight lanes at a time, with the bits of maxAVX2,
// expShiftBelowAVX2 and mulScalarAVX2. The row's maximum is kept in X7,
// its NaN lanes in Y8 and the pending row's float32(1/sum) in Y9; DX holds
// the row's count n, R12 the row above's while it waits for its scaling
// (0: none) and R11 where that row starts in out.
TEXT ·softmaxKeptAVX2(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), R10
	MOVQ x+8(FP), SI
	MOVQ size+16(FP), R13
	SHLQ $2, R13
	MOVQ kept+32(FP), R14
	LEAQ f32Const<>(SB), R9
	VMOVUPS fEXPLO(R9), Y14
	VMOVUPS fEXPHI(R9), Y15
	XORQ R15, R15
	XORQ R12, R12

snextmax:
	CMPQ R15, rows+24(FP)
	JGE  spending
	MOVQ size+16(FP), DX
	TESTQ R14, R14
	JEQ  smax
	MOVQ (R14)(R15*8), DX

smax:
	MOVQ SI, R8
	MOVQ DX, CX
	VMOVUPS fINF(R9), Y3
	VXORPS fSIGN(R9), Y3, Y3 // -∞
	VMOVAPS Y3, Y7
	VXORPS Y8, Y8, Y8

	MAXROW8(R8, Y7, X7, Y8, Y3, Y1, X1, Y2)

spending:
	TESTQ R12, R12
	JEQ   scheck
	MOVQ  R12, CX
	XORQ  R12, R12

sscaleloop:
	CMPQ CX, $8
	JL   sscaletail
	VMOVUPS (R11), Y0
	VMULPS Y9, Y0, Y0
	VMOVUPS Y0, (R11)
	ADDQ $32, R11
	SUBQ $8, CX
	JMP  sscaleloop

sscaletail:
	TESTQ CX, CX
	JEQ   scheck
	TAILMASK8(Y13)
	VMASKMOVPS (R11), Y13, Y0
	VMULPS Y9, Y0, Y0
	VMASKMOVPS Y0, Y13, (R11)

scheck:
	CMPQ R15, rows+24(FP)
	JGE  sdone
	VMOVMSKPS Y8, AX
	TESTL AX, AX
	JNE  sdone
	JINF32(X7, sdone)

	VBROADCASTSS X7, Y12
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	MOVQ SI, R8
	MOVQ R10, DI
	MOVQ DX, CX

sexploop:
	CMPQ CX, $8
	JL   sexptail
	VMOVUPS (R8), Y0
	EXPSHIFTLE8
	VMOVUPS Y1, (DI)
	EXPSUMSTORED8
	ADDQ $32, R8
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  sexploop

sexptail:
	TESTQ CX, CX
	JEQ   ssum
	TAILMASK8(Y13)
	VMASKMOVPS (R8), Y13, Y0
	EXPSHIFTF8
	VANDPS Y13, Y1, Y1
	EXPSUM8
	VMASKMOVPS Y1, Y13, (DI)

ssum:
	VADDPD Y11, Y10, Y0
	HSUMPD4
	RECIPF32(X0, X1)
	VBROADCASTSS X1, Y9
	MOVQ R10, R11
	MOVQ DX, R12
	ADDQ R13, SI
	ADDQ R13, R10
	INCQ R15
	JMP  snextmax

sdone:
	MOVQ R15, done+40(FP)
	VZEROUPPER
	RET
