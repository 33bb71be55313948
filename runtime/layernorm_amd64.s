// AVX-512 layer normalization of one row: the sums in float64 lanes, as
// the portable loop of layernorm.go computes them, eight lanes at a time
// in up to four chains.

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

	// Pass 1: the sum, in four chains of eight lanes (Z0, Z1, Z7, Z8)
	// while 32 elements remain, so that the additions' latency overlaps.
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z7, Z7, Z7
	VXORPD Z8, Z8, Z8
	MOVQ SI, R8
	MOVQ R11, CX

sumloop32:
	CMPQ CX, $32
	JL   sumloop16
	VCVTPS2PD (R8), Z2
	VCVTPS2PD 32(R8), Z3
	VCVTPS2PD 64(R8), Z9
	VCVTPS2PD 96(R8), Z10
	VADDPD Z2, Z0, Z0
	VADDPD Z3, Z1, Z1
	VADDPD Z9, Z7, Z7
	VADDPD Z10, Z8, Z8
	ADDQ $128, R8
	SUBQ $32, CX
	JMP  sumloop32

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
	VADDPD Z7, Z0, Z0
	VADDPD Z8, Z1, Z1
	VADDPD Z1, Z0, Z0
	HSUMPD0
	VCVTSI2SDQ R11, X6, X6
	VDIVSD X6, X0, X0           // mean
	VBROADCASTSD X0, Z4

	// Pass 2: the sum of squared deviations, in four chains likewise.
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z7, Z7, Z7
	VXORPD Z8, Z8, Z8
	MOVQ SI, R8
	MOVQ R11, CX

sqloop32:
	CMPQ CX, $32
	JL   sqloop16
	VCVTPS2PD (R8), Z2
	VCVTPS2PD 32(R8), Z3
	VCVTPS2PD 64(R8), Z9
	VCVTPS2PD 96(R8), Z10
	VSUBPD Z4, Z2, Z2
	VSUBPD Z4, Z3, Z3
	VSUBPD Z4, Z9, Z9
	VSUBPD Z4, Z10, Z10
	VFMADD231PD Z2, Z2, Z0
	VFMADD231PD Z3, Z3, Z1
	VFMADD231PD Z9, Z9, Z7
	VFMADD231PD Z10, Z10, Z8
	ADDQ $128, R8
	SUBQ $32, CX
	JMP  sqloop32

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
	VADDPD Z7, Z0, Z0
	VADDPD Z8, Z1, Z1
	VADDPD Z1, Z0, Z0
	HSUMPD0
	VDIVSD X6, X0, X0           // variance
	VADDSD eps+40(FP), X0, X0
	VSQRTSD X0, X0, X0
	VMOVSD lnOne<>(SB), X1
	VDIVSD X0, X1, X1           // 1/√(var+eps)
	VBROADCASTSD X1, Z5

	// Pass 3: out = float32((x-mean)·rstd) (·w) (+b), sixteen elements
	// a step while they last, then eight.
	MOVQ R11, CX

outloop16:
	CMPQ CX, $16
	JL   outloop
	VCVTPS2PD (SI), Z2
	VCVTPS2PD 32(SI), Z3
	VSUBPD Z4, Z2, Z2
	VSUBPD Z4, Z3, Z3
	VMULPD Z5, Z2, Z2
	VMULPD Z5, Z3, Z3
	VCVTPD2PS Z2, Y2
	VCVTPD2PS Z3, Y3
	VINSERTF64X4 $1, Y3, Z2, Z2
	BTQ $0, R12
	JCC outnow16
	VMULPS (R9), Z2, Z2
	ADDQ $64, R9

outnow16:
	BTQ $1, R12
	JCC outnob16
	VADDPS (R10), Z2, Z2
	ADDQ $64, R10

outnob16:
	VMOVUPS Z2, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $16, CX
	JMP  outloop16

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
