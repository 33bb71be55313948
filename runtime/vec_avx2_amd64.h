// Macros shared by the AVX2 kernels of this package.

// TAILMASK8 sets the 8-lane float32 mask Y to the low CX lanes (CX < 8)
// from the tailMask table, with AX and BX as scratch. Its low half, the
// X register of the same number, is the mask of the low min(CX, 4) lanes.
#define TAILMASK8(Y) \
	LEAQ ·tailMask+32(SB), AX; \
	MOVQ CX, BX; \
	SHLQ $2, BX; \
	SUBQ BX, AX; \
	VMOVDQU (AX), Y

// HSUMPD4 sets the low lane of X0 to the sum of the four float64 lanes of
// Y0, with X1 as scratch.
#define HSUMPD4 \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPD X1, X0, X0; \
	VPERMILPD $1, X0, X1; \
	VADDSD X1, X0, X0
