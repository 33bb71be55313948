// AVX-512 kernels of the row maximum and ReLU of float32 arrays (the
// smooth activations and softmax's exponential are in
// activation_f32_avx512_amd64.s).

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_amd64.h"

DATA negInf32<>+0(SB)/4, $0xff800000
GLOBL negInf32<>(SB), RODATA|NOPTR, $4

// func maxAVX512(x *float32, n int) (m float32, nan bool)
TEXT ·maxAVX512(SB), NOSPLIT, $0-21
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS negInf32<>(SB), Z0
	VMOVAPS Z0, Z3
	KXORW K3, K3, K3

	MAXROW16(SI, Z0, Y0, X0, K3, Z3, Z1, Y1, X1, K1)
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
