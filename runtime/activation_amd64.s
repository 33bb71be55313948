// AVX-512 activation kernels: the exact GELU, sigmoid and tanh of float32
// arrays, computed in float64 eight lanes at a time with the formulas of
// activation.go (erfc of Numerical Recipes, e^x as 2^n·e^r with a degree-10
// Taylor polynomial for e^r and VSCALEFPD for 2^n). The last n%8 elements
// go through the same code under a mask.

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_amd64.h"

DATA actConst<>+0(SB)/8, $0x3fe0000000000000 // 0: 0.5
DATA actConst<>+8(SB)/8, $0x3ff0000000000000 // 1: 1
DATA actConst<>+16(SB)/8, $0x4000000000000000 // 2: 2
DATA actConst<>+24(SB)/8, $0xbfe6a09e667f3bcd // 3: -1/sqrt2
DATA actConst<>+32(SB)/8, $0x7fffffffffffffff // 4: abs mask
DATA actConst<>+40(SB)/8, $0x4044000000000000 // 5: erfc z cap
DATA actConst<>+48(SB)/8, $0xc087500000000000 // 6: exp arg min
DATA actConst<>+56(SB)/8, $0x4086300000000000 // 7: exp arg max
DATA actConst<>+64(SB)/8, $0x3ff71547652b82fe // 8: log2 e
DATA actConst<>+72(SB)/8, $0x3fe62e42fee00000 // 9: ln2 hi
DATA actConst<>+80(SB)/8, $0x3dea39ef35793c76 // 10: ln2 lo
DATA actConst<>+88(SB)/8, $0xbff43f89c0889bc5 // 11: erfc c0
DATA actConst<>+96(SB)/8, $0x3ff00018d48d3588 // 12: erfc c1
DATA actConst<>+104(SB)/8, $0x3fd7f11f677960ea // 13: erfc c2
DATA actConst<>+112(SB)/8, $0x3fb8c6d917dec3f0 // 14: erfc c3
DATA actConst<>+120(SB)/8, $0xbfc7d84982aaeaa5 // 15: erfc c4
DATA actConst<>+128(SB)/8, $0x3fd1d8f976231ce6 // 16: erfc c5
DATA actConst<>+136(SB)/8, $0xbff229cba6063980 // 17: erfc c6
DATA actConst<>+144(SB)/8, $0x3ff7d0f60453a1be // 18: erfc c7
DATA actConst<>+152(SB)/8, $0xbfea4f123185defd // 19: erfc c8
DATA actConst<>+160(SB)/8, $0x3fc5df28af76a5a4 // 20: erfc c9
DATA actConst<>+168(SB)/8, $0x3fe0000000000000 // 21: 1/2!
DATA actConst<>+176(SB)/8, $0x3fc5555555555555 // 22: 1/3!
DATA actConst<>+184(SB)/8, $0x3fa5555555555555 // 23: 1/4!
DATA actConst<>+192(SB)/8, $0x3f81111111111111 // 24: 1/5!
DATA actConst<>+200(SB)/8, $0x3f56c16c16c16c17 // 25: 1/6!
DATA actConst<>+208(SB)/8, $0x3f2a01a01a01a01a // 26: 1/7!
DATA actConst<>+216(SB)/8, $0x3efa01a01a01a01a // 27: 1/8!
DATA actConst<>+224(SB)/8, $0x3ec71de3a556c734 // 28: 1/9!
DATA actConst<>+232(SB)/8, $0x3e927e4fb7789f5c // 29: 1/10!
DATA actConst<>+240(SB)/8, $0x8000000000000000 // 30: sign mask
DATA actConst<>+248(SB)/8, $0x3f80000000000000 // 31: tanh small
DATA actConst<>+256(SB)/8, $0xbfd5555555555555 // 32: tanh t3
DATA actConst<>+264(SB)/8, $0x3fc1111111111111 // 33: tanh t5
DATA actConst<>+272(SB)/8, $0xbfaba1ba1ba1ba1c // 34: tanh t7
DATA actConst<>+280(SB)/8, $0x3fa6e4e26d4801f7 // 35: 0.044715
DATA actConst<>+288(SB)/8, $0x3ff9884533d43651 // 36: 2·√(2/π)
GLOBL actConst<>(SB), RODATA|NOPTR, $296

// EXPPD sets A = e^A (NaN stays NaN; below -746 it is 0, above 710 +Inf)
// using N and R as scratch; R8 points at actConst, Z30 and Z31 hold the
// clamp bounds -746 and 710 (kept in registers so that a NaN passes
// through the clamp).
#define EXPPD(A, N, R) \
	VMAXPD A, Z30, A; \
	VMINPD A, Z31, A; \
	VMULPD.BCST 64(R8), A, N; \
	VRNDSCALEPD $8, N, N; \
	VMOVAPD A, R; \
	VFNMADD231PD.BCST 72(R8), N, R; \
	VFNMADD231PD.BCST 80(R8), N, R; \
	VBROADCASTSD 232(R8), A; \
	VFMADD213PD.BCST 224(R8), R, A; \
	VFMADD213PD.BCST 216(R8), R, A; \
	VFMADD213PD.BCST 208(R8), R, A; \
	VFMADD213PD.BCST 200(R8), R, A; \
	VFMADD213PD.BCST 192(R8), R, A; \
	VFMADD213PD.BCST 184(R8), R, A; \
	VFMADD213PD.BCST 176(R8), R, A; \
	VFMADD213PD.BCST 168(R8), R, A; \
	VFMADD213PD.BCST 8(R8), R, A; \
	VFMADD213PD.BCST 8(R8), R, A; \
	VSCALEFPD N, A, A

// GELU8 sets Z0 = 0.5·x·erfc(-x/√2) for x in Z0.
#define GELU8 \
	VMULPD.BCST 24(R8), Z0, Z1; \
	VANDPD.BCST 32(R8), Z1, Z2; \
	VMINPD.BCST 40(R8), Z2, Z2; \
	VBROADCASTSD 8(R8), Z3; \
	VFMADD231PD.BCST 0(R8), Z2, Z3; \
	VRCP14PD Z3, Z4; \
	VBROADCASTSD 8(R8), Z5; \
	VFNMADD231PD Z4, Z3, Z5; \
	VFMADD231PD Z5, Z4, Z4; \
	VBROADCASTSD 8(R8), Z5; \
	VFNMADD231PD Z4, Z3, Z5; \
	VFMADD231PD Z5, Z4, Z4; \
	VMULPD Z4, Z4, Z5; \
	VMULPD Z5, Z5, Z6; \
	VBROADCASTSD 96(R8), Z7; \
	VFMADD213PD.BCST 88(R8), Z4, Z7; \
	VBROADCASTSD 112(R8), Z8; \
	VFMADD213PD.BCST 104(R8), Z4, Z8; \
	VBROADCASTSD 128(R8), Z9; \
	VFMADD213PD.BCST 120(R8), Z4, Z9; \
	VBROADCASTSD 144(R8), Z10; \
	VFMADD213PD.BCST 136(R8), Z4, Z10; \
	VBROADCASTSD 160(R8), Z11; \
	VFMADD213PD.BCST 152(R8), Z4, Z11; \
	VFMADD231PD Z8, Z5, Z7; \
	VFMADD231PD Z10, Z5, Z9; \
	VFMADD231PD Z11, Z6, Z9; \
	VFMADD231PD Z9, Z6, Z7; \
	VFNMADD231PD Z2, Z2, Z7; \
	EXPPD(Z7, Z8, Z9); \
	VMULPD Z7, Z4, Z7; \
	VXORPD Z8, Z8, Z8; \
	VCMPPD $1, Z8, Z1, K1; \
	VBROADCASTSD 16(R8), Z9; \
	VSUBPD Z7, Z9, K1, Z7; \
	VMULPD.BCST 0(R8), Z0, Z0; \
	VMULPD Z7, Z0, Z0

// SIGMOID8 sets Z0 = 1/(1+e^-x) for x in Z0.
#define SIGMOID8 \
	VXORPD.BCST 240(R8), Z0, Z0; \
	EXPPD(Z0, Z1, Z2); \
	VADDPD.BCST 8(R8), Z0, Z0; \
	VBROADCASTSD 8(R8), Z1; \
	VDIVPD Z0, Z1, Z0

// SILU8 sets Z0 = x/(1+e^-x) for x in Z0, as x·sigmoid(x).
#define SILU8 \
	VMOVAPD Z0, Z20; \
	SIGMOID8; \
	VMULPD Z20, Z0, Z0

// GELUTANH8 sets Z0 to the tanh approximation of GELU for x in Z0,
// 0.5·x·(1+tanh(u)) with u = √(2/π)·x·(1+0.044715x²), computed as
// x·sigmoid(2u), which does not cancel where tanh(u) is near -1.
#define GELUTANH8 \
	VMOVAPD Z0, Z20; \
	VMULPD Z0, Z0, Z1; \
	VMULPD.BCST 280(R8), Z1, Z1; \
	VADDPD.BCST 8(R8), Z1, Z1; \
	VMULPD Z20, Z1, Z1; \
	VMULPD.BCST 288(R8), Z1, Z0; \
	SIGMOID8; \
	VMULPD Z20, Z0, Z0

// TANH8 sets Z0 = tanh(x) for x in Z0: 1-2/(1+e^{2|x|}) with the sign of
// x, and x(1 + x²(-1/3 + x²(2/15 - 17x²/315))) where |x| < 2^-7.
#define TANH8 \
	VANDPD.BCST 32(R8), Z0, Z1; \
	VADDPD Z1, Z1, Z2; \
	EXPPD(Z2, Z3, Z4); \
	VADDPD.BCST 8(R8), Z2, Z2; \
	VBROADCASTSD 16(R8), Z3; \
	VDIVPD Z2, Z3, Z3; \
	VBROADCASTSD 8(R8), Z2; \
	VSUBPD Z3, Z2, Z2; \
	VANDPD.BCST 240(R8), Z0, Z3; \
	VXORPD Z3, Z2, Z2; \
	VCMPPD.BCST $1, 248(R8), Z1, K1; \
	VMULPD Z0, Z0, Z4; \
	VBROADCASTSD 272(R8), Z5; \
	VFMADD213PD.BCST 264(R8), Z4, Z5; \
	VFMADD213PD.BCST 256(R8), Z4, Z5; \
	VFMADD213PD.BCST 8(R8), Z4, Z5; \
	VMULPD Z5, Z0, K1, Z2; \
	VMOVAPD Z2, Z0

// ACTLOOP runs BODY over n float32s: eight at a time, then the rest under
// the mask K2.
#define ACTLOOP(BODY) \
	MOVQ out+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	LEAQ actConst<>(SB), R8; \
	VBROADCASTSD 48(R8), Z30; \
	VBROADCASTSD 56(R8), Z31; \
loop: \
	CMPQ CX, $8; \
	JL tail; \
	VCVTPS2PD (SI), Z0; \
	BODY; \
	VCVTPD2PS Z0, Y0; \
	VMOVUPS Y0, (DI); \
	ADDQ $32, SI; \
	ADDQ $32, DI; \
	SUBQ $8, CX; \
	JMP loop; \
tail: \
	TESTQ CX, CX; \
	JEQ done; \
	TAILMASK(K2); \
	VCVTPS2PD.Z (SI), K2, Z0; \
	BODY; \
	VCVTPD2PS Z0, Y0; \
	VMOVUPS Y0, K2, (DI); \
done: \
	VZEROUPPER; \
	RET

// func geluAVX512(out, x *float32, n int)
TEXT ·geluAVX512(SB), NOSPLIT, $0-24
	ACTLOOP(GELU8)

// func sigmoidAVX512(out, x *float32, n int)
TEXT ·sigmoidAVX512(SB), NOSPLIT, $0-24
	ACTLOOP(SIGMOID8)

// func tanhAVX512(out, x *float32, n int)
TEXT ·tanhAVX512(SB), NOSPLIT, $0-24
	ACTLOOP(TANH8)

// func siluAVX512(out, x *float32, n int)
TEXT ·siluAVX512(SB), NOSPLIT, $0-24
	ACTLOOP(SILU8)

// func geluTanhAVX512(out, x *float32, n int)
TEXT ·geluTanhAVX512(SB), NOSPLIT, $0-24
	ACTLOOP(GELUTANH8)

// func expShiftAVX512(out, x *float32, n int, shift float64) (sum float64)
TEXT ·expShiftAVX512(SB), NOSPLIT, $0-40
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	LEAQ actConst<>(SB), R8
	VBROADCASTSD 48(R8), Z30
	VBROADCASTSD 56(R8), Z31
	VBROADCASTSD shift+24(FP), Z28
	VXORPD Z29, Z29, Z29

loop:
	CMPQ CX, $8
	JL   tail
	VCVTPS2PD (SI), Z0
	VSUBPD Z28, Z0, Z0
	EXPPD(Z0, Z1, Z2)
	VADDPD Z0, Z29, Z29
	VCVTPD2PS Z0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  loop

tail:
	TESTQ CX, CX
	JEQ   sum
	TAILMASK(K2)
	VCVTPS2PD.Z (SI), K2, Z0
	VSUBPD Z28, Z0, Z0
	EXPPD(Z0, Z1, Z2)
	VADDPD Z0, Z29, K2, Z29
	VCVTPD2PS Z0, Y0
	VMOVUPS Y0, K2, (DI)

sum:
	VMOVAPD Z29, Z0
	HSUMPD0
	MOVSD X0, sum+32(FP)
	VZEROUPPER
	RET

DATA negInf32<>+0(SB)/4, $0xff800000
GLOBL negInf32<>(SB), RODATA|NOPTR, $4

// func maxAVX512(x *float32, n int) (m float32, nan bool)
TEXT ·maxAVX512(SB), NOSPLIT, $0-21
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS negInf32<>(SB), Z0
	VMOVAPS Z0, Z3
	KXORW K3, K3, K3

maxloop:
	CMPQ CX, $16
	JL   maxtail
	VMOVUPS (SI), Z1
	VMAXPS Z1, Z0, Z0
	VCMPPS $3, Z1, Z1, K1
	KORW K1, K3, K3
	ADDQ $64, SI
	SUBQ $16, CX
	JMP  maxloop

maxtail:
	TESTQ CX, CX
	JEQ   maxreduce
	TAILMASK(K2)
	VMOVAPS Z3, Z1
	VMOVUPS (SI), K2, Z1
	VMAXPS Z1, Z0, Z0
	VCMPPS $3, Z1, Z1, K1
	KORW K1, K3, K3

maxreduce:
	VEXTRACTF32X8 $1, Z0, Y1
	VMAXPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VMAXPS X1, X0, X0
	MOVSS X0, m+16(FP)
	KORTESTW K3, K3
	SETNE nan+20(FP)
	VZEROUPPER
	RET

// func reluAVX512(out, x *float32, n int)
// VMAXPS returns its second source when either is NaN, so x's NaNs and -0
// pass through, as in the portable loop.
TEXT ·reluAVX512(SB), NOSPLIT, $0-24
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VXORPS Z1, Z1, Z1

reluloop:
	CMPQ CX, $32
	JL   relutail16
	VMOVUPS (SI), Z2
	VMOVUPS 64(SI), Z3
	VMAXPS Z2, Z1, Z2
	VMAXPS Z3, Z1, Z3
	VMOVUPS Z2, (DI)
	VMOVUPS Z3, 64(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  reluloop

relutail16:
	CMPQ CX, $16
	JL   relutail
	VMOVUPS (SI), Z2
	VMAXPS Z2, Z1, Z2
	VMOVUPS Z2, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $16, CX

relutail:
	TESTQ CX, CX
	JEQ   reludone
	TAILMASK(K2)
	VMOVUPS.Z (SI), K2, Z2
	VMAXPS Z2, Z1, Z2
	VMOVUPS Z2, K2, (DI)

reludone:
	VZEROUPPER
	RET
