// AVX2 kernel of the narrow linear path: rows of x times a k×16 matrix,
// one row per iteration, the 16 columns in two registers (one when n ≤ 8).

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_avx2_amd64.h"

// func narrowRowsAVX2(rows, k int, x, w, bias, out *float32, n, flags int)
// For r < rows and j < n ≤ 16:
// out[r*n+j] = Σp x[r*k+p]·w[p*16+j] (+bias[j] when flags&2; max(0, ·)
// keeping NaN when flags&4). w and bias hold 16 columns (zero past n).
// flags&16: n ≤ 8, only the first register is computed and stored.
// flags&8: store whole registers (8 or 16 floats from each row's start),
// for the caller to use only where that stays inside its own output rows
// not yet written (masked stores cost about 20 cycles a row on Zen 3);
// otherwise out is written only in its first n columns.
TEXT ·narrowRowsAVX2(SB), NOSPLIT, $0-64
	MOVQ rows+0(FP), CX
	MOVQ k+8(FP), R11
	MOVQ x+16(FP), SI
	MOVQ w+24(FP), BX
	MOVQ bias+32(FP), R12
	MOVQ out+40(FP), DI
	MOVQ n+48(FP), DX
	MOVQ flags+56(FP), R10

	// Y14: lanes < min(n, 8); Y15: lanes < n-8.
	LANEMASK16(DX, Y14, Y15, R8, R9)

	VXORPS Y13, Y13, Y13 // zero, for the ReLU
	VMOVUPS (R12), Y10   // bias, 16 columns
	VMOVUPS 32(R12), Y11
	SHLQ $2, DX          // bytes per output row

	TESTQ CX, CX
	JEQ   done
	TESTQ $16, R10
	JNE   row8

row:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	MOVQ   BX, R8
	MOVQ   R11, R9

step:
	VBROADCASTSS (SI), Y2
	VFMADD231PS  (R8), Y2, Y0
	VFMADD231PS  32(R8), Y2, Y1
	ADDQ         $4, SI
	ADDQ         $64, R8
	DECQ         R9
	JNE          step

	TESTQ  $2, R10
	JEQ    nobias
	VADDPS Y10, Y0, Y0
	VADDPS Y11, Y1, Y1

nobias:
	TESTQ $4, R10
	JEQ   store
	// VMAXPS returns its second source when either is NaN: NaN and -0 stay.
	VMAXPS Y0, Y13, Y0
	VMAXPS Y1, Y13, Y1

store:
	TESTQ      $8, R10
	JNE        storefull
	VMASKMOVPS Y0, Y14, (DI)
	VMASKMOVPS Y1, Y15, 32(DI)
	JMP        next

storefull:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)

next:
	ADDQ DX, DI
	DECQ CX
	JNE  row
	JMP  done

row8:
	VXORPS Y0, Y0, Y0
	MOVQ   BX, R8
	MOVQ   R11, R9

step8:
	VBROADCASTSS (SI), Y2
	VFMADD231PS  (R8), Y2, Y0
	ADDQ         $4, SI
	ADDQ         $64, R8
	DECQ         R9
	JNE          step8

	TESTQ  $2, R10
	JEQ    nobias8
	VADDPS Y10, Y0, Y0

nobias8:
	TESTQ  $4, R10
	JEQ    store8
	VMAXPS Y0, Y13, Y0

store8:
	TESTQ      $8, R10
	JNE        storefull8
	VMASKMOVPS Y0, Y14, (DI)
	JMP        next8

storefull8:
	VMOVUPS Y0, (DI)

next8:
	ADDQ DX, DI
	DECQ CX
	JNE  row8

done:
	VZEROUPPER
	RET
