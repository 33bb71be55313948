// AVX2 kernels of the row maximum and ReLU of float32 arrays (the smooth
// activations and softmax's exponential are in
// activation_f32_avx2_amd64.s).

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_avx2_amd64.h"

DATA avx2NegInf32<>+0(SB)/4, $0xff800000
GLOBL avx2NegInf32<>(SB), RODATA|NOPTR, $4

// func maxAVX2(x *float32, n int) (m float32, nan bool)
TEXT ·maxAVX2(SB), NOSPLIT, $0-21
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS avx2NegInf32<>(SB), Y0
	VMOVAPS Y0, Y3
	VXORPS Y4, Y4, Y4

	MAXROW8(SI, Y0, X0, Y4, Y3, Y1, X1, Y2)
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
