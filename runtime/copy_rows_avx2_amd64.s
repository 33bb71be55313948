// AVX2 copy of a block of rows between arrays of different row strides.

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_avx2_amd64.h"

// func copyRowsAVX2(dst *float32, dstStride int, src *float32, srcStride, rows, n int)
//
// Copies n floats from src + r·srcStride to dst + r·dstStride bytes for
// rows r < rows: eight floats at a time, the last eight of a row of eight
// or more copied again as one vector ending at the row's end, and a row
// under eight under a lane mask.
TEXT ·copyRowsAVX2(SB), NOSPLIT, $0-48
	MOVQ  dst+0(FP), DI
	MOVQ  dstStride+8(FP), R8
	MOVQ  src+16(FP), SI
	MOVQ  srcStride+24(FP), R9
	MOVQ  rows+32(FP), CX
	MOVQ  n+40(FP), DX
	TESTQ CX, CX
	JLE   done
	CMPQ  DX, $8
	JL    short
	MOVQ  DX, R10
	SHLQ  $2, R10
	SUBQ  $32, R10 // the bytes before a row's last vector

row:
	XORQ AX, AX

vec:
	CMPQ    AX, R10
	JGE     last
	VMOVUPS (SI)(AX*1), Y0
	VMOVUPS Y0, (DI)(AX*1)
	ADDQ    $32, AX
	JMP     vec

last:
	VMOVUPS (SI)(R10*1), Y0
	VMOVUPS Y0, (DI)(R10*1)
	ADDQ    R9, SI
	ADDQ    R8, DI
	DECQ    CX
	JNZ     row
	JMP     done

short:
	LANEMASK(DX, Y1, R10, R11)

srow:
	VMASKMOVPS (SI), Y1, Y0
	VMASKMOVPS Y0, Y1, (DI)
	ADDQ       R9, SI
	ADDQ       R8, DI
	DECQ       CX
	JNZ        srow

done:
	VZEROUPPER
	RET
