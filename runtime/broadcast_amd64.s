// AVX-512 loops of the float32 binary ops on equal shapes and with a scalar
// operand. IEEE arithmetic rounds each lane as the scalar loop does, so the
// results are the same bit for bit.

//go:build amd64 && !noasm

#include "textflag.h"
#include "vec_amd64.h"

// BINSAME(OP) sets o[i] = a[i] OP b[i] for i < n.
#define BINSAME(OP) \
	MOVQ o+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DX; \
	MOVQ n+24(FP), CX; \
loop: \
	CMPQ CX, $32; \
	JL   tail16; \
	VMOVUPS (SI), Z0; \
	VMOVUPS 64(SI), Z1; \
	OP (DX), Z0, Z0; \
	OP 64(DX), Z1, Z1; \
	VMOVUPS Z0, (DI); \
	VMOVUPS Z1, 64(DI); \
	ADDQ $128, SI; \
	ADDQ $128, DX; \
	ADDQ $128, DI; \
	SUBQ $32, CX; \
	JMP  loop; \
tail16: \
	CMPQ CX, $16; \
	JL   tail; \
	VMOVUPS (SI), Z0; \
	OP (DX), Z0, Z0; \
	VMOVUPS Z0, (DI); \
	ADDQ $64, SI; \
	ADDQ $64, DX; \
	ADDQ $64, DI; \
	SUBQ $16, CX; \
tail: \
	TESTQ CX, CX; \
	JEQ   done; \
	TAILMASK(K2); \
	VMOVUPS.Z (SI), K2, Z0; \
	VMOVUPS.Z (DX), K2, Z1; \
	OP Z1, Z0, Z0; \
	VMOVUPS Z0, K2, (DI); \
done: \
	VZEROUPPER; \
	RET

// BINSCALAR(OP) sets o[i] = a[i] OP s for i < n.
#define BINSCALAR(OP) \
	MOVQ o+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	VBROADCASTSS s+16(FP), Z2; \
	MOVQ n+24(FP), CX; \
loop: \
	CMPQ CX, $32; \
	JL   tail16; \
	VMOVUPS (SI), Z0; \
	VMOVUPS 64(SI), Z1; \
	OP Z2, Z0, Z0; \
	OP Z2, Z1, Z1; \
	VMOVUPS Z0, (DI); \
	VMOVUPS Z1, 64(DI); \
	ADDQ $128, SI; \
	ADDQ $128, DI; \
	SUBQ $32, CX; \
	JMP  loop; \
tail16: \
	CMPQ CX, $16; \
	JL   tail; \
	VMOVUPS (SI), Z0; \
	OP Z2, Z0, Z0; \
	VMOVUPS Z0, (DI); \
	ADDQ $64, SI; \
	ADDQ $64, DI; \
	SUBQ $16, CX; \
tail: \
	TESTQ CX, CX; \
	JEQ   done; \
	TAILMASK(K2); \
	VMOVUPS.Z (SI), K2, Z0; \
	OP Z2, Z0, Z0; \
	VMOVUPS Z0, K2, (DI); \
done: \
	VZEROUPPER; \
	RET

// func addSameAVX512(o, a, b *float32, n int)
TEXT ·addSameAVX512(SB), NOSPLIT, $0-32
	BINSAME(VADDPS)

// func subSameAVX512(o, a, b *float32, n int)
TEXT ·subSameAVX512(SB), NOSPLIT, $0-32
	BINSAME(VSUBPS)

// func mulSameAVX512(o, a, b *float32, n int)
TEXT ·mulSameAVX512(SB), NOSPLIT, $0-32
	BINSAME(VMULPS)

// func divSameAVX512(o, a, b *float32, n int)
TEXT ·divSameAVX512(SB), NOSPLIT, $0-32
	BINSAME(VDIVPS)

// func addScalarAVX512(o, a *float32, s float32, n int)
TEXT ·addScalarAVX512(SB), NOSPLIT, $0-32
	BINSCALAR(VADDPS)

// func subScalarAVX512(o, a *float32, s float32, n int)
TEXT ·subScalarAVX512(SB), NOSPLIT, $0-32
	BINSCALAR(VSUBPS)

// func mulScalarAVX512(o, a *float32, s float32, n int)
TEXT ·mulScalarAVX512(SB), NOSPLIT, $0-32
	BINSCALAR(VMULPS)

// func divScalarAVX512(o, a *float32, s float32, n int)
TEXT ·divScalarAVX512(SB), NOSPLIT, $0-32
	BINSCALAR(VDIVPS)
