// AVX-512 kernel of the 3×3 depthwise convolution with stride 2 and
// padding 1, straight from the channels' planes: sixteen output floats of
// one output row at a time from the 32 input floats under them, split
// into even and odd columns in registers, with lane masks in place of
// padding.

//go:build amd64 && !noasm

#include "textflag.h"
#include "conv_depthwise_plane_amd64.h"

// dw2Perm holds the indices of the even and of the odd floats of 32.
DATA ·dw2Perm+0(SB)/4, $0
DATA ·dw2Perm+4(SB)/4, $2
DATA ·dw2Perm+8(SB)/4, $4
DATA ·dw2Perm+12(SB)/4, $6
DATA ·dw2Perm+16(SB)/4, $8
DATA ·dw2Perm+20(SB)/4, $10
DATA ·dw2Perm+24(SB)/4, $12
DATA ·dw2Perm+28(SB)/4, $14
DATA ·dw2Perm+32(SB)/4, $16
DATA ·dw2Perm+36(SB)/4, $18
DATA ·dw2Perm+40(SB)/4, $20
DATA ·dw2Perm+44(SB)/4, $22
DATA ·dw2Perm+48(SB)/4, $24
DATA ·dw2Perm+52(SB)/4, $26
DATA ·dw2Perm+56(SB)/4, $28
DATA ·dw2Perm+60(SB)/4, $30
DATA ·dw2Perm+64(SB)/4, $1
DATA ·dw2Perm+68(SB)/4, $3
DATA ·dw2Perm+72(SB)/4, $5
DATA ·dw2Perm+76(SB)/4, $7
DATA ·dw2Perm+80(SB)/4, $9
DATA ·dw2Perm+84(SB)/4, $11
DATA ·dw2Perm+88(SB)/4, $13
DATA ·dw2Perm+92(SB)/4, $15
DATA ·dw2Perm+96(SB)/4, $17
DATA ·dw2Perm+100(SB)/4, $19
DATA ·dw2Perm+104(SB)/4, $21
DATA ·dw2Perm+108(SB)/4, $23
DATA ·dw2Perm+112(SB)/4, $25
DATA ·dw2Perm+116(SB)/4, $27
DATA ·dw2Perm+120(SB)/4, $29
DATA ·dw2Perm+124(SB)/4, $31
GLOBL ·dw2Perm(SB), RODATA|NOPTR, $128

// LANES sets K to the first N lanes (N a register, clamped to 0..16);
// AX and CX are scratch.
#define LANES(N, K) \
	MOVQ    N, AX; \
	XORQ    CX, CX; \
	CMPQ    AX, CX; \
	CMOVQLT CX, AX; \
	MOVQ    $16, CX; \
	CMPQ    AX, CX; \
	CMOVQGT CX, AX; \
	MOVQ    AX, CX; \
	MOVL    $1, AX; \
	SHLL    CX, AX; \
	DECL    AX; \
	KMOVW   AX, K

// DW2ROW adds the three taps of one kernel row (weights ZW0..ZW2) to Z0:
// with the 32 input floats at R (columns 2x0 ..) loaded under K1 and K2,
// E holds the even columns (the taps q = 1), O the odd ones (q = 2), and
// the taps q = 0 are O moved up a lane with the last odd column of the
// block before (ZP, then set to O) in lane 0.
#define DW2ROW(R, ZW0, ZW1, ZW2, ZP) \
	VMOVUPS.Z   (R)(DX*8), K1, Z1; \
	VMOVUPS.Z   64(R)(DX*8), K2, Z2; \
	VMOVAPS     Z1, Z3; \
	VPERMT2PS   Z2, Z27, Z3; \
	VPERMT2PS   Z2, Z28, Z1; \
	VALIGND     $15, ZP, Z1, Z4; \
	VMOVAPS     Z1, ZP; \
	VFMADD231PS Z4, ZW0, Z0; \
	VFMADD231PS Z3, ZW1, Z0; \
	VFMADD231PS Z1, ZW2, Z0

// func depthwisePlane2AVX512(x *float32, w *float32, out *float32, h, wd, oh, ow, channels int, bias *float32, flags int)
//
// For channels c < channels (c's input plane [h, wd] at x + c·h·wd
// floats, its output plane [oh, ow] at out + c·oh·ow, its weights
// w[9c..9c+8] and bias bias[c]), output rows y < oh and columns x < ow:
//
//	out[y, x] = (Σ_{p,q<3} w[3p+q] · in[2y+p−1, 2x+q−1]) + bias
//
// summed from +0 in the order of the taps, the taps outside the plane
// left out (their rows skipped, their columns read as zeros under lane
// masks), the bias only when flags&2, then max(0, ·) keeping NaN when
// flags&4. Nothing outside the planes is read. oh = ⌈h/2⌉, ow = ⌈wd/2⌉.
TEXT ·depthwisePlane2AVX512(SB), NOSPLIT, $16-80
	MOVQ channels+56(FP), BX
	TESTQ BX, BX
	JLE  done
	MOVQ w+8(FP), R8
	MOVQ bias+64(FP), R13
	MOVQ x+0(FP), AX
	MOVQ AX, xc-8(SP)
	MOVQ out+16(FP), AX
	MOVQ AX, oc-16(SP)
	VPXORD  Z25, Z25, Z25 // the bias, or zero
	VPXORD  Z26, Z26, Z26 // zero, for the ReLU
	VMOVUPS ·dw2Perm+0(SB), Z27
	VMOVUPS ·dw2Perm+64(SB), Z28

channel:
	MOVQ flags+72(FP), AX
	DWPWEIGHTS(nobias)
	MOVQ wd+32(FP), R9
	SHLQ $2, R9 // bytes per input row
	MOVQ xc-8(SP), R11 // input row 2y
	MOVQ oc-16(SP), DI // output row y
	XORQ SI, SI        // y

row:
	// R10 and R12: input rows 2y−1 and 2y+1.
	MOVQ   R11, R10
	SUBQ   R9, R10
	LEAQ   (R11)(R9*1), R12
	XORQ   DX, DX // x0
	VPXORD Z29, Z29, Z29
	VPXORD Z30, Z30, Z30
	VPXORD Z31, Z31, Z31

block:
	// K1 and K2: the input columns 2x0 .. 2x0+31 in the row; K3: the
	// output columns x0 .. x0+15 in the row.
	MOVQ wd+32(FP), R14
	SUBQ DX, R14
	SUBQ DX, R14
	LANES(R14, K1)
	SUBQ $16, R14
	LANES(R14, K2)
	MOVQ ow+48(FP), R14
	SUBQ DX, R14
	LANES(R14, K3)

	VPXORD Z0, Z0, Z0
	TESTQ  SI, SI
	JEQ    row1
	DW2ROW(R10, Z16, Z17, Z18, Z29)

row1:
	DW2ROW(R11, Z19, Z20, Z21, Z30)
	LEAQ 1(SI)(SI*1), AX
	CMPQ AX, h+24(FP)
	JGE  epilogue
	DW2ROW(R12, Z22, Z23, Z24, Z31)

epilogue:
	MOVQ flags+72(FP), AX
	DWPEPI(Z0, nobias0, store)
	VMOVUPS Z0, K3, (DI)(DX*4)
	ADDQ    $16, DX
	CMPQ    DX, ow+48(FP)
	JLT     block

	// The next output row: two input rows down.
	LEAQ (R11)(R9*2), R11
	MOVQ ow+48(FP), AX
	LEAQ (DI)(AX*4), DI
	INCQ SI
	CMPQ SI, oh+40(FP)
	JLT  row

	// The next channel.
	MOVQ h+24(FP), AX
	IMULQ R9, AX
	ADDQ AX, xc-8(SP)
	MOVQ oh+40(FP), AX
	IMULQ ow+48(FP), AX
	SHLQ $2, AX
	ADDQ AX, oc-16(SP)
	ADDQ $36, R8
	ADDQ $4, R13
	DECQ BX
	JNZ  channel

done:
	VZEROUPPER
	RET
