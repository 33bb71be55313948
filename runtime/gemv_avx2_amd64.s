// AVX2 kernels of the m == 1 product (GEMV): one row of A times B, 16
// columns at a time, and four dot products for a B stored transposed.

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_avx2_amd64.h"

// GEMVSTEP(OFF, BR, ACC0, ACC1) adds a[OFF/4]·(16 floats of B at BX) to
// ACC0:ACC1, broadcasting into BR, and steps BX to the next row of B.
#define GEMVSTEP(OFF, BR, ACC0, ACC1) \
	VBROADCASTSS OFF(AX), BR; \
	VFMADD231PS (BX), BR, ACC0; \
	VFMADD231PS 32(BX), BR, ACC1; \
	ADDQ SI, BX

// GEMVSTEPMASK is GEMVSTEP reading only the columns in the masks Y14:Y15.
#define GEMVSTEPMASK(OFF, BR, ACC0, ACC1) \
	VBROADCASTSS OFF(AX), BR; \
	VMASKMOVPS (BX), Y14, Y12; \
	VMASKMOVPS 32(BX), Y15, Y13; \
	VFMADD231PS Y12, BR, ACC0; \
	VFMADD231PS Y13, BR, ACC1; \
	ADDQ SI, BX

// func gemvRow256(k int, a, b *float32, ldb int, c *float32, alpha, beta float32, bias *float32, flags int, cols int)
// c[j] = alpha·Σp a[p]·b[p*ldb+j] (+beta·c[j], +bias[j], ReLU per flags)
// for j < cols ≤ 16, with four interleaved partial sums over p.
TEXT ·gemvRow256(SB), NOSPLIT, $0-72
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), AX
	MOVQ b+16(FP), BX
	MOVQ ldb+24(FP), SI
	SHLQ $2, SI
	MOVQ c+32(FP), DI
	MOVQ cols+64(FP), DX

	// Y14: lanes < min(cols, 8); Y15: lanes < cols-8.
	LANEMASK16(DX, Y14, Y15, R8, R9)

	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	CMPQ DX, $16
	JNE  masked

full:
	CMPQ CX, $4
	JL   fulltail

fullloop:
	GEMVSTEP(0, Y8, Y0, Y1)
	GEMVSTEP(4, Y9, Y2, Y3)
	GEMVSTEP(8, Y10, Y4, Y5)
	GEMVSTEP(12, Y11, Y6, Y7)
	ADDQ $16, AX
	SUBQ $4, CX
	CMPQ CX, $4
	JGE  fullloop

fulltail:
	TESTQ CX, CX
	JEQ   epi

fulltail1:
	GEMVSTEP(0, Y8, Y0, Y1)
	ADDQ $4, AX
	DECQ CX
	JNE  fulltail1
	JMP  epi

masked:
	CMPQ CX, $4
	JL   maskedtail

maskedloop:
	GEMVSTEPMASK(0, Y8, Y0, Y1)
	GEMVSTEPMASK(4, Y9, Y2, Y3)
	GEMVSTEPMASK(8, Y10, Y4, Y5)
	GEMVSTEPMASK(12, Y11, Y6, Y7)
	ADDQ $16, AX
	SUBQ $4, CX
	CMPQ CX, $4
	JGE  maskedloop

maskedtail:
	TESTQ CX, CX
	JEQ   epi

maskedtail1:
	GEMVSTEPMASK(0, Y8, Y0, Y1)
	ADDQ $4, AX
	DECQ CX
	JNE  maskedtail1

epi:
	VADDPS Y2, Y0, Y0
	VADDPS Y3, Y1, Y1
	VADDPS Y6, Y4, Y4
	VADDPS Y7, Y5, Y5
	VADDPS Y4, Y0, Y0
	VADDPS Y5, Y1, Y1
	VBROADCASTSS alpha+40(FP), Y8
	VMULPS Y8, Y0, Y0
	VMULPS Y8, Y1, Y1
	MOVQ flags+56(FP), R10
	TESTQ $1, R10
	JEQ   nobeta
	VBROADCASTSS beta+44(FP), Y8
	VMASKMOVPS (DI), Y14, Y12
	VMASKMOVPS 32(DI), Y15, Y13
	VFMADD231PS Y12, Y8, Y0
	VFMADD231PS Y13, Y8, Y1

nobeta:
	TESTQ $2, R10
	JEQ   nobias
	MOVQ bias+48(FP), R11
	VMASKMOVPS (R11), Y14, Y12
	VMASKMOVPS 32(R11), Y15, Y13
	VADDPS Y12, Y0, Y0
	VADDPS Y13, Y1, Y1

nobias:
	TESTQ $4, R10
	JEQ   store
	VXORPS Y8, Y8, Y8
	VMAXPS Y0, Y8, Y0
	VMAXPS Y1, Y8, Y1

store:
	CMPQ DX, $16
	JNE  storemasked
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VZEROUPPER
	RET

storemasked:
	VMASKMOVPS Y0, Y14, (DI)
	VMASKMOVPS Y1, Y15, 32(DI)
	VZEROUPPER
	RET

// func dot4x256(k int, a, b *float32, ldb int, dst *float32)
// dst[r] = Σp a[p]·b[r*ldb+p] for r = 0..3, with two partial sums per row
// over 8-float chunks of p and a masked tail.
TEXT ·dot4x256(SB), NOSPLIT, $0-40
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), AX
	MOVQ b+16(FP), R8
	MOVQ ldb+24(FP), SI
	SHLQ $2, SI
	LEAQ (R8)(SI*1), R9
	LEAQ (R9)(SI*1), R10
	LEAQ (R10)(SI*1), R11
	XORQ DX, DX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	CMPQ CX, $16
	JL   one

loop:
	VMOVUPS (AX)(DX*1), Y8
	VMOVUPS 32(AX)(DX*1), Y9
	VFMADD231PS (R8)(DX*1), Y8, Y0
	VFMADD231PS 32(R8)(DX*1), Y9, Y4
	VFMADD231PS (R9)(DX*1), Y8, Y1
	VFMADD231PS 32(R9)(DX*1), Y9, Y5
	VFMADD231PS (R10)(DX*1), Y8, Y2
	VFMADD231PS 32(R10)(DX*1), Y9, Y6
	VFMADD231PS (R11)(DX*1), Y8, Y3
	VFMADD231PS 32(R11)(DX*1), Y9, Y7
	ADDQ $64, DX
	SUBQ $16, CX
	CMPQ CX, $16
	JGE  loop

one:
	CMPQ CX, $8
	JL   tail
	VMOVUPS (AX)(DX*1), Y8
	VFMADD231PS (R8)(DX*1), Y8, Y0
	VFMADD231PS (R9)(DX*1), Y8, Y1
	VFMADD231PS (R10)(DX*1), Y8, Y2
	VFMADD231PS (R11)(DX*1), Y8, Y3
	ADDQ $32, DX
	SUBQ $8, CX

tail:
	TESTQ CX, CX
	JEQ   reduce
	LANEMASK(CX, Y10, BX, R12)
	VMASKMOVPS (AX)(DX*1), Y10, Y8
	VMASKMOVPS (R8)(DX*1), Y10, Y9
	VFMADD231PS Y9, Y8, Y4
	VMASKMOVPS (R9)(DX*1), Y10, Y9
	VFMADD231PS Y9, Y8, Y5
	VMASKMOVPS (R10)(DX*1), Y10, Y9
	VFMADD231PS Y9, Y8, Y6
	VMASKMOVPS (R11)(DX*1), Y10, Y9
	VFMADD231PS Y9, Y8, Y7

reduce:
	MOVQ dst+32(FP), DI
	VADDPS Y4, Y0, Y0
	VADDPS Y5, Y1, Y1
	VADDPS Y6, Y2, Y2
	VADDPS Y7, Y3, Y3
	VEXTRACTF128 $1, Y0, X8
	VADDPS X8, X0, X0
	VEXTRACTF128 $1, Y1, X8
	VADDPS X8, X1, X1
	VEXTRACTF128 $1, Y2, X8
	VADDPS X8, X2, X2
	VEXTRACTF128 $1, Y3, X8
	VADDPS X8, X3, X3
	VHADDPS X1, X0, X0 // r0: a0+a1, a2+a3; r1: b0+b1, b2+b3
	VHADDPS X3, X2, X2 // the same for rows 2 and 3
	VHADDPS X2, X0, X0 // the four row sums
	VMOVUPS X0, (DI)
	VZEROUPPER
	RET
