// Macros shared by the AVX-512 depthwise plane kernels
// (conv_depthwise_plane_avx512_amd64.s, conv_depthwise_plane2_avx512_amd64.s).

// DWPWEIGHTS broadcasts a channel's nine weights (at R8) into Z16..Z24 and,
// when flags (AX) have bit 2, its bias (at R13) into Z25, which otherwise
// keeps the zero it holds; L is a label of the caller's.
#define DWPWEIGHTS(L) \
	VBROADCASTSS 0(R8), Z16; \
	VBROADCASTSS 4(R8), Z17; \
	VBROADCASTSS 8(R8), Z18; \
	VBROADCASTSS 12(R8), Z19; \
	VBROADCASTSS 16(R8), Z20; \
	VBROADCASTSS 20(R8), Z21; \
	VBROADCASTSS 24(R8), Z22; \
	VBROADCASTSS 28(R8), Z23; \
	VBROADCASTSS 32(R8), Z24; \
	TESTQ        $2, AX; \
	JEQ          L; \
	VBROADCASTSS (R13), Z25; \
L:

// DWPEPI adds the bias (Z25) and applies max(0, ·) keeping NaN (Z26 is
// zero) to ZA as flags (AX) say; L1 and L2 are labels of the caller's.
#define DWPEPI(ZA, L1, L2) \
	TESTQ  $2, AX; \
	JEQ    L1; \
	VADDPS Z25, ZA, ZA; \
L1:; \
	TESTQ  $4, AX; \
	JEQ    L2; \
	VMAXPS ZA, Z26, ZA; \
L2:
