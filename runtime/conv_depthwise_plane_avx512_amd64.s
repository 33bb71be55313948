// AVX-512 kernel of the 3×3 depthwise convolution with stride 1 and
// padding 1, straight from the channels' planes: sixteen consecutive
// output floats of a flattened plane at a time, each tap an FMA from the
// input under a lane mask that leaves out the taps in the padding, with no
// padded copy and no transposes.

//go:build amd64 && !noasm

#include "textflag.h"
#include "conv_depthwise_plane_amd64.h"

// DWPTAP2 adds the tap of mask slot I (whose weight is in ZW) times the
// sixteen inputs at OFF(R) to Z0 (block b) and at OFF+64(R) to Z1 (block
// b+1), in the lanes their masks (at DX + 2I and DX + 18 + 2I) keep.
#define DWPTAP2(I, OFF, R, ZW) \
	KMOVW       (2*I)(DX), K1; \
	KMOVW       (18+2*I)(DX), K2; \
	VFMADD231PS OFF(R), ZW, K1, Z0; \
	VFMADD231PS (OFF+64)(R), ZW, K2, Z1

// func depthwisePlaneAVX512(x *float32, w *float32, out *float32, masks *uint16,
//	pairs, rowBytes, planeBytes, channels int, bias *float32, flags int)
//
// For channels c < channels (c's plane at x + c·planeBytes and out +
// c·planeBytes, its weights w[9c..9c+8] and bias bias[c]), blocks b <
// 2·pairs (two a step; pairs ≥ 1) and lanes l < 16, with i = 16b + l and W the row length
// (rowBytes/4):
//
//	out[i] = (Σ_{p,q<3} w[3p+q] · x[i + (p−1)·W + q − 1]) + bias
//
// summed from +0 in the order of the taps, the taps whose mask bit
// masks[9b + 3p + q] (bit l) is clear left out, the bias only when
// flags&2, then max(0, ·) keeping NaN when flags&4; stored in the lanes
// of the centre tap's mask (masks[9b + 4]). The masks keep exactly the
// taps that lie in the plane, so nothing outside it is read.
TEXT ·depthwisePlaneAVX512(SB), NOSPLIT, $0-80
	MOVQ w+8(FP), R8
	MOVQ rowBytes+40(FP), R9
	MOVQ bias+64(FP), R13
	MOVQ flags+72(FP), AX
	MOVQ channels+56(FP), BX
	TESTQ BX, BX
	JLE  done
	XORQ R15, R15 // the channel's offset in bytes, in x and in out
	VPXORD Z25, Z25, Z25 // the bias, or zero
	VPXORD Z26, Z26, Z26 // zero, for the ReLU

channel:
	DWPWEIGHTS(nobias)
	// R10, R11 and R12 point at the first input of rows p = 0, 1, 2 of
	// the taps of block 0: x − W − 1, x − 1, x + W − 1 (in floats).
	MOVQ x+0(FP), R11
	ADDQ R15, R11
	SUBQ $4, R11
	MOVQ R11, R10
	SUBQ R9, R10
	LEAQ (R11)(R9*1), R12
	MOVQ out+16(FP), DI
	ADDQ R15, DI
	MOVQ masks+24(FP), DX
	MOVQ pairs+32(FP), CX

pair:
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	DWPTAP2(0, 0, R10, Z16)
	DWPTAP2(1, 4, R10, Z17)
	DWPTAP2(2, 8, R10, Z18)
	DWPTAP2(3, 0, R11, Z19)
	DWPTAP2(4, 4, R11, Z20)
	DWPTAP2(5, 8, R11, Z21)
	DWPTAP2(6, 0, R12, Z22)
	DWPTAP2(7, 4, R12, Z23)
	DWPTAP2(8, 8, R12, Z24)
	DWPEPI(Z0, p0b, p0r)
	DWPEPI(Z1, p1b, p1r)
	KMOVW   8(DX), K1
	KMOVW   26(DX), K2
	VMOVUPS Z0, K1, (DI)
	VMOVUPS Z1, K2, 64(DI)
	ADDQ    $128, R10
	ADDQ    $128, R11
	ADDQ    $128, R12
	ADDQ    $128, DI
	ADDQ    $36, DX
	DECQ    CX
	JNZ     pair

next:
	ADDQ $36, R8
	ADDQ $4, R13
	ADDQ planeBytes+48(FP), R15
	DECQ BX
	JNZ  channel

done:
	VZEROUPPER
	RET
