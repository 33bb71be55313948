//go:build amd64 && !noasm

#include "textflag.h"

// MAXNAN sets D = max(A, B) with Go's max semantics: a NaN in either gives
// NaN, and max(−0, +0) is +0. VMAXPS returns its second source when either
// is NaN or both are equal (in Go's operand order, the first operand), so
// the equal lanes take A AND B (a zero is −0 only when both are) and the
// lanes where A is NaN take A. T1 and T2 are clobbered.
#define MAXNAN(A, B, D, T1, T2) \
	VMAXPS    B, A, D; \
	VCMPPS    $0, B, A, T1; \
	VANDPS    B, A, T2; \
	VBLENDVPS T1, T2, D, D; \
	VCMPPS    $3, A, A, T1; \
	VBLENDVPS T1, A, D, D

// func maxRowsAVX2(dst, a, b *float32, n int)
//
// Sets dst[i] = max(a[i], b[i]) for i < n, n a multiple of 8, with Go's
// max semantics (NaN wins; +0 over −0).
TEXT ·maxRowsAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JZ   done

loop:
	VMOVUPS (SI), Y0
	VMOVUPS (DX), Y1
	MAXNAN(Y0, Y1, Y2, Y3, Y4)
	VMOVUPS Y2, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DX
	ADDQ    $32, DI
	DECQ    CX
	JNZ     loop

done:
	VZEROUPPER
	RET
