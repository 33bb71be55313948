// AVX2 kernel of the direct convolution: six output channels by sixteen
// output pixels, summed over every (input channel, kernel row, kernel
// column) straight from the zero-padded input, with no patch matrix.

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_avx2_amd64.h"

// CONVSTEP adds w[o, kk]·(the two input vectors at the offset of kk) to the
// accumulators of the six channels: Y12 and Y13 hold the input vectors,
// R8 points at w[o0, kk] and R9 at w[o0+3, kk], R10 is the stride of w's
// rows in bytes.
#define CONVSTEP \
	CONVLOAD; \
	CONVCH((R8), Y14, Y0, Y1); \
	CONVCH((R8)(R10*1), Y15, Y2, Y3); \
	CONVLAST4

// CONVSTEP4 is CONVSTEP for channels 2..5 alone (Y4..Y11), the first two
// left at zero: a block of four channels.
#define CONVSTEP4 \
	CONVLOAD; \
	CONVLAST4

// CONVLOAD loads the two input vectors of the tap at SI into Y12 and Y13.
#define CONVLOAD \
	MOVLQSX (SI), AX; \
	VMOVUPS (BX)(AX*1), Y12; \
	VMOVUPS (DX)(AX*1), Y13

// CONVCH adds the weight at W, broadcast into B, times Y12 and Y13 to YA
// and YB.
#define CONVCH(W, B, YA, YB) \
	VBROADCASTSS W, B; \
	VFMADD231PS  Y12, B, YA; \
	VFMADD231PS  Y13, B, YB

// CONVLAST4 is CONVSTEP's channels 2..5, then the move to the next tap.
#define CONVLAST4 \
	CONVCH((R8)(R10*2), Y14, Y4, Y5); \
	CONVCH((R9), Y15, Y6, Y7); \
	CONVCH((R9)(R10*1), Y14, Y8, Y9); \
	CONVCH((R9)(R10*2), Y15, Y10, Y11); \
	ADDQ $4, SI; \
	ADDQ $4, R8; \
	ADDQ $4, R9

// CONVBIAS adds the bias of channel OFF/4 to YA and YB.
#define CONVBIAS(OFF, YA, YB) \
	VBROADCASTSS OFF(R12), Y14; \
	VADDPS       Y14, YA, YA; \
	VADDPS       Y14, YB, YB

// CONVRES adds to YA and YB the residual at R14 and R14+R11, under the
// masks Y12 and Y13 (lanes outside them read as zero), then moves R14 on
// by R10.
#define CONVRES(YA, YB) \
	VMASKMOVPS (R14), Y12, Y14; \
	VADDPS     Y14, YA, YA; \
	VMASKMOVPS (R14)(R11*1), Y13, Y14; \
	VADDPS     Y14, YB, YB; \
	ADDQ       R10, R14

// CONVRELU applies max(0, ·) to YA and YB, keeping NaN (VMAXPS returns
// its second source when either is NaN); Y15 is zero.
#define CONVRELU(YA, YB) \
	VMAXPS YA, Y15, YA; \
	VMAXPS YB, Y15, YB

// CONVSTFULL and CONVSTMASK store one channel's two vectors at DI and
// DI+R11, whole or under the masks Y12 and Y13.
#define CONVSTFULL(YA, YB) \
	VMOVUPS YA, (DI); \
	VMOVUPS YB, (DI)(R11*1)

#define CONVSTMASK(YA, YB) \
	VMASKMOVPS YA, Y12, (DI); \
	VMASKMOVPS YB, Y13, (DI)(R11*1)

// func convBlockAVX2(k int, offs *int32, x *float32, xstep2 int, w *float32, wstride int,
//	out *float32, ostep2, ldo, skip int, bias *float32, flags, cnt0, cnt1 int, res *float32)
//
// For channels o < 6 and lanes l < 8 of the two halves h (0 at x and out,
// 1 at x+xstep2 and out+ostep2 bytes):
//
//	v[o, h, l] = Σ_{kk<k} w[o*wstride/4 + kk] · x[h][offs[kk]/4 + l]
//
// plus bias[o] when flags&2, plus the residual laid out as the output
// from res when flags&16, max(0, ·) keeping NaN when flags&4, stored at
// out + o·ldo bytes (half h: + ostep2) for the channels o ≥ skip, in the
// first cnt0 lanes of half 0 and cnt1 of half 1 (≤ 8 each). k ≥ 1. With
// flags&32 the sums of channels 0 and 1 are skipped (left at zero): the
// caller passes skip ≥ 2, for a block of four channels.
TEXT ·convBlockAVX2(SB), NOSPLIT, $0-120
	MOVQ k+0(FP), CX
	MOVQ offs+8(FP), SI
	MOVQ x+16(FP), BX
	MOVQ xstep2+24(FP), DX
	ADDQ BX, DX
	MOVQ w+32(FP), R8
	MOVQ wstride+40(FP), R10
	LEAQ (R8)(R10*2), R9
	ADDQ R10, R9

	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

	MOVQ  flags+88(FP), AX
	TESTQ $32, AX
	JNE   four2

	CMPQ CX, $2
	JL   step1

step2:
	CONVSTEP
	CONVSTEP
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  step2

step1:
	TESTQ CX, CX
	JEQ   epilogue
	CONVSTEP
	JMP   epilogue

four2:
	CMPQ CX, $2
	JL   four1
	CONVSTEP4
	CONVSTEP4
	SUBQ $2, CX
	JMP  four2

four1:
	TESTQ CX, CX
	JEQ   epilogue
	CONVSTEP4

epilogue:
	MOVQ bias+80(FP), R12
	MOVQ flags+88(FP), R13
	TESTQ $2, R13
	JEQ   nobias
	CONVBIAS(0, Y0, Y1)
	CONVBIAS(4, Y2, Y3)
	CONVBIAS(8, Y4, Y5)
	CONVBIAS(12, Y6, Y7)
	CONVBIAS(16, Y8, Y9)
	CONVBIAS(20, Y10, Y11)

nobias:
	TESTQ $16, R13
	JEQ   nores
	MOVQ  cnt0+96(FP), CX
	LANEMASK(CX, Y12, R8, R9)
	MOVQ  cnt1+104(FP), CX
	LANEMASK(CX, Y13, R8, R9)
	MOVQ  res+112(FP), R14
	MOVQ  ostep2+56(FP), R11
	MOVQ  ldo+64(FP), R10
	CONVRES(Y0, Y1)
	CONVRES(Y2, Y3)
	CONVRES(Y4, Y5)
	CONVRES(Y6, Y7)
	CONVRES(Y8, Y9)
	CONVRES(Y10, Y11)

nores:
	TESTQ $4, R13
	JEQ   norelu
	VXORPS Y15, Y15, Y15
	CONVRELU(Y0, Y1)
	CONVRELU(Y2, Y3)
	CONVRELU(Y4, Y5)
	CONVRELU(Y6, Y7)
	CONVRELU(Y8, Y9)
	CONVRELU(Y10, Y11)

norelu:
	MOVQ out+48(FP), DI
	MOVQ ostep2+56(FP), R11
	MOVQ ldo+64(FP), R10
	MOVQ skip+72(FP), CX
	MOVQ cnt0+96(FP), AX
	MOVQ cnt1+104(FP), BX
	CMPQ AX, $8
	JNE  masked
	CMPQ BX, $8
	JNE  masked

	CMPQ CX, $0
	JGT  f1
	CONVSTFULL(Y0, Y1)

f1:
	ADDQ R10, DI
	CMPQ CX, $1
	JGT  f2
	CONVSTFULL(Y2, Y3)

f2:
	ADDQ R10, DI
	CMPQ CX, $2
	JGT  f3
	CONVSTFULL(Y4, Y5)

f3:
	ADDQ R10, DI
	CMPQ CX, $3
	JGT  f4
	CONVSTFULL(Y6, Y7)

f4:
	ADDQ R10, DI
	CMPQ CX, $4
	JGT  f5
	CONVSTFULL(Y8, Y9)

f5:
	ADDQ R10, DI
	CONVSTFULL(Y10, Y11)
	JMP  done

masked:
	// Y12: the first cnt0 lanes; Y13: the first cnt1 lanes.
	LANEMASK(AX, Y12, R8, R9)
	LANEMASK(BX, Y13, R8, R9)

	CMPQ CX, $0
	JGT  m1
	CONVSTMASK(Y0, Y1)

m1:
	ADDQ R10, DI
	CMPQ CX, $1
	JGT  m2
	CONVSTMASK(Y2, Y3)

m2:
	ADDQ R10, DI
	CMPQ CX, $2
	JGT  m3
	CONVSTMASK(Y4, Y5)

m3:
	ADDQ R10, DI
	CMPQ CX, $3
	JGT  m4
	CONVSTMASK(Y6, Y7)

m4:
	ADDQ R10, DI
	CMPQ CX, $4
	JGT  m5
	CONVSTMASK(Y8, Y9)

m5:
	ADDQ R10, DI
	CONVSTMASK(Y10, Y11)

done:
	VZEROUPPER
	RET
