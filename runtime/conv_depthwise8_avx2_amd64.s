// AVX2 kernel of the channel-interleaved depthwise convolution: one block
// of eight interleaved channels, eight output pixels at a time.

//go:build amd64 && !noasm

#include "textflag.h"

// DW8TAP adds the tap's eight weights (at R8) times the eight pixels' input
// vectors (at AX + 32·i for pixel i: stride 1) to Y0..Y7.
#define DW8TAP \
	MOVLQSX     (SI), AX; \
	ADDQ        BX, AX; \
	VMOVUPS     (R8), Y8; \
	VFMADD231PS (AX), Y8, Y0; \
	VFMADD231PS 32(AX), Y8, Y1; \
	VFMADD231PS 64(AX), Y8, Y2; \
	VFMADD231PS 96(AX), Y8, Y3; \
	VFMADD231PS 128(AX), Y8, Y4; \
	VFMADD231PS 160(AX), Y8, Y5; \
	VFMADD231PS 192(AX), Y8, Y6; \
	VFMADD231PS 224(AX), Y8, Y7; \
	ADDQ        $4, SI; \
	ADDQ        $32, R8

// DW8TAPSTEP is DW8TAP with the pixels' inputs R9 bytes apart: at AX +
// i·R9 for pixel i (R10 = 3·R9, R11 = 5·R9, R13 = 7·R9).
#define DW8TAPSTEP \
	MOVLQSX     (SI), AX; \
	ADDQ        BX, AX; \
	VMOVUPS     (R8), Y8; \
	VFMADD231PS (AX), Y8, Y0; \
	VFMADD231PS (AX)(R9*1), Y8, Y1; \
	VFMADD231PS (AX)(R9*2), Y8, Y2; \
	VFMADD231PS (AX)(R10*1), Y8, Y3; \
	VFMADD231PS (AX)(R9*4), Y8, Y4; \
	VFMADD231PS (AX)(R11*1), Y8, Y5; \
	VFMADD231PS (AX)(R10*2), Y8, Y6; \
	VFMADD231PS (AX)(R13*1), Y8, Y7; \
	ADDQ        $4, SI; \
	ADDQ        $32, R8

// func depthwise8AVX2(k int, offs *int32, x *float32, step int, w *float32, out *float32, groups int, bias *float32, flags int)
//
// For groups of eight interleaved output pixels q < 8·groups (pixel q's
// eight channels at out + 32q bytes), whose inputs are step bytes apart
// (32 times the stride; pixel q's eight channels at x + step·q):
//
//	out[q] = (Σ_{t<k} w[t] · x[(step·q + offs[t])/32]) + bias
//
// lane by lane (w[t] and bias are eight floats; the taps summed in order,
// as convDepthwiseAVX2 does), with the bias only when flags&2, then
// max(0, ·) keeping NaN when flags&4. k ≥ 1.
TEXT ·depthwise8AVX2(SB), NOSPLIT, $0-72
	MOVQ x+16(FP), BX
	MOVQ step+24(FP), R9
	LEAQ (R9)(R9*2), R10
	LEAQ (R9)(R9*4), R11
	LEAQ (R10)(R9*4), R13
	MOVQ out+40(FP), DI
	MOVQ groups+48(FP), R12
	MOVQ bias+56(FP), R14
	VMOVUPS (R14), Y12
	MOVQ flags+64(FP), R14
	VXORPS Y13, Y13, Y13
	TESTQ R12, R12
	JEQ  ddone

dgroup:
	MOVQ k+0(FP), CX
	MOVQ offs+8(FP), SI
	MOVQ w+32(FP), R8
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

	// Stride 1 reads its pixels at fixed displacements (Zen 3, 144
	// channels at 56²: through the index registers measured 8 % slower).
	CMPQ R9, $32
	JNE  dtapstep

dtap:
	DW8TAP
	DECQ CX
	JNZ  dtap
	JMP  depilogue

dtapstep:
	DW8TAPSTEP
	DECQ CX
	JNZ  dtapstep

depilogue:
	TESTQ $2, R14
	JEQ  drelu
	VADDPS Y12, Y0, Y0
	VADDPS Y12, Y1, Y1
	VADDPS Y12, Y2, Y2
	VADDPS Y12, Y3, Y3
	VADDPS Y12, Y4, Y4
	VADDPS Y12, Y5, Y5
	VADDPS Y12, Y6, Y6
	VADDPS Y12, Y7, Y7

drelu:
	TESTQ $4, R14
	JEQ  dstore
	VMAXPS Y0, Y13, Y0
	VMAXPS Y1, Y13, Y1
	VMAXPS Y2, Y13, Y2
	VMAXPS Y3, Y13, Y3
	VMAXPS Y4, Y13, Y4
	VMAXPS Y5, Y13, Y5
	VMAXPS Y6, Y13, Y6
	VMAXPS Y7, Y13, Y7

dstore:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	ADDQ $256, DI
	LEAQ (BX)(R9*8), BX
	DECQ R12
	JNZ  dgroup

ddone:
	VZEROUPPER
	RET
