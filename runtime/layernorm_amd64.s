// AVX-512 layer normalization of one row: the sums in float64 lanes, as
// the portable loop of layernorm.go computes them.

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_amd64.h"

DATA lnOne<>+0(SB)/8, $0x3ff0000000000000
GLOBL lnOne<>(SB), RODATA|NOPTR, $8

// func layerNormRowAVX512(out, x, w, b *float32, n int, eps float64, mode int)
// mode bit 0: scale by w; bit 1: add b. n ≥ 1.
TEXT ·layerNormRowAVX512(SB), NOSPLIT, $0-56
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ w+16(FP), R9
	MOVQ b+24(FP), R10
	MOVQ n+32(FP), R11
	MOVQ mode+48(FP), R12

	// K2 masks the last n%8 elements.
	MOVQ R11, CX
	ANDQ $7, CX
	TAILMASK(K2)

	// Pass 1: the sum.
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	MOVQ SI, R8
	MOVQ R11, CX

sumloop16:
	CMPQ CX, $16
	JL   sumloop8
	VCVTPS2PD (R8), Z2
	VCVTPS2PD 32(R8), Z3
	VADDPD Z2, Z0, Z0
	VADDPD Z3, Z1, Z1
	ADDQ $64, R8
	SUBQ $16, CX
	JMP  sumloop16

sumloop8:
	CMPQ CX, $8
	JL   sumtail
	VCVTPS2PD (R8), Z2
	VADDPD Z2, Z0, Z0
	ADDQ $32, R8
	SUBQ $8, CX

sumtail:
	TESTQ CX, CX
	JEQ   sumdone
	VCVTPS2PD.Z (R8), K2, Z2
	VADDPD Z2, Z1, Z1

sumdone:
	VADDPD Z1, Z0, Z0
	HSUMPD0
	VCVTSI2SDQ R11, X6, X6
	VDIVSD X6, X0, X0           // mean
	VBROADCASTSD X0, Z4

	// Pass 2: the sum of squared deviations.
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	MOVQ SI, R8
	MOVQ R11, CX

sqloop16:
	CMPQ CX, $16
	JL   sqloop8
	VCVTPS2PD (R8), Z2
	VCVTPS2PD 32(R8), Z3
	VSUBPD Z4, Z2, Z2
	VSUBPD Z4, Z3, Z3
	VFMADD231PD Z2, Z2, Z0
	VFMADD231PD Z3, Z3, Z1
	ADDQ $64, R8
	SUBQ $16, CX
	JMP  sqloop16

sqloop8:
	CMPQ CX, $8
	JL   sqtail
	VCVTPS2PD (R8), Z2
	VSUBPD Z4, Z2, Z2
	VFMADD231PD Z2, Z2, Z0
	ADDQ $32, R8
	SUBQ $8, CX

sqtail:
	TESTQ CX, CX
	JEQ   sqdone
	VCVTPS2PD.Z (R8), K2, Z2
	VSUBPD Z4, Z2, Z2
	VFMADD231PD Z2, Z2, K2, Z1

sqdone:
	VADDPD Z1, Z0, Z0
	HSUMPD0
	VDIVSD X6, X0, X0           // variance
	VADDSD eps+40(FP), X0, X0
	VSQRTSD X0, X0, X0
	VMOVSD lnOne<>(SB), X1
	VDIVSD X0, X1, X1           // 1/√(var+eps)
	VBROADCASTSD X1, Z5

	// Pass 3: out = float32((x-mean)·rstd) (·w) (+b).
	MOVQ R11, CX

outloop:
	CMPQ CX, $8
	JL   outtail
	VCVTPS2PD (SI), Z2
	VSUBPD Z4, Z2, Z2
	VMULPD Z5, Z2, Z2
	VCVTPD2PS Z2, Y2
	BTQ $0, R12
	JCC outnow
	VMULPS (R9), Y2, Y2
	ADDQ $32, R9

outnow:
	BTQ $1, R12
	JCC outnob
	VADDPS (R10), Y2, Y2
	ADDQ $32, R10

outnob:
	VMOVUPS Y2, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  outloop

outtail:
	TESTQ CX, CX
	JEQ   done
	VCVTPS2PD.Z (SI), K2, Z2
	VSUBPD Z4, Z2, Z2
	VMULPD Z5, Z2, Z2
	VCVTPD2PS Z2, Y2
	BTQ $0, R12
	JCC tailnow
	VMULPS.Z (R9), Y2, K2, Y2

tailnow:
	BTQ $1, R12
	JCC tailnob
	VADDPS.Z (R10), Y2, K2, Y2

tailnob:
	VMOVUPS Y2, K2, (DI)

done:
	VZEROUPPER
	RET
