// Macros shared by the AVX-512 kernels of this package.

// TAILMASK sets the mask register K to the low CX bits (CX < 16), with AX
// as scratch: the lanes of a last, partial vector.
#define TAILMASK(K) \
	MOVL  $1, AX; \
	SHLL  CX, AX; \
	DECL  AX; \
	KMOVW AX, K

// HSUMPD0 sets the low lane of X0 to the sum of the eight float64 lanes of
// Z0, with Z1 as scratch.
#define HSUMPD0 \
	VEXTRACTF64X4 $1, Z0, Y1; \
	VADDPD Y1, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPD X1, X0, X0; \
	VPERMILPD $1, X0, X1; \
	VADDSD X1, X0, X0
