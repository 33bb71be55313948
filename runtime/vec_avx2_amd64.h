// Macros shared by the AVX2 kernels of this package.

// LANEMASK sets the 8-lane float32 mask Y to its first N lanes (N a
// register holding 0 to 8, left as it is) from the tailMask table, with T
// and U as scratch.
#define LANEMASK(N, Y, T, U) \
	LEAQ    ·tailMask+32(SB), T; \
	MOVQ    N, U; \
	SHLQ    $2, U; \
	SUBQ    U, T; \
	VMOVDQU (T), Y

// LANEMASK16 sets the masks of the first N (0 to 16) lanes of a pair of
// 8-lane registers: YLO to lanes < min(N, 8), YHI to lanes < N-8 (none
// when N ≤ 8); N is left as it is, T and U are scratch.
#define LANEMASK16(N, YLO, YHI, T, U) \
	MOVQ    $8, U; \
	CMPQ    N, U; \
	CMOVQLT N, U; \
	LANEMASK(U, YLO, T, U); \
	MOVQ    N, U; \
	SUBQ    $8, U; \
	XORQ    T, T; \
	CMPQ    U, T; \
	CMOVQLT T, U; \
	LANEMASK(U, YHI, T, U)

// TAILMASK8 sets the 8-lane float32 mask Y to the low CX lanes (CX < 8)
// with AX and BX as scratch. Its low half, the X register of the same
// number, is the mask of the low min(CX, 4) lanes.
#define TAILMASK8(Y) LANEMASK(CX, Y, AX, BX)

// MAXSTEP8 folds the eight lanes of V into the running maximum ACC
// (VMAXPS keeps its second source, V, where either is NaN) and ORs the
// mask of V's NaN lanes into NAN, with T as scratch.
#define MAXSTEP8(V, ACC, T, NAN) \
	VMAXPS V, ACC, ACC; \
	VCMPPS $3, V, V, T; \
	VORPS T, NAN, NAN

// MAXREDUCE8 sets the low lane of X (the X register of Y) to the largest
// of Y's eight lanes, in the order maxAVX2 takes them; XT is scratch.
#define MAXREDUCE8(Y, X, XT) \
	VEXTRACTF128 $1, Y, XT; \
	VMAXPS XT, X, X; \
	VPERMILPS $0x4e, X, XT; \
	VMAXPS XT, X, X; \
	VPERMILPS $0xb1, X, XT; \
	VMAXPS XT, X, X

// MAXROW8 sets the low lane of X (Y's X register) to the largest of the
// CX floats at P, taking them as maxAVX2 does from Y holding -∞ in every
// lane, and ORs the mask of their NaN lanes into NAN. NEGINF holds -∞ in
// every lane; V (VX its X register) and T are scratch, as are AX, BX and
// Y13 (TAILMASK8); P and CX are advanced. Its labels allow one use per
// function.
#define MAXROW8(P, Y, X, NAN, NEGINF, V, VX, T) \
rowmaxloop: \
	CMPQ CX, $8; \
	JL   rowmaxtail; \
	VMOVUPS (P), V; \
	MAXSTEP8(V, Y, T, NAN); \
	ADDQ $32, P; \
	SUBQ $8, CX; \
	JMP  rowmaxloop; \
rowmaxtail: \
	TESTQ CX, CX; \
	JEQ   rowmaxreduce; \
	TAILMASK8(Y13); \
	VMASKMOVPS (P), Y13, V; \
	VBLENDVPS Y13, V, NEGINF, V; \
	MAXSTEP8(V, Y, T, NAN); \
rowmaxreduce: \
	MAXREDUCE8(Y, X, VX)

// HSUMPD4 sets the low lane of X0 to the sum of the four float64 lanes of
// Y0, with X1 as scratch.
#define HSUMPD4 \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPD X1, X0, X0; \
	VPERMILPD $1, X0, X1; \
	VADDSD X1, X0, X0
