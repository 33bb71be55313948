// AVX2 loops of the float32 binary ops on equal shapes and with a scalar
// operand. IEEE arithmetic rounds each lane as the scalar loop does, so the
// results are the same bit for bit.

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_avx2_amd64.h"

// BINSAME8(OP) sets o[i] = a[i] OP b[i] for i < n.
#define BINSAME8(OP) \
	MOVQ o+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DX; \
	MOVQ n+24(FP), CX; \
loop: \
	CMPQ CX, $16; \
	JL   tail8; \
	VMOVUPS (SI), Y0; \
	VMOVUPS 32(SI), Y1; \
	OP (DX), Y0, Y0; \
	OP 32(DX), Y1, Y1; \
	VMOVUPS Y0, (DI); \
	VMOVUPS Y1, 32(DI); \
	ADDQ $64, SI; \
	ADDQ $64, DX; \
	ADDQ $64, DI; \
	SUBQ $16, CX; \
	JMP  loop; \
tail8: \
	CMPQ CX, $8; \
	JL   tail; \
	VMOVUPS (SI), Y0; \
	OP (DX), Y0, Y0; \
	VMOVUPS Y0, (DI); \
	ADDQ $32, SI; \
	ADDQ $32, DX; \
	ADDQ $32, DI; \
	SUBQ $8, CX; \
tail: \
	TESTQ CX, CX; \
	JEQ   done; \
	TAILMASK8(Y13); \
	VMASKMOVPS (SI), Y13, Y0; \
	VMASKMOVPS (DX), Y13, Y1; \
	OP Y1, Y0, Y0; \
	VMASKMOVPS Y0, Y13, (DI); \
done: \
	VZEROUPPER; \
	RET

// BINSCALAR8(OP) sets o[i] = a[i] OP s for i < n.
#define BINSCALAR8(OP) \
	MOVQ o+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	VBROADCASTSS s+16(FP), Y2; \
	MOVQ n+24(FP), CX; \
loop: \
	CMPQ CX, $16; \
	JL   tail8; \
	VMOVUPS (SI), Y0; \
	VMOVUPS 32(SI), Y1; \
	OP Y2, Y0, Y0; \
	OP Y2, Y1, Y1; \
	VMOVUPS Y0, (DI); \
	VMOVUPS Y1, 32(DI); \
	ADDQ $64, SI; \
	ADDQ $64, DI; \
	SUBQ $16, CX; \
	JMP  loop; \
tail8: \
	CMPQ CX, $8; \
	JL   tail; \
	VMOVUPS (SI), Y0; \
	OP Y2, Y0, Y0; \
	VMOVUPS Y0, (DI); \
	ADDQ $32, SI; \
	ADDQ $32, DI; \
	SUBQ $8, CX; \
tail: \
	TESTQ CX, CX; \
	JEQ   done; \
	TAILMASK8(Y13); \
	VMASKMOVPS (SI), Y13, Y0; \
	OP Y2, Y0, Y0; \
	VMASKMOVPS Y0, Y13, (DI); \
done: \
	VZEROUPPER; \
	RET

// func addSameAVX2(o, a, b *float32, n int)
TEXT ·addSameAVX2(SB), NOSPLIT, $0-32
	BINSAME8(VADDPS)

// func subSameAVX2(o, a, b *float32, n int)
TEXT ·subSameAVX2(SB), NOSPLIT, $0-32
	BINSAME8(VSUBPS)

// func mulSameAVX2(o, a, b *float32, n int)
TEXT ·mulSameAVX2(SB), NOSPLIT, $0-32
	BINSAME8(VMULPS)

// func divSameAVX2(o, a, b *float32, n int)
TEXT ·divSameAVX2(SB), NOSPLIT, $0-32
	BINSAME8(VDIVPS)

// func addScalarAVX2(o, a *float32, s float32, n int)
TEXT ·addScalarAVX2(SB), NOSPLIT, $0-32
	BINSCALAR8(VADDPS)

// func subScalarAVX2(o, a *float32, s float32, n int)
TEXT ·subScalarAVX2(SB), NOSPLIT, $0-32
	BINSCALAR8(VSUBPS)

// func mulScalarAVX2(o, a *float32, s float32, n int)
TEXT ·mulScalarAVX2(SB), NOSPLIT, $0-32
	BINSCALAR8(VMULPS)

// func divScalarAVX2(o, a *float32, s float32, n int)
TEXT ·divScalarAVX2(SB), NOSPLIT, $0-32
	BINSCALAR8(VDIVPS)
