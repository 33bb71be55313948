// AVX-512 kernel of the direct convolution: sixteen output channels by
// sixteen output pixels (one ZMM register a channel), summed over every
// (input channel, kernel row, kernel column) straight from the
// zero-padded input, as the AVX2 kernel does for six channels.

//go:build amd64 && !noasm

#include "textflag.h"

// CONV16 adds w[o, kk]·(the sixteen input floats in Z0) to the
// accumulators Z16..Z31 of the sixteen channels, each weight broadcast
// from memory: R8, R9, R11 and R12 point at w[o0, kk], w[o0+4, kk],
// w[o0+8, kk] and w[o0+12, kk]; R10 is the stride of w's rows in bytes
// and R13 three times it.
#define CONV16 \
	VFMADD231PS.BCST (R8), Z0, Z16; \
	VFMADD231PS.BCST (R8)(R10*1), Z0, Z17; \
	VFMADD231PS.BCST (R8)(R10*2), Z0, Z18; \
	VFMADD231PS.BCST (R8)(R13*1), Z0, Z19; \
	VFMADD231PS.BCST (R9), Z0, Z20; \
	VFMADD231PS.BCST (R9)(R10*1), Z0, Z21; \
	VFMADD231PS.BCST (R9)(R10*2), Z0, Z22; \
	VFMADD231PS.BCST (R9)(R13*1), Z0, Z23; \
	VFMADD231PS.BCST (R11), Z0, Z24; \
	VFMADD231PS.BCST (R11)(R10*1), Z0, Z25; \
	VFMADD231PS.BCST (R11)(R10*2), Z0, Z26; \
	VFMADD231PS.BCST (R11)(R13*1), Z0, Z27; \
	VFMADD231PS.BCST (R12), Z0, Z28; \
	VFMADD231PS.BCST (R12)(R10*1), Z0, Z29; \
	VFMADD231PS.BCST (R12)(R10*2), Z0, Z30; \
	VFMADD231PS.BCST (R12)(R13*1), Z0, Z31; \
	ADDQ             $4, SI; \
	ADDQ             $4, R8; \
	ADDQ             $4, R9; \
	ADDQ             $4, R11; \
	ADDQ             $4, R12

// WIDESTEP loads the sixteen consecutive input floats at the offset of kk
// (the two halves of eight are adjacent) and adds them in.
#define WIDESTEP \
	MOVLQSX (SI), AX; \
	VMOVUPS (BX)(AX*1), Z0; \
	CONV16

// PAIRSTEP loads the two halves of eight input floats at the offset of kk
// from BX and DX (two output rows) into Z0 and adds them in.
#define PAIRSTEP \
	MOVLQSX      (SI), AX; \
	VMOVUPS      (BX)(AX*1), Y0; \
	VINSERTF64X4 $1, (DX)(AX*1), Z0, Z0; \
	CONV16

// CONVBIAS16 adds the bias of channel OFF/4 to ZA.
#define CONVBIAS16(OFF, ZA) \
	VADDPS.BCST OFF(R13), ZA, ZA

// CONVRELU16 applies max(0, ·) to ZA, keeping NaN (VMAXPS returns its
// second source when either is NaN); Z2 is zero.
#define CONVRELU16(ZA) \
	VMAXPS ZA, Z2, ZA

// CONVSTORE16 stores channel ZA's first eight lanes at DI under K1 and
// its last eight at DI+R11 under K2 (through Z1).
#define CONVSTORE16(ZA) \
	VMOVUPS       ZA, K1, (DI); \
	VEXTRACTF64X4 $1, ZA, Y1; \
	VMOVUPS       Z1, K2, (DI)(R11*1)

// func convBlockAVX512(k int, offs *int32, x *float32, xstep2 int, w *float32, wstride int,
//	out *float32, ostep2, ldo, skip int, bias *float32, flags, cnt0, cnt1 int)
//
// convBlockAVX2 for sixteen channels: for channels o < 16 and lanes l < 8
// of the two halves h (0 at x and out, 1 at x+xstep2 and out+ostep2
// bytes),
//
//	v[o, h, l] = Σ_{kk<k} w[o*wstride/4 + kk] · x[h][offs[kk]/4 + l]
//
// plus bias[o] when flags&2, max(0, ·) keeping NaN when flags&4, stored at
// out + o·ldo bytes (half h: + ostep2) for the channels o ≥ skip, in the
// first cnt0 lanes of half 0 and cnt1 of half 1 (≤ 8 each). k ≥ 1. The
// sums run in the order of kk, as the AVX2 kernel's do.
TEXT ·convBlockAVX512(SB), NOSPLIT, $0-112
	MOVQ k+0(FP), CX
	MOVQ offs+8(FP), SI
	MOVQ x+16(FP), BX
	MOVQ xstep2+24(FP), DX
	MOVQ w+32(FP), R8
	MOVQ wstride+40(FP), R10
	LEAQ (R10)(R10*2), R13
	LEAQ (R8)(R10*4), R9
	LEAQ (R9)(R10*4), R11
	LEAQ (R11)(R10*4), R12

	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
	VPXORD Z24, Z24, Z24
	VPXORD Z25, Z25, Z25
	VPXORD Z26, Z26, Z26
	VPXORD Z27, Z27, Z27
	VPXORD Z28, Z28, Z28
	VPXORD Z29, Z29, Z29
	VPXORD Z30, Z30, Z30
	VPXORD Z31, Z31, Z31

	CMPQ DX, $32
	JNE  pairs
	// The halves are adjacent: one load of sixteen floats a step.

wide2:
	CMPQ CX, $2
	JL   wide1
	WIDESTEP
	WIDESTEP
	SUBQ $2, CX
	JMP  wide2

wide1:
	TESTQ CX, CX
	JEQ   epilogue
	WIDESTEP
	JMP   epilogue

pairs:
	ADDQ BX, DX

pairs2:
	CMPQ CX, $2
	JL   pairs1
	PAIRSTEP
	PAIRSTEP
	SUBQ $2, CX
	JMP  pairs2

pairs1:
	TESTQ CX, CX
	JEQ   epilogue
	PAIRSTEP

epilogue:
	MOVQ  bias+80(FP), R13
	MOVQ  flags+88(FP), AX
	TESTQ $2, AX
	JEQ   nobias
	CONVBIAS16(0, Z16)
	CONVBIAS16(4, Z17)
	CONVBIAS16(8, Z18)
	CONVBIAS16(12, Z19)
	CONVBIAS16(16, Z20)
	CONVBIAS16(20, Z21)
	CONVBIAS16(24, Z22)
	CONVBIAS16(28, Z23)
	CONVBIAS16(32, Z24)
	CONVBIAS16(36, Z25)
	CONVBIAS16(40, Z26)
	CONVBIAS16(44, Z27)
	CONVBIAS16(48, Z28)
	CONVBIAS16(52, Z29)
	CONVBIAS16(56, Z30)
	CONVBIAS16(60, Z31)

nobias:
	TESTQ $4, AX
	JEQ   norelu
	VPXORD Z2, Z2, Z2
	CONVRELU16(Z16)
	CONVRELU16(Z17)
	CONVRELU16(Z18)
	CONVRELU16(Z19)
	CONVRELU16(Z20)
	CONVRELU16(Z21)
	CONVRELU16(Z22)
	CONVRELU16(Z23)
	CONVRELU16(Z24)
	CONVRELU16(Z25)
	CONVRELU16(Z26)
	CONVRELU16(Z27)
	CONVRELU16(Z28)
	CONVRELU16(Z29)
	CONVRELU16(Z30)
	CONVRELU16(Z31)

norelu:
	// K1: the first cnt0 lanes; K2: the first cnt1 lanes.
	MOVQ  cnt0+96(FP), CX
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX
	KMOVW AX, K1
	MOVQ  cnt1+104(FP), CX
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX
	KMOVW AX, K2

	MOVQ out+48(FP), DI
	MOVQ ostep2+56(FP), R11
	MOVQ ldo+64(FP), R10
	MOVQ skip+72(FP), CX
	CMPQ CX, $0
	JGT  s1
	CONVSTORE16(Z16)

s1:
	ADDQ R10, DI
	CMPQ CX, $1
	JGT  s2
	CONVSTORE16(Z17)

s2:
	ADDQ R10, DI
	CMPQ CX, $2
	JGT  s3
	CONVSTORE16(Z18)

s3:
	ADDQ R10, DI
	CMPQ CX, $3
	JGT  s4
	CONVSTORE16(Z19)

s4:
	ADDQ R10, DI
	CMPQ CX, $4
	JGT  s5
	CONVSTORE16(Z20)

s5:
	ADDQ R10, DI
	CMPQ CX, $5
	JGT  s6
	CONVSTORE16(Z21)

s6:
	ADDQ R10, DI
	CMPQ CX, $6
	JGT  s7
	CONVSTORE16(Z22)

s7:
	ADDQ R10, DI
	CMPQ CX, $7
	JGT  s8
	CONVSTORE16(Z23)

s8:
	ADDQ R10, DI
	CMPQ CX, $8
	JGT  s9
	CONVSTORE16(Z24)

s9:
	ADDQ R10, DI
	CMPQ CX, $9
	JGT  s10
	CONVSTORE16(Z25)

s10:
	ADDQ R10, DI
	CMPQ CX, $10
	JGT  s11
	CONVSTORE16(Z26)

s11:
	ADDQ R10, DI
	CMPQ CX, $11
	JGT  s12
	CONVSTORE16(Z27)

s12:
	ADDQ R10, DI
	CMPQ CX, $12
	JGT  s13
	CONVSTORE16(Z28)

s13:
	ADDQ R10, DI
	CMPQ CX, $13
	JGT  s14
	CONVSTORE16(Z29)

s14:
	ADDQ R10, DI
	CMPQ CX, $14
	JGT  s15
	CONVSTORE16(Z30)

s15:
	ADDQ R10, DI
	CONVSTORE16(Z31)
	VZEROUPPER
	RET
