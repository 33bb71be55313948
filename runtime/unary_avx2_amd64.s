// AVX2 kernels of the unary maps Hardswish, Hardsigmoid, Abs and Sqrt.

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_avx2_amd64.h"

// UNARYLOOP runs OP(R) over n floats from SI to DI: sixteen at a time,
// then eight, then a masked tail. OP works in place on its register and may
// use Y1-Y4 (constants set by the caller) and Y12 as scratch.
#define UNARYLOOP(OP) \
loop:                  \
	CMPQ    CX, $16     \
	JL      tail8       \
	VMOVUPS (SI), Y5    \
	VMOVUPS 32(SI), Y6  \
	OP(Y5)              \
	OP(Y6)              \
	VMOVUPS Y5, (DI)    \
	VMOVUPS Y6, 32(DI)  \
	ADDQ    $64, SI     \
	ADDQ    $64, DI     \
	SUBQ    $16, CX     \
	JMP     loop        \
tail8:                 \
	CMPQ    CX, $8      \
	JL      tail        \
	VMOVUPS (SI), Y5    \
	OP(Y5)              \
	VMOVUPS Y5, (DI)    \
	ADDQ    $32, SI     \
	ADDQ    $32, DI     \
	SUBQ    $8, CX      \
tail:                  \
	TESTQ      CX, CX   \
	JEQ        done     \
	TAILMASK8(Y13)      \
	VMASKMOVPS (SI), Y13, Y5 \
	OP(Y5)              \
	VMASKMOVPS Y5, Y13, (DI) \
done:                  \
	VZEROUPPER          \
	RET

// RELU6SHIFTED(R) sets R = min(max(R+3, 0), 6) as the portable loops do:
// VMAXPS and VMINPS return their second source, R, when it is NaN.
// Y1 = 3, Y2 = 0, Y3 = 6.
#define RELU6SHIFTED(R) \
	VADDPS Y1, R, R \
	VMAXPS R, Y2, R \
	VMINPS R, Y3, R

// HARDSWISH(R) sets R = R·relu6(R+3)/6, multiplying before dividing.
#define HARDSWISH(R) \
	VMOVAPS R, Y12  \
	RELU6SHIFTED(R) \
	VMULPS  Y12, R, R \
	VDIVPS  Y3, R, R

// HARDSIGMOID(R) sets R = relu6(R+3)/6.
#define HARDSIGMOID(R) \
	RELU6SHIFTED(R) \
	VDIVPS Y3, R, R

// ABS(R) clears the sign bits of R (Y4 = 0x7fffffff).
#define ABS(R) VANDPS Y4, R, R

// SQRT(R) sets R = √R, rounded once as the portable loop's float64 square
// root rounded to float32.
#define SQRT(R) VSQRTPS R, R

#define UNARYARGS \
	MOVQ         out+0(FP), DI \
	MOVQ         x+8(FP), SI   \
	MOVQ         n+16(FP), CX  \
	MOVL         $0x40400000, AX \
	MOVL         AX, X1        \
	VBROADCASTSS X1, Y1        \
	VXORPS       Y2, Y2, Y2    \
	MOVL         $0x40c00000, AX \
	MOVL         AX, X3        \
	VBROADCASTSS X3, Y3        \
	MOVL         $0x7fffffff, AX \
	MOVL         AX, X4        \
	VBROADCASTSS X4, Y4

// func hardswishAVX2(out, x *float32, n int)
TEXT ·hardswishAVX2(SB), NOSPLIT, $0-24
	UNARYARGS
	UNARYLOOP(HARDSWISH)

// func hardsigmoidAVX2(out, x *float32, n int)
TEXT ·hardsigmoidAVX2(SB), NOSPLIT, $0-24
	UNARYARGS
	UNARYLOOP(HARDSIGMOID)

// func absAVX2(out, x *float32, n int)
TEXT ·absAVX2(SB), NOSPLIT, $0-24
	UNARYARGS
	UNARYLOOP(ABS)

// func sqrtAVX2(out, x *float32, n int)
TEXT ·sqrtAVX2(SB), NOSPLIT, $0-24
	UNARYARGS
	UNARYLOOP(SQRT)
