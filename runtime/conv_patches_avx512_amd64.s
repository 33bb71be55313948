// AVX-512 kernel that packs one panel of a convolution's patch matrix for
// the GEMM tile (see conv_patches.go): the panel's pixels at each tap, read
// from the zero-padded image in at most three runs of consecutive floats.

//go:build amd64 && !noasm

#include "textflag.h"

// PATCHARGS loads the arguments both kernels share: dst (DI), kb (CX),
// offs (SI), and x plus b1, b2, b3 (R8, R9, R10; x in AX).
#define PATCHARGS \
	MOVQ dst+0(FP), DI; \
	MOVQ kb+8(FP), CX; \
	MOVQ offs+16(FP), SI; \
	MOVQ x+24(FP), AX; \
	MOVQ b1+32(FP), R8; \
	MOVQ b2+40(FP), R9; \
	MOVQ b3+48(FP), R10; \
	ADDQ AX, R8; \
	ADDQ AX, R9; \
	ADDQ AX, R10

// func patchPanelAVX512(dst *float32, kb int, offs *int32, x *float32,
//	b1, b2, b3 int, m1, m2, m3, mstore uint16, stride int)
//
// For taps t < kb and lanes l < 16 kept by mstore:
//
//	dst[t·stride/4 + l] = x[(offs[t] + bR)/4 + l] for the run R whose mask mR has bit l
//	                      (the masks do not overlap), 0 where none has it
//
// Lanes outside every mask are not read.
TEXT ·patchPanelAVX512(SB), NOSPLIT, $0-72
	PATCHARGS
	KMOVW m1+56(FP), K1
	KMOVW m2+58(FP), K2
	KMOVW m3+60(FP), K3
	KMOVW mstore+62(FP), K4
	MOVQ  stride+64(FP), DX
	TESTQ CX, CX
	JLE   done
	// Panels in one run (no second mask) take a loop of one load.
	KORTESTW K2, K2
	JZ       one

loop:
	MOVLQSX   (SI), R11
	VMOVUPS.Z (R8)(R11*1), K1, Z0
	VMOVUPS   (R9)(R11*1), K2, Z0
	VMOVUPS   (R10)(R11*1), K3, Z0
	VMOVUPS   Z0, K4, (DI)
	ADDQ      $4, SI
	ADDQ      DX, DI
	DECQ      CX
	JNZ       loop
	JMP       done

one:
	MOVLQSX   (SI), R11
	VMOVUPS.Z (R8)(R11*1), K1, Z0
	VMOVUPS   Z0, K4, (DI)
	ADDQ      $4, SI
	ADDQ      DX, DI
	DECQ      CX
	JNZ       one

done:
	VZEROUPPER
	RET

// func patchPanelAVX2(dst *float32, kb int, offs *int32, x *float32,
//	b1, b2, b3 int, masks *int32, stride int)
//
// patchPanelAVX512 for panels of at most 8 rows on the AVX2 tier: masks
// holds four vectors of eight int32 lane masks (all ones or zero), of the
// three runs and of the stored lanes. A lane outside its run's mask loads
// as +0, and the runs are joined with OR, which keeps every bit.
TEXT ·patchPanelAVX2(SB), NOSPLIT, $0-72
	PATCHARGS
	MOVQ    masks+56(FP), DX
	VMOVDQU (DX), Y4
	VMOVDQU 32(DX), Y5
	VMOVDQU 64(DX), Y6
	VMOVDQU 96(DX), Y7
	MOVQ    stride+64(FP), DX
	TESTQ   CX, CX
	JLE     avx2done
	// Panels in one run (the second mask all zero) or two (the third)
	// take loops that load only those.
	VPTEST  Y5, Y5
	JZ      avx2one
	VPTEST  Y6, Y6
	JZ      avx2two

avx2loop:
	MOVLQSX   (SI), R11
	VMASKMOVPS (R8)(R11*1), Y4, Y0
	VMASKMOVPS (R9)(R11*1), Y5, Y1
	VMASKMOVPS (R10)(R11*1), Y6, Y2
	VORPS      Y1, Y0, Y0
	VORPS      Y2, Y0, Y0
	VMASKMOVPS Y0, Y7, (DI)
	ADDQ       $4, SI
	ADDQ       DX, DI
	DECQ       CX
	JNZ        avx2loop
	JMP        avx2done

avx2two:
	MOVLQSX    (SI), R11
	VMASKMOVPS (R8)(R11*1), Y4, Y0
	VMASKMOVPS (R9)(R11*1), Y5, Y1
	VORPS      Y1, Y0, Y0
	VMASKMOVPS Y0, Y7, (DI)
	ADDQ       $4, SI
	ADDQ       DX, DI
	DECQ       CX
	JNZ        avx2two
	JMP        avx2done

avx2one:
	MOVLQSX    (SI), R11
	VMASKMOVPS (R8)(R11*1), Y4, Y0
	VMASKMOVPS Y0, Y7, (DI)
	ADDQ       $4, SI
	ADDQ       DX, DI
	DECQ       CX
	JNZ        avx2one

avx2done:
	VZEROUPPER
	RET
