// AVX2 deinterleaving of a float32 row into its even and odd elements,
// the stride-2 phases of the direct convolution's padded image.

//go:build amd64 && !noasm

#include "textflag.h"

// func deinterleave2AVX2(a, b, src *float32, n int)
// a[i] = src[2i] and b[i] = src[2i+1] for i < n, n a multiple of 8.
TEXT ·deinterleave2AVX2(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), DI
	MOVQ b+8(FP), R8
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JEQ  done

loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VSHUFPS $0x88, Y1, Y0, Y2 // per 128-bit lane: even elements of Y0, then of Y1
	VSHUFPS $0xDD, Y1, Y0, Y3 // odd elements
	VPERMPD $0xD8, Y2, Y2     // 64-bit units 0, 2, 1, 3: the lanes in order
	VPERMPD $0xD8, Y3, Y3
	VMOVUPS Y2, (DI)
	VMOVUPS Y3, (R8)
	ADDQ    $64, SI
	ADDQ    $32, DI
	ADDQ    $32, R8
	DECQ    CX
	JNE     loop

done:
	VZEROUPPER
	RET
