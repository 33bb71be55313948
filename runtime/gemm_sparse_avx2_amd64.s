// AVX2+FMA kernels of the GEMM's sparse rows (gemm_sparse.go): one row of
// A against six packed panels of B (96 columns), over the row's nonzero
// elements only.

//go:build amd64 && !noasm

#include "textflag.h"

// SPARSEFMA adds A(p)·B(p, ·) to the twelve accumulators Y0..Y11 for the
// index p at (R10): the broadcast of A(p) (SI is the row) times the six
// panels' row p (BX is panel 0's row 0; R13, R11 and R12 hold one, three
// and five panel strides in bytes). DX is scratch.
#define SPARSEFMA \
	MOVL (R10), DX; \
	VBROADCASTSS (SI)(DX*4), Y12; \
	SHLQ $6, DX; \
	ADDQ BX, DX; \
	VFMADD231PS (DX), Y12, Y0; \
	VFMADD231PS 32(DX), Y12, Y1; \
	VFMADD231PS (DX)(R13*1), Y12, Y2; \
	VFMADD231PS 32(DX)(R13*1), Y12, Y3; \
	VFMADD231PS (DX)(R13*2), Y12, Y4; \
	VFMADD231PS 32(DX)(R13*2), Y12, Y5; \
	VFMADD231PS (DX)(R11*1), Y12, Y6; \
	VFMADD231PS 32(DX)(R11*1), Y12, Y7; \
	VFMADD231PS (DX)(R13*4), Y12, Y8; \
	VFMADD231PS 32(DX)(R13*4), Y12, Y9; \
	VFMADD231PS (DX)(R12*1), Y12, Y10; \
	VFMADD231PS 32(DX)(R12*1), Y12, Y11

// func sparseRows256(a *float32, lda, rows, n int, b *float32, pstride int, acc *float32, idx *int32, c *float32, ldc int, beta float32, bias *float32, flags int)
//
// For each of rows rows of A (the first at a, lda floats apart), of acc
// (96 floats apart) and of C (ldc floats apart), and the columns j < 96
// of six panels of B (the first at b, each pstride floats after the one
// before, row p of a panel at p·16), it sets
//
//	acc[j] = Σ a[p]·B(p, j) over p < n with a[p] ≠ 0 (NaN included),
//
// each a chain of FMAs in increasing p from acc (flags&sparseAccIn) or
// from 0: the chain the 6×16 tile kernels compute, but for the terms of
// the zeros of a, which add nothing to it where B is finite. idx has
// room for n + 8 indices; it receives those of a row's nonzero elements.
// With flags&sparseAccOut the sums are stored to acc; otherwise c[j]
// gets the tile kernels' epilogue of them (+beta·c[j] when
// flags&flagBeta, +bias[j] when flags&flagBias, then max(0, ·) when
// flags&flagReLU). It advances its rows and C in its arguments' slots.
TEXT ·sparseRows256(SB), NOSPLIT, $0-104
	MOVQ a+0(FP), SI
	MOVQ n+24(FP), CX
	MOVQ b+32(FP), BX
	MOVQ pstride+40(FP), R13
	SHLQ $2, R13
	LEAQ (R13)(R13*2), R11
	LEAQ (R13)(R13*4), R12
	MOVQ acc+48(FP), R9
	MOVQ flags+96(FP), R8
	VXORPS Y15, Y15, Y15

row:
	DECQ rows+16(FP)
	JLT done

	// The indices of the row's nonzero elements, eight at a time: the
	// mask of the lanes not equal to 0 (or unordered) picks a row of
	// packLanes, their lane numbers, which go to idx plus the first
	// lane's index.
	MOVQ idx+56(FP), DI
	LEAQ ·packLanes(SB), DX
	XORQ AX, AX

scan8:
	LEAQ 8(AX), R10
	CMPQ R10, CX
	JGT scan1
	VMOVUPS (SI)(AX*4), Y0
	VCMPPS $4, Y15, Y0, Y1
	VMOVMSKPS Y1, R10
	VPMOVZXBD (DX)(R10*8), Y2
	VMOVD AX, X3
	VPBROADCASTD X3, Y3
	VPADDD Y3, Y2, Y2
	VMOVDQU Y2, (DI)
	POPCNTL R10, R10
	LEAQ (DI)(R10*4), DI
	ADDQ $8, AX
	JMP scan8

scan1:
	CMPQ AX, CX
	JGE sums
	VMOVSS (SI)(AX*4), X0
	MOVL AX, (DI)
	VUCOMISS X15, X0
	JNE keep
	JPS keep
	JMP next1

keep:
	ADDQ $4, DI

next1:
	INCQ AX
	JMP scan1

sums:
	MOVQ idx+56(FP), R10
	TESTQ $256, R8
	JEQ zero
	VMOVUPS (R9), Y0
	VMOVUPS 32(R9), Y1
	VMOVUPS 64(R9), Y2
	VMOVUPS 96(R9), Y3
	VMOVUPS 128(R9), Y4
	VMOVUPS 160(R9), Y5
	VMOVUPS 192(R9), Y6
	VMOVUPS 224(R9), Y7
	VMOVUPS 256(R9), Y8
	VMOVUPS 288(R9), Y9
	VMOVUPS 320(R9), Y10
	VMOVUPS 352(R9), Y11
	JMP fma

zero:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

	// Two indices a pass, then the last one.
fma:
	LEAQ -4(DI), AX

fma2:
	CMPQ R10, AX
	JGE fma1
	SPARSEFMA
	ADDQ $4, R10
	SPARSEFMA
	ADDQ $4, R10
	JMP fma2

fma1:
	CMPQ R10, DI
	JGE epi
	SPARSEFMA

epi:
	TESTQ $512, R8
	JEQ beta
	VMOVUPS Y0, (R9)
	VMOVUPS Y1, 32(R9)
	VMOVUPS Y2, 64(R9)
	VMOVUPS Y3, 96(R9)
	VMOVUPS Y4, 128(R9)
	VMOVUPS Y5, 160(R9)
	VMOVUPS Y6, 192(R9)
	VMOVUPS Y7, 224(R9)
	VMOVUPS Y8, 256(R9)
	VMOVUPS Y9, 288(R9)
	VMOVUPS Y10, 320(R9)
	VMOVUPS Y11, 352(R9)
	JMP nextrow

	// The tile kernels' epilogue (gemm_asmgen.go's epilogueFlags), the
	// same operations in the same order.
beta:
	MOVQ c+64(FP), DI
	TESTQ $1, R8
	JEQ bias
	VBROADCASTSS beta+80(FP), Y12
	VFMADD231PS (DI), Y12, Y0
	VFMADD231PS 32(DI), Y12, Y1
	VFMADD231PS 64(DI), Y12, Y2
	VFMADD231PS 96(DI), Y12, Y3
	VFMADD231PS 128(DI), Y12, Y4
	VFMADD231PS 160(DI), Y12, Y5
	VFMADD231PS 192(DI), Y12, Y6
	VFMADD231PS 224(DI), Y12, Y7
	VFMADD231PS 256(DI), Y12, Y8
	VFMADD231PS 288(DI), Y12, Y9
	VFMADD231PS 320(DI), Y12, Y10
	VFMADD231PS 352(DI), Y12, Y11

bias:
	TESTQ $2, R8
	JEQ relu
	MOVQ bias+88(FP), AX
	VADDPS (AX), Y0, Y0
	VADDPS 32(AX), Y1, Y1
	VADDPS 64(AX), Y2, Y2
	VADDPS 96(AX), Y3, Y3
	VADDPS 128(AX), Y4, Y4
	VADDPS 160(AX), Y5, Y5
	VADDPS 192(AX), Y6, Y6
	VADDPS 224(AX), Y7, Y7
	VADDPS 256(AX), Y8, Y8
	VADDPS 288(AX), Y9, Y9
	VADDPS 320(AX), Y10, Y10
	VADDPS 352(AX), Y11, Y11

relu:
	TESTQ $4, R8
	JEQ store
	VXORPS Y12, Y12, Y12
	VMAXPS Y0, Y12, Y0
	VMAXPS Y1, Y12, Y1
	VMAXPS Y2, Y12, Y2
	VMAXPS Y3, Y12, Y3
	VMAXPS Y4, Y12, Y4
	VMAXPS Y5, Y12, Y5
	VMAXPS Y6, Y12, Y6
	VMAXPS Y7, Y12, Y7
	VMAXPS Y8, Y12, Y8
	VMAXPS Y9, Y12, Y9
	VMAXPS Y10, Y12, Y10
	VMAXPS Y11, Y12, Y11

store:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	VMOVUPS Y8, 256(DI)
	VMOVUPS Y9, 288(DI)
	VMOVUPS Y10, 320(DI)
	VMOVUPS Y11, 352(DI)
	MOVQ ldc+72(FP), AX
	LEAQ (DI)(AX*4), DI
	MOVQ DI, c+64(FP)

nextrow:
	MOVQ lda+8(FP), AX
	LEAQ (SI)(AX*4), SI
	ADDQ $384, R9
	JMP row

done:
	VZEROUPPER
	RET

// func countZeros256(x *float32, n int) int
//
// countZeros256 returns the number of elements of x[:n] equal to 0 (±0).
TEXT ·countZeros256(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VXORPS Y15, Y15, Y15
	XORQ AX, AX
	XORQ BX, BX
	MOVQ CX, R11
	ANDQ $-8, R11

count8:
	CMPQ AX, R11
	JGE count1
	VCMPPS $0, (SI)(AX*4), Y15, Y1
	VMOVMSKPS Y1, DX
	POPCNTL DX, DX
	ADDQ DX, BX
	ADDQ $8, AX
	JMP count8

count1:
	CMPQ AX, CX
	JGE counted
	VMOVSS (SI)(AX*4), X0
	VCMPSS $0, X15, X0, X1
	VMOVD X1, DX
	ANDL $1, DX
	ADDQ DX, BX
	INCQ AX
	JMP count1

counted:
	MOVQ BX, ret+16(FP)
	VZEROUPPER
	RET
