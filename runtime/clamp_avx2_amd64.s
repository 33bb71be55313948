// AVX2 kernel of Clamp, Hardtanh and Relu6.

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_avx2_amd64.h"

// func clampAVX2(out, x *float32, n int, lo, hi float32)
// out[i] = min(max(x[i], lo), hi) as the portable loop computes it: VMAXPS
// and VMINPS return their second source, x's value, when either is NaN or
// both are equal, so NaN and -0 pass through, and hi wins when lo > hi.
TEXT ·clampAVX2(SB), NOSPLIT, $0-32
	MOVQ         out+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS lo+24(FP), Y1
	VBROADCASTSS hi+28(FP), Y4

clamploop:
	CMPQ    CX, $16
	JL      clamptail8
	VMOVUPS (SI), Y2
	VMOVUPS 32(SI), Y3
	VMAXPS  Y2, Y1, Y2
	VMAXPS  Y3, Y1, Y3
	VMINPS  Y2, Y4, Y2
	VMINPS  Y3, Y4, Y3
	VMOVUPS Y2, (DI)
	VMOVUPS Y3, 32(DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $16, CX
	JMP     clamploop

clamptail8:
	CMPQ    CX, $8
	JL      clamptail
	VMOVUPS (SI), Y2
	VMAXPS  Y2, Y1, Y2
	VMINPS  Y2, Y4, Y2
	VMOVUPS Y2, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX

clamptail:
	TESTQ      CX, CX
	JEQ        clampdone
	TAILMASK8(Y13)
	VMASKMOVPS (SI), Y13, Y2
	VMAXPS     Y2, Y1, Y2
	VMINPS     Y2, Y4, Y2
	VMASKMOVPS Y2, Y13, (DI)

clampdone:
	VZEROUPPER
	RET
