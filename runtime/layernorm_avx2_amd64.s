// AVX2 layer normalization of one row: the sums in float64 lanes, as the
// portable loop of layernorm.go computes them, four lanes at a time in
// up to four chains. The
// last n%4 elements are read and written under the VMASKMOVPS mask X13
// (its lanes widened to 64 bits in Y12 for the float64 sums).

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_avx2_amd64.h"

DATA lnOneAVX2<>+0(SB)/8, $0x3ff0000000000000
GLOBL lnOneAVX2<>(SB), RODATA|NOPTR, $8

// func layerNormRowAVX2(out, x, w, b *float32, n int, eps float64, mode int)
// mode bit 0: scale by w; bit 1: add b. n ≥ 1.
TEXT ·layerNormRowAVX2(SB), NOSPLIT, $0-56
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ w+16(FP), R9
	MOVQ b+24(FP), R10
	MOVQ n+32(FP), R11
	MOVQ mode+48(FP), R12

	// X13 masks the last n%4 elements, Y12 the same lanes as float64.
	MOVQ R11, CX
	ANDQ $3, CX
	TAILMASK8(Y13)
	VPMOVSXDQ X13, Y12

	// Pass 1: the sum, in four chains of four lanes (Y0, Y1, Y7, Y8)
	// while 16 elements remain, so that the additions' latency overlaps.
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	MOVQ SI, R8
	MOVQ R11, CX

sumloop16:
	CMPQ CX, $16
	JL   sumloop8
	VCVTPS2PD (R8), Y2
	VCVTPS2PD 16(R8), Y3
	VCVTPS2PD 32(R8), Y9
	VCVTPS2PD 48(R8), Y10
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y1, Y1
	VADDPD Y9, Y7, Y7
	VADDPD Y10, Y8, Y8
	ADDQ $64, R8
	SUBQ $16, CX
	JMP  sumloop16

sumloop8:
	CMPQ CX, $8
	JL   sumloop4
	VCVTPS2PD (R8), Y2
	VCVTPS2PD 16(R8), Y3
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y1, Y1
	ADDQ $32, R8
	SUBQ $8, CX
	JMP  sumloop8

sumloop4:
	CMPQ CX, $4
	JL   sumtail
	VCVTPS2PD (R8), Y2
	VADDPD Y2, Y0, Y0
	ADDQ $16, R8
	SUBQ $4, CX

sumtail:
	TESTQ CX, CX
	JEQ   sumdone
	VMASKMOVPS (R8), X13, X2
	VCVTPS2PD X2, Y2
	VADDPD Y2, Y1, Y1

sumdone:
	VADDPD Y7, Y0, Y0
	VADDPD Y8, Y1, Y1
	VADDPD Y1, Y0, Y0
	HSUMPD4
	VCVTSI2SDQ R11, X6, X6
	VDIVSD X6, X0, X0           // mean
	VBROADCASTSD X0, Y4

	// Pass 2: the sum of squared deviations, in four chains likewise.
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	MOVQ SI, R8
	MOVQ R11, CX

sqloop16:
	CMPQ CX, $16
	JL   sqloop8
	VCVTPS2PD (R8), Y2
	VCVTPS2PD 16(R8), Y3
	VCVTPS2PD 32(R8), Y9
	VCVTPS2PD 48(R8), Y10
	VSUBPD Y4, Y2, Y2
	VSUBPD Y4, Y3, Y3
	VSUBPD Y4, Y9, Y9
	VSUBPD Y4, Y10, Y10
	VFMADD231PD Y2, Y2, Y0
	VFMADD231PD Y3, Y3, Y1
	VFMADD231PD Y9, Y9, Y7
	VFMADD231PD Y10, Y10, Y8
	ADDQ $64, R8
	SUBQ $16, CX
	JMP  sqloop16

sqloop8:
	CMPQ CX, $8
	JL   sqloop4
	VCVTPS2PD (R8), Y2
	VCVTPS2PD 16(R8), Y3
	VSUBPD Y4, Y2, Y2
	VSUBPD Y4, Y3, Y3
	VFMADD231PD Y2, Y2, Y0
	VFMADD231PD Y3, Y3, Y1
	ADDQ $32, R8
	SUBQ $8, CX
	JMP  sqloop8

sqloop4:
	CMPQ CX, $4
	JL   sqtail
	VCVTPS2PD (R8), Y2
	VSUBPD Y4, Y2, Y2
	VFMADD231PD Y2, Y2, Y0
	ADDQ $16, R8
	SUBQ $4, CX

sqtail:
	TESTQ CX, CX
	JEQ   sqdone
	VMASKMOVPS (R8), X13, X2
	VCVTPS2PD X2, Y2
	VSUBPD Y4, Y2, Y2
	VANDPD Y12, Y2, Y2
	VFMADD231PD Y2, Y2, Y1

sqdone:
	VADDPD Y7, Y0, Y0
	VADDPD Y8, Y1, Y1
	VADDPD Y1, Y0, Y0
	HSUMPD4
	VDIVSD X6, X0, X0           // variance
	VADDSD eps+40(FP), X0, X0
	VSQRTSD X0, X0, X0
	VMOVSD lnOneAVX2<>(SB), X1
	VDIVSD X0, X1, X1           // 1/√(var+eps)
	VBROADCASTSD X1, Y5

	// Pass 3: out = float32((x-mean)·rstd) (·w) (+b), eight elements a
	// step while they last, then four.
	MOVQ R11, CX

outloop8:
	CMPQ CX, $8
	JL   outloop
	VCVTPS2PD (SI), Y2
	VCVTPS2PD 16(SI), Y3
	VSUBPD Y4, Y2, Y2
	VSUBPD Y4, Y3, Y3
	VMULPD Y5, Y2, Y2
	VMULPD Y5, Y3, Y3
	VCVTPD2PSY Y2, X2
	VCVTPD2PSY Y3, X3
	VINSERTF128 $1, X3, Y2, Y2
	BTQ $0, R12
	JCC outnow8
	VMULPS (R9), Y2, Y2
	ADDQ $32, R9

outnow8:
	BTQ $1, R12
	JCC outnob8
	VADDPS (R10), Y2, Y2
	ADDQ $32, R10

outnob8:
	VMOVUPS Y2, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  outloop8

outloop:
	CMPQ CX, $4
	JL   outtail
	VCVTPS2PD (SI), Y2
	VSUBPD Y4, Y2, Y2
	VMULPD Y5, Y2, Y2
	VCVTPD2PSY Y2, X2
	BTQ $0, R12
	JCC outnow
	VMULPS (R9), X2, X2
	ADDQ $16, R9

outnow:
	BTQ $1, R12
	JCC outnob
	VADDPS (R10), X2, X2
	ADDQ $16, R10

outnob:
	VMOVUPS X2, (DI)
	ADDQ $16, SI
	ADDQ $16, DI
	SUBQ $4, CX
	JMP  outloop

outtail:
	TESTQ CX, CX
	JEQ   done
	VMASKMOVPS (SI), X13, X2
	VCVTPS2PD X2, Y2
	VSUBPD Y4, Y2, Y2
	VMULPD Y5, Y2, Y2
	VCVTPD2PSY Y2, X2
	BTQ $0, R12
	JCC tailnow
	VMASKMOVPS (R9), X13, X3
	VMULPS X3, X2, X2

tailnow:
	BTQ $1, R12
	JCC tailnob
	VMASKMOVPS (R10), X13, X3
	VADDPS X3, X2, X2

tailnob:
	VMASKMOVPS X2, X13, (DI)

done:
	VZEROUPPER
	RET
