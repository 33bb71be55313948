// AVX2 kernel of the depthwise convolution: one channel, four output rows
// by sixteen output pixels, summed over the kernel's taps straight from
// the zero-padded input.

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_avx2_amd64.h"

// DWROW adds the tap's weight (Y8) times the two input vectors of one
// output row, at B plus the tap's offset (AX), to YA and YB.
#define DWROW(B, YA, YB) \
	VMOVUPS     (B)(AX*1), Y9; \
	VMOVUPS     32(B)(AX*1), Y10; \
	VFMADD231PS Y9, Y8, YA; \
	VFMADD231PS Y10, Y8, YB

// DWEPI adds the bias (Y8, when flags&2) and applies max(0, ·) keeping NaN
// (when flags&4; Y9 is zero) to YA and YB.
#define DWBIAS(YA, YB) \
	VADDPS Y8, YA, YA; \
	VADDPS Y8, YB, YB

#define DWRELU(YA, YB) \
	VMAXPS YA, Y9, YA; \
	VMAXPS YB, Y9, YB

// DWSTFULL stores both halves of one output row at DI; DWSTHALF1 stores
// half 0 whole and half 1 under the mask Y10.
#define DWSTFULL(YA, YB) \
	VMOVUPS YA, (DI); \
	VMOVUPS YB, 32(DI)

#define DWSTHALF1(YA, YB) \
	VMOVUPS    YA, (DI); \
	VMASKMOVPS YB, Y10, 32(DI)

// func convDepthwiseAVX2(k int, offs *int32, x *float32, rowstep int, w *float32,
//	out *float32, ostep, rows int, bias *float32, flags, cnt0, cnt1 int)
//
// For output rows r < 4 and lanes l < 8 of the two halves h (the second 32
// bytes further, in x and in out):
//
//	v[r, h, l] = Σ_{kk<k} w[kk] · x[(r·rowstep + offs[kk])/4 + 8h + l]
//
// plus bias[0] when flags&2, max(0, ·) keeping NaN when flags&4, stored at
// out + r·ostep bytes for r < rows, in the first cnt0 lanes of half 0 and
// cnt1 of half 1. k ≥ 1; the input of all four rows must be readable.
TEXT ·convDepthwiseAVX2(SB), NOSPLIT, $0-96
	MOVQ k+0(FP), CX
	MOVQ offs+8(FP), SI
	MOVQ x+16(FP), BX
	MOVQ rowstep+24(FP), DX
	MOVQ w+32(FP), R8
	LEAQ (BX)(DX*1), R9
	LEAQ (BX)(DX*2), R10
	LEAQ (R9)(DX*2), R11

	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

tap:
	MOVLQSX      (SI), AX
	VBROADCASTSS (R8), Y8
	DWROW(BX, Y0, Y1)
	DWROW(R9, Y2, Y3)
	DWROW(R10, Y4, Y5)
	DWROW(R11, Y6, Y7)
	ADDQ         $4, SI
	ADDQ         $4, R8
	DECQ         CX
	JNE          tap

	MOVQ  flags+72(FP), R13
	TESTQ $2, R13
	JEQ   nobias
	MOVQ  bias+64(FP), R12
	VBROADCASTSS (R12), Y8
	DWBIAS(Y0, Y1)
	DWBIAS(Y2, Y3)
	DWBIAS(Y4, Y5)
	DWBIAS(Y6, Y7)

nobias:
	TESTQ $4, R13
	JEQ   norelu
	VXORPS Y9, Y9, Y9
	DWRELU(Y0, Y1)
	DWRELU(Y2, Y3)
	DWRELU(Y4, Y5)
	DWRELU(Y6, Y7)

norelu:
	MOVQ out+40(FP), DI
	MOVQ ostep+48(FP), DX
	MOVQ rows+56(FP), CX
	MOVQ cnt0+80(FP), AX
	MOVQ cnt1+88(FP), BX

	// Masked stores are slow on some cores (about a dozen cycles each on
	// AMD Zen), so whole halves store plainly and an empty half not at all.
	CMPQ AX, $8
	JNE  half0part
	CMPQ BX, $8
	JEQ  whole
	CMPQ BX, $0
	JEQ  half0only
	JMP  half1part

whole:
	// Both halves whole.
	DWSTFULL(Y0, Y1)
	CMPQ CX, $1
	JLE  done
	ADDQ DX, DI
	DWSTFULL(Y2, Y3)
	CMPQ CX, $2
	JLE  done
	ADDQ DX, DI
	DWSTFULL(Y4, Y5)
	CMPQ CX, $3
	JLE  done
	ADDQ DX, DI
	DWSTFULL(Y6, Y7)
	JMP  done

half0only:
	// Half 0 whole, half 1 empty.
	VMOVUPS Y0, (DI)
	CMPQ    CX, $1
	JLE     done
	ADDQ    DX, DI
	VMOVUPS Y2, (DI)
	CMPQ    CX, $2
	JLE     done
	ADDQ    DX, DI
	VMOVUPS Y4, (DI)
	CMPQ    CX, $3
	JLE     done
	ADDQ    DX, DI
	VMOVUPS Y6, (DI)
	JMP     done

half1part:
	// Half 0 whole, half 1 the first cnt1 lanes (Y10).
	LANEMASK(BX, Y10, R8, R9)
	DWSTHALF1(Y0, Y1)
	CMPQ CX, $1
	JLE  done
	ADDQ DX, DI
	DWSTHALF1(Y2, Y3)
	CMPQ CX, $2
	JLE  done
	ADDQ DX, DI
	DWSTHALF1(Y4, Y5)
	CMPQ CX, $3
	JLE  done
	ADDQ DX, DI
	DWSTHALF1(Y6, Y7)
	JMP  done

half0part:
	// Half 0 the first cnt0 lanes (Y9); half 1 then has none.
	LANEMASK(AX, Y9, R8, R9)
	VMASKMOVPS Y0, Y9, (DI)
	CMPQ CX, $1
	JLE  done
	ADDQ DX, DI
	VMASKMOVPS Y2, Y9, (DI)
	CMPQ CX, $2
	JLE  done
	ADDQ DX, DI
	VMASKMOVPS Y4, Y9, (DI)
	CMPQ CX, $3
	JLE  done
	ADDQ DX, DI
	VMASKMOVPS Y6, Y9, (DI)

done:
	VZEROUPPER
	RET
