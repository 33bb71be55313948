// AVX2 kernels of the channels-last depthwise convolution, eight channels
// a vector.

//go:build amd64 && !noasm

#include "textflag.h"

// DWTAP sets AX to x's and R14 to the filters' tap t = DX: the pixel
// offs[t] floats into x and the row taps[t] floats into wt.
#define DWTAP \
	MOVQ (R8)(DX*8), AX; \
	MOVQ (R10)(DX*8), R14; \
	LEAQ (SI)(AX*4), AX; \
	LEAQ (R9)(R14*4), R14

// DWACC adds the tap's eight channels at byte OFF past BX to ACC, through
// T.
#define DWACC(OFF, ACC, T) \
	VMOVUPS     OFF(R14)(BX*1), T; \
	VFMADD231PS OFF(AX)(BX*1), T, ACC

// DWEND adds the bias (flags&1) and applies max(0, ·) keeping NaN
// (flags&2) to ACC, and stores it at byte OFF past BX of dst; Y15 is zero.
#define DWEND(OFF, ACC, L1, L2) \
	TESTQ   $1, R13; \
	JEQ     L1; \
	VADDPS  OFF(R12)(BX*1), ACC, ACC; \
L1:; \
	TESTQ   $2, R13; \
	JEQ     L2; \
	VMAXPS  ACC, Y15, ACC; \
L2:; \
	VMOVUPS ACC, OFF(DI)(BX*1)

// func dwPixelAVX2(dst, x *float32, offs *int, wt *float32, taps *int, nt, c int, bias *float32, flags int)
//
// For channels i < c (a multiple of 8): dst[i] = Σ_{t<nt} wt[taps[t]+i] ·
// x[offs[t]+i], the taps in order, plus bias[i] when flags&1, then
// max(0, ·) keeping NaN when flags&2. nt ≥ 1.
TEXT ·dwPixelAVX2(SB), NOSPLIT, $0-72
	MOVQ   dst+0(FP), DI
	MOVQ   x+8(FP), SI
	MOVQ   offs+16(FP), R8
	MOVQ   wt+24(FP), R9
	MOVQ   taps+32(FP), R10
	MOVQ   nt+40(FP), R11
	MOVQ   c+48(FP), CX
	SHLQ   $2, CX // bytes of channels
	MOVQ   bias+56(FP), R12
	MOVQ   flags+64(FP), R13
	VXORPS Y15, Y15, Y15
	XORQ   BX, BX // bytes into the channels

group8:
	LEAQ   32(BX), AX
	CMPQ   AX, CX
	JG     done
	VXORPS Y0, Y0, Y0
	XORQ   DX, DX

tap8:
	DWTAP
	DWACC(0, Y0, Y4)
	INCQ DX
	CMPQ DX, R11
	JL   tap8
	DWEND(0, Y0, b8, r8)
	ADDQ $32, BX
	JMP  group8

done:
	VZEROUPPER
	RET

// DWROW3 adds the three taps of one input row to ACC: the pixel at P and
// the next two (R11 bytes apart) times the weights W0, W1, W2.
#define DWROW3(P, W0, W1, W2, ACC) \
	VFMADD231PS (P), W0, ACC; \
	VFMADD231PS (P)(R11*1), W1, ACC; \
	VFMADD231PS (P)(R11*2), W2, ACC

// DWPIX sets ACC to the nine taps of the output pixel whose input starts
// at the rows R8, R9, R10 (rows 0 and 2 count as zeros when flags&4 and
// flags&8), then moves the rows on to the next output's input (SI
// bytes).
#define DWPIX(ACC, L0, L2) \
	VXORPS ACC, ACC, ACC; \
	TESTQ  $4, R13; \
	JNE    L0; \
	DWROW3(R8, Y0, Y1, Y2, ACC); \
L0:; \
	DWROW3(R9, Y3, Y4, Y5, ACC); \
	TESTQ  $8, R13; \
	JNE    L2; \
	DWROW3(R10, Y6, Y7, Y8, ACC); \
L2:; \
	ADDQ   SI, R8; \
	ADDQ   SI, R9; \
	ADDQ   SI, R10

// DWOUT adds the bias (flags&1) and applies max(0, ·) keeping NaN
// (flags&2) to ACC, through Y15, and stores it at ADDR.
#define DWOUT(ADDR, ACC, L1, L2) \
	TESTQ   $1, R13; \
	JEQ     L1; \
	VADDPS  (R12)(BX*1), ACC, ACC; \
L1:; \
	TESTQ   $2, R13; \
	JEQ     L2; \
	VXORPS  Y15, Y15, Y15; \
	VMAXPS  ACC, Y15, ACC; \
L2:; \
	VMOVUPS ACC, ADDR

// func dwRow3x3AVX2(dst, r0, r1, r2, w *float32, c, n, step int, bias *float32, flags int)
//
// Computes n output pixels of a row of a 3×3 channels-last depthwise
// convolution whose taps all fall in the image horizontally: for channels
// i < c (a multiple of 8) and pixels k < n, with rp(j) the input pixel j
// of row p (at r0, r1, r2: step pixels from one output to the next, c
// floats a pixel),
//
//	dst[k·c+i] = Σ_{p,q} w[(3p+q)·c+i]·rp(k·step+q)[i] (+ bias[i])
//
// summed row by row, then max(0, ·) keeping NaN when flags&2; bias when
// flags&1; rows 0 and 2 count as zeros when flags&4 and flags&8 (r0 and
// r2 are then not read). Eight channels at a time, their nine weights in
// registers, four pixels at a time.
TEXT ·dwRow3x3AVX2(SB), NOSPLIT, $0-80
	MOVQ  c+40(FP), CX
	SHLQ  $2, CX      // bytes a pixel
	MOVQ  CX, R11     // bytes from one tap column to the next
	MOVQ  step+56(FP), AX
	IMULQ CX, AX
	MOVQ  AX, SI     // bytes from one output's input to the next
	MOVQ  bias+64(FP), R12
	MOVQ  flags+72(FP), R13
	XORQ  BX, BX      // bytes into the channels

block:
	CMPQ    BX, CX
	JGE     rowdone
	MOVQ    w+32(FP), AX
	ADDQ    BX, AX
	VMOVUPS (AX), Y0
	ADDQ    CX, AX
	VMOVUPS (AX), Y1
	ADDQ    CX, AX
	VMOVUPS (AX), Y2
	ADDQ    CX, AX
	VMOVUPS (AX), Y3
	ADDQ    CX, AX
	VMOVUPS (AX), Y4
	ADDQ    CX, AX
	VMOVUPS (AX), Y5
	ADDQ    CX, AX
	VMOVUPS (AX), Y6
	ADDQ    CX, AX
	VMOVUPS (AX), Y7
	ADDQ    CX, AX
	VMOVUPS (AX), Y8
	MOVQ    r0+8(FP), R8
	ADDQ    BX, R8
	MOVQ    r1+16(FP), R9
	ADDQ    BX, R9
	MOVQ    r2+24(FP), R10
	ADDQ    BX, R10
	MOVQ    dst+0(FP), DI
	ADDQ    BX, DI
	MOVQ    n+48(FP), DX

four:
	CMPQ DX, $4
	JL   one
	DWPIX(Y9, f0a, f2a)
	DWPIX(Y10, f0b, f2b)
	DWPIX(Y11, f0c, f2c)
	DWPIX(Y12, f0d, f2d)
	DWOUT((DI), Y9, fb1, fr1)
	DWOUT((DI)(CX*1), Y10, fb2, fr2)
	DWOUT((DI)(CX*2), Y11, fb3, fr3)
	LEAQ (DI)(CX*2), AX
	DWOUT((AX)(CX*1), Y12, fb4, fr4)
	LEAQ (DI)(CX*4), DI
	SUBQ $4, DX
	JMP  four

one:
	TESTQ DX, DX
	JEQ   next
	DWPIX(Y9, o0, o2)
	DWOUT((DI), Y9, ob, or)
	ADDQ  CX, DI
	DECQ  DX
	JMP   one

next:
	ADDQ $32, BX
	JMP  block

rowdone:
	VZEROUPPER
	RET
