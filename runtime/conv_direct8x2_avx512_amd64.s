// AVX-512 kernel of the direct convolution: eight output channels by two
// vectors of sixteen output pixels (two ZMM accumulators a channel), summed
// over every (input channel, kernel row, kernel column) straight from the
// zero-padded input. Each weight broadcast serves both vectors, so a step
// loads 11 values for its 16 FMAs.

//go:build amd64 && !noasm

#include "textflag.h"

// CONV8X2 adds w[o, kk]·(the two input vectors Z0 and Z1) to the
// accumulators Z16..Z31 (channel o: Z16+2o and Z17+2o): R8 and R9 point
// at w[o0, kk] and w[o0+4, kk]; R10 is the stride of w's rows in bytes and
// R13 three times it.
#define CONV8X2 \
	CONV4X2(R8, Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23); \
	CONV4X2(R9, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31); \
	ADDQ         $4, SI; \
	ADDQ         $4, R8; \
	ADDQ         $4, R9

// CONV4X2 is CONV8X2's half for the four channels whose weights are at R,
// R+R10, R+2·R10 and R+R13, into the accumulator pairs A0/A1 .. A6/A7.
#define CONV4X2(R, A0, A1, A2, A3, A4, A5, A6, A7) \
	VBROADCASTSS (R), Z2; \
	VFMADD231PS  Z0, Z2, A0; \
	VFMADD231PS  Z1, Z2, A1; \
	VBROADCASTSS (R)(R10*1), Z3; \
	VFMADD231PS  Z0, Z3, A2; \
	VFMADD231PS  Z1, Z3, A3; \
	VBROADCASTSS (R)(R10*2), Z4; \
	VFMADD231PS  Z0, Z4, A4; \
	VFMADD231PS  Z1, Z4, A5; \
	VBROADCASTSS (R)(R13*1), Z5; \
	VFMADD231PS  Z0, Z5, A6; \
	VFMADD231PS  Z1, Z5, A7

// WIDE2 loads the two vectors of sixteen consecutive input floats at the
// offset of kk, at BX and DX, and adds them in.
#define WIDE2 \
	MOVLQSX (SI), AX; \
	VMOVUPS (BX)(AX*1), Z0; \
	VMOVUPS (DX)(AX*1), Z1; \
	CONV8X2

// PAIRS2 loads each vector as two halves of eight input floats (at BX and
// BX+R11, at DX and DX+R11) and adds them in.
#define PAIRS2 \
	MOVLQSX      (SI), AX; \
	LEAQ         (BX)(AX*1), R14; \
	VMOVUPS      (R14), Y0; \
	VINSERTF64X4 $1, (R14)(R11*1), Z0, Z0; \
	LEAQ         (DX)(AX*1), R14; \
	VMOVUPS      (R14), Y1; \
	VINSERTF64X4 $1, (R14)(R11*1), Z1, Z1; \
	CONV8X2

// CONV8BIAS adds the bias of channel OFF/4 to ZA and ZB.
#define CONV8BIAS(OFF, ZA, ZB) \
	VADDPS.BCST OFF(R12), ZA, ZA; \
	VADDPS.BCST OFF(R12), ZB, ZB

// CONV8RES adds to ZA and ZB the residual at R14 laid out as CONV8STORE
// stores them (lanes outside the masks read as zero), through Z2, Z3 and
// BX.
#define CONV8RES(ZA, ZB) \
	VMOVUPS.Z    (R14), K1, Y2; \
	VMOVUPS.Z    (R14)(R11*1), K2, Y3; \
	VINSERTF64X4 $1, Y3, Z2, Z2; \
	VADDPS       Z2, ZA, ZA; \
	LEAQ         (R14)(R13*1), BX; \
	VMOVUPS.Z    (BX), K3, Y2; \
	VMOVUPS.Z    (BX)(R11*1), K4, Y3; \
	VINSERTF64X4 $1, Y3, Z2, Z2; \
	VADDPS       Z2, ZB, ZB; \
	ADDQ         R10, R14

// CONV8RELU applies max(0, ·) to ZA and ZB, keeping NaN; Z2 is zero.
#define CONV8RELU(ZA, ZB) \
	VMAXPS ZA, Z2, ZA; \
	VMAXPS ZB, Z2, ZB

// CONV8STORE stores one channel: ZA's halves at DI under K1 and DI+R11
// under K2, ZB's at DI+R13 under K3 and DI+R13+R11 under K4 (through Z3).
#define CONV8STORE(ZA, ZB) \
	VMOVUPS       ZA, K1, (DI); \
	VEXTRACTF64X4 $1, ZA, Y3; \
	VMOVUPS       Z3, K2, (DI)(R11*1); \
	LEAQ          (DI)(R13*1), R14; \
	VMOVUPS       ZB, K3, (R14); \
	VEXTRACTF64X4 $1, ZB, Y3; \
	VMOVUPS       Z3, K4, (R14)(R11*1)

// func convBlock8x2AVX512(k int, offs *int32, x *float32, xhalf, xvec int, w *float32, wstride int,
//	out *float32, ohalf, ovec, ldo, skip int, bias *float32, flags, masks int, res *float32)
//
// For channels o < 8, vectors v < 2 and lanes l < 8 of their halves h
// (vector v's half h at x + v·xvec + h·xhalf bytes, and likewise in out
// with ovec and ohalf):
//
//	y[o, v, h, l] = Σ_{kk<k} w[o*wstride/4 + kk] · x[v][h][offs[kk]/4 + l]
//
// plus bias[o] when flags&2, plus the residual laid out as the output
// from res when flags&16, max(0, ·) keeping NaN when flags&4, stored at
// out + o·ldo bytes for the channels o ≥ skip, in the lanes of masks: bits
// 0–7 half 0 and 8–15 half 1 of vector 0, bits 16–31 likewise of vector 1.
// With xhalf = 32 each vector's halves are adjacent. k ≥ 1; the sums run in
// the order of kk, as convBlockAVX2's do.
TEXT ·convBlock8x2AVX512(SB), NOSPLIT, $0-128
	MOVQ k+0(FP), CX
	MOVQ offs+8(FP), SI
	MOVQ x+16(FP), BX
	MOVQ xhalf+24(FP), R11
	MOVQ xvec+32(FP), DX
	ADDQ BX, DX
	MOVQ w+40(FP), R8
	MOVQ wstride+48(FP), R10
	LEAQ (R10)(R10*2), R13
	LEAQ (R8)(R10*4), R9

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

	CMPQ R11, $32
	JNE  pairs2

wide2:
	CMPQ CX, $2
	JL   wide1
	WIDE2
	WIDE2
	SUBQ $2, CX
	JMP  wide2

wide1:
	TESTQ CX, CX
	JEQ   epilogue
	WIDE2
	JMP   epilogue

pairs2:
	CMPQ CX, $2
	JL   pairs1
	PAIRS2
	PAIRS2
	SUBQ $2, CX
	JMP  pairs2

pairs1:
	TESTQ CX, CX
	JEQ   epilogue
	PAIRS2

epilogue:
	MOVQ    masks+112(FP), AX
	MOVBLZX AL, CX
	KMOVW   CX, K1
	SHRQ    $8, AX
	MOVBLZX AL, CX
	KMOVW   CX, K2
	SHRQ    $8, AX
	MOVBLZX AL, CX
	KMOVW   CX, K3
	SHRQ    $8, AX
	MOVBLZX AL, CX
	KMOVW   CX, K4
	MOVQ    ohalf+64(FP), R11
	MOVQ    ovec+72(FP), R13
	MOVQ    ldo+80(FP), R10
	MOVQ  bias+96(FP), R12
	MOVQ  flags+104(FP), AX
	TESTQ $2, AX
	JEQ   nobias
	CONV8BIAS(0, Z16, Z17)
	CONV8BIAS(4, Z18, Z19)
	CONV8BIAS(8, Z20, Z21)
	CONV8BIAS(12, Z22, Z23)
	CONV8BIAS(16, Z24, Z25)
	CONV8BIAS(20, Z26, Z27)
	CONV8BIAS(24, Z28, Z29)
	CONV8BIAS(28, Z30, Z31)

nobias:
	TESTQ $16, AX
	JEQ   nores
	MOVQ  res+120(FP), R14
	CONV8RES(Z16, Z17)
	CONV8RES(Z18, Z19)
	CONV8RES(Z20, Z21)
	CONV8RES(Z22, Z23)
	CONV8RES(Z24, Z25)
	CONV8RES(Z26, Z27)
	CONV8RES(Z28, Z29)
	CONV8RES(Z30, Z31)

nores:
	TESTQ $4, AX
	JEQ   norelu
	VPXORD Z2, Z2, Z2
	CONV8RELU(Z16, Z17)
	CONV8RELU(Z18, Z19)
	CONV8RELU(Z20, Z21)
	CONV8RELU(Z22, Z23)
	CONV8RELU(Z24, Z25)
	CONV8RELU(Z26, Z27)
	CONV8RELU(Z28, Z29)
	CONV8RELU(Z30, Z31)

norelu:
	MOVQ  out+56(FP), DI
	MOVQ  skip+88(FP), CX
	CMPQ CX, $0
	JGT  s1
	CONV8STORE(Z16, Z17)

s1:
	ADDQ R10, DI
	CMPQ CX, $1
	JGT  s2
	CONV8STORE(Z18, Z19)

s2:
	ADDQ R10, DI
	CMPQ CX, $2
	JGT  s3
	CONV8STORE(Z20, Z21)

s3:
	ADDQ R10, DI
	CMPQ CX, $3
	JGT  s4
	CONV8STORE(Z22, Z23)

s4:
	ADDQ R10, DI
	CMPQ CX, $4
	JGT  s5
	CONV8STORE(Z24, Z25)

s5:
	ADDQ R10, DI
	CMPQ CX, $5
	JGT  s6
	CONV8STORE(Z26, Z27)

s6:
	ADDQ R10, DI
	CMPQ CX, $6
	JGT  s7
	CONV8STORE(Z28, Z29)

s7:
	ADDQ R10, DI
	CONV8STORE(Z30, Z31)
	VZEROUPPER
	RET
