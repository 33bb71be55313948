// Macros shared by the AVX-512 kernels of this package.

#include "vec_avx2_amd64.h"

// TAILMASK sets the mask register K to the low CX bits (CX < 16), with AX
// as scratch: the lanes of a last, partial vector.
#define TAILMASK(K) \
	MOVL  $1, AX; \
	SHLL  CX, AX; \
	DECL  AX; \
	KMOVW AX, K

// MAXSTEP16 folds the sixteen lanes of V into the running maximum ACC
// (VMAXPS keeps its second source, V, where either is NaN) and sets the
// lanes of V that are NaN in the opmask NAN, with K as scratch.
#define MAXSTEP16(V, ACC, K, NAN) \
	VMAXPS V, ACC, ACC; \
	VCMPPS $3, V, V, K; \
	KORW K, NAN, NAN

// MAXREDUCE16 sets the low lane of X (the X register of Z) to the largest
// of Z's sixteen lanes, in the order maxAVX512 takes them; Y is Z's Y
// register, YT and XT those of a scratch register.
#define MAXREDUCE16(Z, Y, X, YT, XT) \
	VEXTRACTF32X8 $1, Z, YT; \
	VMAXPS YT, Y, Y; \
	MAXREDUCE8(Y, X, XT)

// MAXROW16 sets the low lane of X (Z's X register; Y its Y register) to
// the largest of the CX floats at P, taking them as maxAVX512 does from Z
// holding -∞ in every lane, and ORs the mask of their NaN lanes into the
// opmask NAN. NEGINF holds -∞ in every lane; V (VY, VX its Y and X
// registers) and K are scratch, as are AX and K2 (TAILMASK); P and CX are
// advanced. Its labels allow one use per function.
#define MAXROW16(P, Z, Y, X, NAN, NEGINF, V, VY, VX, K) \
rowmaxloop: \
	CMPQ CX, $16; \
	JL   rowmaxtail; \
	VMOVUPS (P), V; \
	MAXSTEP16(V, Z, K, NAN); \
	ADDQ $64, P; \
	SUBQ $16, CX; \
	JMP  rowmaxloop; \
rowmaxtail: \
	TESTQ CX, CX; \
	JEQ   rowmaxreduce; \
	TAILMASK(K2); \
	VMOVAPS NEGINF, V; \
	VMOVUPS (P), K2, V; \
	MAXSTEP16(V, Z, K, NAN); \
rowmaxreduce: \
	MAXREDUCE16(Z, Y, X, VY, VX)

// HSUMPD0 sets the low lane of X0 to the sum of the eight float64 lanes of
// Z0, with Z1 as scratch.
#define HSUMPD0 \
	VEXTRACTF64X4 $1, Z0, Y1; \
	VADDPD Y1, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPD X1, X0, X0; \
	VPERMILPD $1, X0, X1; \
	VADDSD X1, X0, X0
