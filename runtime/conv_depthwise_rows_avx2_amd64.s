// AVX2 kernel of the 3×3 depthwise convolution with stride 1 and padding
// 1, straight from the channels' planes: eight consecutive outputs of a
// row at a time, the rows above the first and below the last read as a
// row of zeros, and the columns left of the first and right of the last
// left out of the loads by lane masks, with no padded copy and no
// transposes.

//go:build amd64 && !noasm

#include "textflag.h"

// DWRTAP adds the weight W times the eight inputs at OFF(R) to Y0: with
// the lane mask YM when M is 1, or a plain load.
#define DWRTAPM(R, OFF, YM, W) \
	VMASKMOVPS  OFF(R), YM, Y1; \
	VFMADD231PS Y1, W, Y0

#define DWRTAP(R, OFF, W) \
	VFMADD231PS OFF(R), W, Y0

// DWRROW adds the three taps of one kernel row (weights WA, WB, WC) of the
// row at R, the block's first output at column (DX) of it, the outer taps
// under the masks Y14 and Y15; DWRROWP with plain loads, for a block
// whose taps all lie in the row.
#define DWRROW(R, WA, WB, WC) \
	DWRTAPM(R, -4, Y14, WA); \
	DWRTAP(R, 0, WB); \
	DWRTAPM(R, 4, Y15, WC)

#define DWRROWP(R, WA, WB, WC) \
	DWRTAP(R, -4, WA); \
	DWRTAP(R, 0, WB); \
	DWRTAP(R, 4, WC)

// DWR2ROW adds the three taps of one kernel row (weights WA, WB, WC) of
// the row whose even columns are at RE and odd columns at RO, for the
// block of outputs at byte DX of the output row: tap q = 0 reads the odd
// column before each output's (RO − 4, under the mask Y14), q = 1 the
// even column, q = 2 the odd column after.
#define DWR2ROW(RE, RO, WA, WB, WC) \
	LEAQ        (RO)(DX*1), AX; \
	VMASKMOVPS  -4(AX), Y14, Y1; \
	VFMADD231PS Y1, WA, Y0; \
	VFMADD231PS (RE)(DX*1), WB, Y0; \
	VFMADD231PS (AX), WC, Y0

// DWR2ROWS points RE and RO at the even and odd columns of input row R
// (AX) of the phases at SI and DI (CX bytes a row), or at the zero row
// when R is outside [0, h); with flags&64 (flagHaloRows) the row before
// the first is read from memory too.
#define DWR2ROWS(RE, RO, above, skip, done) \
	TESTQ AX, AX; \
	JGE   above; \
	TESTQ $64, flags+64(FP); \
	JEQ   skip; \
above:; \
	CMPQ  AX, h+32(FP); \
	JGE   skip; \
	IMULQ CX, AX; \
	LEAQ  (SI)(AX*1), RE; \
	LEAQ  (DI)(AX*1), RO; \
	JMP   done; \
skip:; \
	MOVQ  zeros+72(FP), RE; \
	MOVQ  RE, RO; \
done:

// DWRSTORE ends a block of eight outputs (Y0) at byte DX of the output row
// at OUT: the bias (Y13) and max(0, ·) keeping NaN (Y3 is zero) as the
// flags in AX say, the store, then a jump to BLOCK for the next block of
// the row (the last one shifted back to end at the row's end, ROWB bytes
// a row) or to DONE after the last; L1 and L2 are labels of the caller's.
#define DWRSTORE(OUT, ROWB, L1, L2, BLOCK, DONE) \
	TESTQ   $2, AX; \
	JEQ     L1; \
	VADDPS  Y13, Y0, Y0; \
L1:; \
	TESTQ   $4, AX; \
	JEQ     L2; \
	VMAXPS  Y0, Y3, Y0; \
L2:; \
	VMOVUPS Y0, (OUT)(DX*1); \
	MOVQ    ROWB, AX; \
	SUBQ    $32, AX; \
	CMPQ    DX, AX; \
	JEQ     DONE; \
	ADDQ    $32, DX; \
	CMPQ    DX, AX; \
	JLE     BLOCK; \
	MOVQ    AX, DX; \
	JMP     BLOCK

// func depthwiseRowsAVX2(x, w, out *float32, h, wd, channels int, bias *float32, flags int,
//	zeros *float32, masks *[3][8]int32)
//
// For channels c < channels (c's plane of h rows of wd ≥ 8 floats at x +
// c·h·wd and out + c·h·wd, its weights w[9c..9c+8] and bias bias[c]),
// rows y < h and columns j < wd:
//
//	out[y·wd + j] = Σ_{p,q<3} w[3p+q] · x[(y+p−1)·wd + j+q−1]
//
// summed from +0 in the order of the taps, each input outside the plane
// read as +0 (zeros holds wd floats of them, for the rows outside), then
// the bias when flags&2, then max(0, ·) keeping NaN when flags&4; with
// flags&64 (flagHaloRows) the rows y = −1 and y = h are read from memory
// instead, before and after each plane of x, whose planes are then h + 2
// rows apart (x points at the first plane's row 0). masks
// holds the lane masks of all lanes, of lanes 1..7 (the block at column
// 0, whose tap q = 0 of lane 0 is left of the row) and of lanes 0..6 (the
// block at column wd−8, whose tap q = 2 of lane 7 is right of it). The
// last block of a row is shifted back to end at the row's end.
TEXT ·depthwiseRowsAVX2(SB), NOSPLIT, $0-80
	MOVQ channels+40(FP), BX
	TESTQ BX, BX
	JLE  done
	MOVQ x+0(FP), SI
	MOVQ out+16(FP), DI
	MOVQ w+8(FP), R8
	MOVQ bias+48(FP), R13
	MOVQ wd+32(FP), R10
	SHLQ $2, R10 // bytes a row
	VXORPS Y3, Y3, Y3 // zero, for the ReLU
	VXORPS Y13, Y13, Y13 // the bias, or zero

channel:
	VBROADCASTSS 0(R8), Y4
	VBROADCASTSS 4(R8), Y5
	VBROADCASTSS 8(R8), Y6
	VBROADCASTSS 12(R8), Y7
	VBROADCASTSS 16(R8), Y8
	VBROADCASTSS 20(R8), Y9
	VBROADCASTSS 24(R8), Y10
	VBROADCASTSS 28(R8), Y11
	VBROADCASTSS 32(R8), Y12
	MOVQ flags+56(FP), AX
	TESTQ $2, AX
	JEQ  nobias
	VBROADCASTSS (R13), Y13

nobias:
	XORQ R11, R11 // y

row:
	// R12, R14, R15: the rows above, at and below y (zeros outside).
	MOVQ R11, AX
	IMULQ R10, AX
	LEAQ (SI)(AX*1), R14
	MOVQ zeros+64(FP), R12
	TESTQ R11, R11
	JNE  above
	MOVQ flags+56(FP), CX
	TESTQ $64, CX
	JEQ  top

above:
	LEAQ (R14), R12
	SUBQ R10, R12

top:
	MOVQ zeros+64(FP), R15
	MOVQ R11, CX
	INCQ CX
	CMPQ CX, h+24(FP)
	JLT  below
	MOVQ flags+56(FP), CX
	TESTQ $64, CX
	JEQ  bottom

below:
	LEAQ (R14)(R10*1), R15

bottom:
	LEAQ (DI)(AX*1), R9 // the output row
	XORQ DX, DX // the block's column in bytes

block:
	VXORPS Y0, Y0, Y0
	MOVQ R10, AX
	SUBQ $32, AX
	TESTQ DX, DX
	JEQ  edge
	CMPQ DX, AX
	JEQ  edge
	// A block inside the row.
	LEAQ (R12)(DX*1), AX
	DWRROWP(AX, Y4, Y5, Y6)
	LEAQ (R14)(DX*1), AX
	DWRROWP(AX, Y7, Y8, Y9)
	LEAQ (R15)(DX*1), AX
	DWRROWP(AX, Y10, Y11, Y12)
	JMP  epilogue

edge:
	// Y14, Y15: the masks of taps q = 0 and 2 for the block at DX, the
	// first or last of the row (or both).
	MOVQ masks+72(FP), CX
	VMOVDQU (CX), Y14
	VMOVDQU (CX), Y15
	TESTQ DX, DX
	JNE  notleft
	VMOVDQU 32(CX), Y14

notleft:
	CMPQ DX, AX
	JNE  notright
	VMOVDQU 64(CX), Y15

notright:
	LEAQ (R12)(DX*1), AX
	DWRROW(AX, Y4, Y5, Y6)
	LEAQ (R14)(DX*1), AX
	DWRROW(AX, Y7, Y8, Y9)
	LEAQ (R15)(DX*1), AX
	DWRROW(AX, Y10, Y11, Y12)

epilogue:
	MOVQ flags+56(FP), AX
	DWRSTORE(R9, R10, epibias, epirelu, block, rowdone)

rowdone:
	INCQ R11
	CMPQ R11, h+24(FP)
	JLT  row
	// The next channel: h rows on, h + 2 in x with halo rows.
	MOVQ R10, AX
	IMULQ h+24(FP), AX
	ADDQ AX, DI
	MOVQ flags+56(FP), CX
	TESTQ $64, CX
	JEQ  nohalo
	LEAQ (AX)(R10*2), AX

nohalo:
	ADDQ AX, SI
	ADDQ $36, R8
	ADDQ $4, R13
	DECQ BX
	JNZ  channel

done:
	VZEROUPPER
	RET

// func depthwiseRows2AVX2(e, o, w, out *float32, h, oh, ow int, bias *float32, flags int,
//	zeros *float32, masks *[3][8]int32)
//
// The 3×3 depthwise convolution with stride 2 and padding 1 of one plane
// of h rows of 2·ow floats (ow ≥ 8), given as its even columns e and its
// odd columns o (h rows of ow floats each), into out (oh rows of ow):
//
//	out[y·ow + j] = Σ_{p,q<3} w[3p+q] · x[2y+p−1][2j+q−1]
//
// summed from +0 in the order of the taps, each input outside the plane
// read as +0 (zeros holds ow of them), then the bias (bias[0]) when
// flags&2, then max(0, ·) keeping NaN when flags&4. With flags&64
// (flagHaloRows) the row y = −1 is read from memory instead, the row
// before e's and o's first. The first block of a
// row reads its tap q = 0 under masks[1]; the last block of a row is
// shifted back to end at the row's end.
TEXT ·depthwiseRows2AVX2(SB), NOSPLIT, $0-88
	MOVQ w+16(FP), AX
	VBROADCASTSS 0(AX), Y4
	VBROADCASTSS 4(AX), Y5
	VBROADCASTSS 8(AX), Y6
	VBROADCASTSS 12(AX), Y7
	VBROADCASTSS 16(AX), Y8
	VBROADCASTSS 20(AX), Y9
	VBROADCASTSS 24(AX), Y10
	VBROADCASTSS 28(AX), Y11
	VBROADCASTSS 32(AX), Y12
	VXORPS Y3, Y3, Y3 // zero, for the ReLU
	VXORPS Y13, Y13, Y13 // the bias, or zero
	MOVQ flags+64(FP), AX
	TESTQ $2, AX
	JEQ  nobias2
	MOVQ bias+56(FP), AX
	VBROADCASTSS (AX), Y13

nobias2:
	MOVQ e+0(FP), SI
	MOVQ o+8(FP), DI
	MOVQ out+24(FP), R8
	MOVQ ow+48(FP), CX
	SHLQ $2, CX // bytes a row
	XORQ BX, BX // y

row2:
	LEAQ -1(BX)(BX*1), AX
	DWR2ROWS(R9, R10, above0, skip0, done0)
	LEAQ (BX)(BX*1), AX
	DWR2ROWS(R11, R12, above1, skip1, done1)
	LEAQ 1(BX)(BX*1), AX
	DWR2ROWS(R13, R14, above2, skip2, done2)
	MOVQ BX, AX
	IMULQ CX, AX
	LEAQ (R8)(AX*1), R15 // the output row
	XORQ DX, DX

block2:
	// Y14: the mask of tap q = 0, all lanes but the first in the row's
	// first block.
	MOVQ masks+80(FP), AX
	VMOVDQU (AX), Y14
	TESTQ DX, DX
	JNE  inner2
	VMOVDQU 32(AX), Y14

inner2:
	VXORPS Y0, Y0, Y0
	DWR2ROW(R9, R10, Y4, Y5, Y6)
	DWR2ROW(R11, R12, Y7, Y8, Y9)
	DWR2ROW(R13, R14, Y10, Y11, Y12)
	MOVQ flags+64(FP), AX
	DWRSTORE(R15, CX, epibias2, epirelu2, block2, rowdone2)

rowdone2:
	INCQ BX
	CMPQ BX, oh+40(FP)
	JLT  row2
	VZEROUPPER
	RET
