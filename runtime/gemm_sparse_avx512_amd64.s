// AVX-512 kernel of the GEMM's sparse rows (gemm_sparse.go): one row of A
// against eight packed panels of B (256 columns), over the row's nonzero
// elements only.

//go:build amd64 && !noasm

#include "textflag.h"

// sparseIota holds 0, 1, …, 15 as int32.
DATA sparseIota<>+0(SB)/8, $0x0000000100000000
DATA sparseIota<>+8(SB)/8, $0x0000000300000002
DATA sparseIota<>+16(SB)/8, $0x0000000500000004
DATA sparseIota<>+24(SB)/8, $0x0000000700000006
DATA sparseIota<>+32(SB)/8, $0x0000000900000008
DATA sparseIota<>+40(SB)/8, $0x0000000b0000000a
DATA sparseIota<>+48(SB)/8, $0x0000000d0000000c
DATA sparseIota<>+56(SB)/8, $0x0000000f0000000e
GLOBL sparseIota<>(SB), RODATA|NOPTR, $64

// SPARSEFMA16 adds A(p)·B(p, ·) to the sixteen accumulators Z0..Z15 for
// the index p at (R10): the broadcast of A(p) (SI is the row) times the
// eight panels' row p (BX is panel 0's row 0; R13 and R11 hold one and
// three panel strides in bytes). DX and CX are scratch.
#define SPARSEFMA16 \
	MOVL (R10), DX; \
	VBROADCASTSS (SI)(DX*4), Z16; \
	SHLQ $7, DX; \
	ADDQ BX, DX; \
	LEAQ (DX)(R13*4), CX; \
	VFMADD231PS (DX), Z16, Z0; \
	VFMADD231PS 64(DX), Z16, Z1; \
	VFMADD231PS (DX)(R13*1), Z16, Z2; \
	VFMADD231PS 64(DX)(R13*1), Z16, Z3; \
	VFMADD231PS (DX)(R13*2), Z16, Z4; \
	VFMADD231PS 64(DX)(R13*2), Z16, Z5; \
	VFMADD231PS (DX)(R11*1), Z16, Z6; \
	VFMADD231PS 64(DX)(R11*1), Z16, Z7; \
	VFMADD231PS (CX), Z16, Z8; \
	VFMADD231PS 64(CX), Z16, Z9; \
	VFMADD231PS (CX)(R13*1), Z16, Z10; \
	VFMADD231PS 64(CX)(R13*1), Z16, Z11; \
	VFMADD231PS (CX)(R13*2), Z16, Z12; \
	VFMADD231PS 64(CX)(R13*2), Z16, Z13; \
	VFMADD231PS (CX)(R11*1), Z16, Z14; \
	VFMADD231PS 64(CX)(R11*1), Z16, Z15

// func sparseRows512(a *float32, lda, rows, n int, b *float32, pstride int, acc *float32, idx *int32, c *float32, ldc int, beta float32, bias *float32, flags int)
//
// sparseRows256 for eight panels of 32 columns (256 columns, acc rows of
// 256 floats): the same sums, the chains of the 14×32 tile kernels, and
// their epilogue. idx has room for n + 16 indices.
TEXT ·sparseRows512(SB), NOSPLIT, $0-104
	MOVQ a+0(FP), SI
	MOVQ b+32(FP), BX
	MOVQ pstride+40(FP), R13
	SHLQ $2, R13
	LEAQ (R13)(R13*2), R11
	MOVQ acc+48(FP), R9
	MOVQ flags+96(FP), R8
	VPXORD Z31, Z31, Z31
	VMOVDQU32 sparseIota<>(SB), Z30

row:
	DECQ rows+16(FP)
	JLT done

	// The indices of the row's nonzero elements, sixteen at a time (the
	// last under a mask of the lanes left): the lanes not equal to 0 (or
	// unordered), their indices compressed to the front and stored whole.
	MOVQ n+24(FP), CX
	MOVQ idx+56(FP), DI
	XORQ AX, AX

scan:
	MOVQ CX, DX
	SUBQ AX, DX
	JLE sums
	MOVL $0xffff, R10
	CMPQ DX, $16
	JGE full
	MOVL $0xffff, R12
	BZHIL DX, R12, R10

full:
	KMOVW R10, K2
	VMOVUPS.Z (SI)(AX*4), K2, Z0
	VCMPPS $4, Z31, Z0, K2, K1
	VPBROADCASTD AX, Z1
	VPADDD Z30, Z1, Z1
	VPCOMPRESSD Z1, K1, Z2
	VMOVDQU32 Z2, (DI)
	KMOVW K1, DX
	POPCNTL DX, DX
	LEAQ (DI)(DX*4), DI
	ADDQ $16, AX
	JMP scan

sums:
	MOVQ idx+56(FP), R10
	TESTQ $256, R8
	JEQ zero
	VMOVUPS 0(R9), Z0
	VMOVUPS 64(R9), Z1
	VMOVUPS 128(R9), Z2
	VMOVUPS 192(R9), Z3
	VMOVUPS 256(R9), Z4
	VMOVUPS 320(R9), Z5
	VMOVUPS 384(R9), Z6
	VMOVUPS 448(R9), Z7
	VMOVUPS 512(R9), Z8
	VMOVUPS 576(R9), Z9
	VMOVUPS 640(R9), Z10
	VMOVUPS 704(R9), Z11
	VMOVUPS 768(R9), Z12
	VMOVUPS 832(R9), Z13
	VMOVUPS 896(R9), Z14
	VMOVUPS 960(R9), Z15
	JMP fma

zero:
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15

	// Two indices a pass, then the last one.
fma:
	LEAQ -4(DI), AX

fma2:
	CMPQ R10, AX
	JGE fma1
	SPARSEFMA16
	ADDQ $4, R10
	SPARSEFMA16
	ADDQ $4, R10
	JMP fma2

fma1:
	CMPQ R10, DI
	JGE epi
	SPARSEFMA16

epi:
	TESTQ $512, R8
	JEQ beta
	VMOVUPS Z0, 0(R9)
	VMOVUPS Z1, 64(R9)
	VMOVUPS Z2, 128(R9)
	VMOVUPS Z3, 192(R9)
	VMOVUPS Z4, 256(R9)
	VMOVUPS Z5, 320(R9)
	VMOVUPS Z6, 384(R9)
	VMOVUPS Z7, 448(R9)
	VMOVUPS Z8, 512(R9)
	VMOVUPS Z9, 576(R9)
	VMOVUPS Z10, 640(R9)
	VMOVUPS Z11, 704(R9)
	VMOVUPS Z12, 768(R9)
	VMOVUPS Z13, 832(R9)
	VMOVUPS Z14, 896(R9)
	VMOVUPS Z15, 960(R9)
	JMP nextrow

	// The tile kernels' epilogue (gemm_asmgen.go's epilogueFlags), the
	// same operations in the same order.
beta:
	MOVQ c+64(FP), DI
	TESTQ $1, R8
	JEQ bias
	VBROADCASTSS beta+80(FP), Z16
	VFMADD231PS 0(DI), Z16, Z0
	VFMADD231PS 64(DI), Z16, Z1
	VFMADD231PS 128(DI), Z16, Z2
	VFMADD231PS 192(DI), Z16, Z3
	VFMADD231PS 256(DI), Z16, Z4
	VFMADD231PS 320(DI), Z16, Z5
	VFMADD231PS 384(DI), Z16, Z6
	VFMADD231PS 448(DI), Z16, Z7
	VFMADD231PS 512(DI), Z16, Z8
	VFMADD231PS 576(DI), Z16, Z9
	VFMADD231PS 640(DI), Z16, Z10
	VFMADD231PS 704(DI), Z16, Z11
	VFMADD231PS 768(DI), Z16, Z12
	VFMADD231PS 832(DI), Z16, Z13
	VFMADD231PS 896(DI), Z16, Z14
	VFMADD231PS 960(DI), Z16, Z15

bias:
	TESTQ $2, R8
	JEQ relu
	MOVQ bias+88(FP), AX
	VADDPS 0(AX), Z0, Z0
	VADDPS 64(AX), Z1, Z1
	VADDPS 128(AX), Z2, Z2
	VADDPS 192(AX), Z3, Z3
	VADDPS 256(AX), Z4, Z4
	VADDPS 320(AX), Z5, Z5
	VADDPS 384(AX), Z6, Z6
	VADDPS 448(AX), Z7, Z7
	VADDPS 512(AX), Z8, Z8
	VADDPS 576(AX), Z9, Z9
	VADDPS 640(AX), Z10, Z10
	VADDPS 704(AX), Z11, Z11
	VADDPS 768(AX), Z12, Z12
	VADDPS 832(AX), Z13, Z13
	VADDPS 896(AX), Z14, Z14
	VADDPS 960(AX), Z15, Z15

relu:
	TESTQ $4, R8
	JEQ store
	VPXORD Z16, Z16, Z16
	VMAXPS Z0, Z16, Z0
	VMAXPS Z1, Z16, Z1
	VMAXPS Z2, Z16, Z2
	VMAXPS Z3, Z16, Z3
	VMAXPS Z4, Z16, Z4
	VMAXPS Z5, Z16, Z5
	VMAXPS Z6, Z16, Z6
	VMAXPS Z7, Z16, Z7
	VMAXPS Z8, Z16, Z8
	VMAXPS Z9, Z16, Z9
	VMAXPS Z10, Z16, Z10
	VMAXPS Z11, Z16, Z11
	VMAXPS Z12, Z16, Z12
	VMAXPS Z13, Z16, Z13
	VMAXPS Z14, Z16, Z14
	VMAXPS Z15, Z16, Z15

store:
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	VMOVUPS Z4, 256(DI)
	VMOVUPS Z5, 320(DI)
	VMOVUPS Z6, 384(DI)
	VMOVUPS Z7, 448(DI)
	VMOVUPS Z8, 512(DI)
	VMOVUPS Z9, 576(DI)
	VMOVUPS Z10, 640(DI)
	VMOVUPS Z11, 704(DI)
	VMOVUPS Z12, 768(DI)
	VMOVUPS Z13, 832(DI)
	VMOVUPS Z14, 896(DI)
	VMOVUPS Z15, 960(DI)
	MOVQ ldc+72(FP), AX
	LEAQ (DI)(AX*4), DI
	MOVQ DI, c+64(FP)

nextrow:
	MOVQ lda+8(FP), AX
	LEAQ (SI)(AX*4), SI
	ADDQ $1024, R9
	JMP row

done:
	VZEROUPPER
	RET
