// The constants of the float32 activation kernels
// (activation_f32_avx2_amd64.s, activation_f32_avx512_amd64.s), so that
// both tiers compute with the same ones. Each file that includes this
// gets its own copy of the tables f32Const<> and f64Const<>.

// Each constant fills 32 bytes (eight float32 lanes), so that it can be a
// memory operand of a 256-bit instruction; the AVX-512 kernels broadcast
// its first lane.
#define C8(off, v) DATA f32Const<>+(off)(SB)/4, v; DATA f32Const<>+(off+4)(SB)/4, v; DATA f32Const<>+(off+8)(SB)/4, v; DATA f32Const<>+(off+12)(SB)/4, v; DATA f32Const<>+(off+16)(SB)/4, v; DATA f32Const<>+(off+20)(SB)/4, v; DATA f32Const<>+(off+24)(SB)/4, v; DATA f32Const<>+(off+28)(SB)/4, v

// G16 fills 64 bytes with eight float32 entries, twice.
#define G16(off, v0, v1, v2, v3, v4, v5, v6, v7) DATA f32Const<>+(off+0)(SB)/4, v0; DATA f32Const<>+(off+4)(SB)/4, v1; DATA f32Const<>+(off+8)(SB)/4, v2; DATA f32Const<>+(off+12)(SB)/4, v3; DATA f32Const<>+(off+16)(SB)/4, v4; DATA f32Const<>+(off+20)(SB)/4, v5; DATA f32Const<>+(off+24)(SB)/4, v6; DATA f32Const<>+(off+28)(SB)/4, v7; DATA f32Const<>+(off+32)(SB)/4, v0; DATA f32Const<>+(off+36)(SB)/4, v1; DATA f32Const<>+(off+40)(SB)/4, v2; DATA f32Const<>+(off+44)(SB)/4, v3; DATA f32Const<>+(off+48)(SB)/4, v4; DATA f32Const<>+(off+52)(SB)/4, v5; DATA f32Const<>+(off+56)(SB)/4, v6; DATA f32Const<>+(off+60)(SB)/4, v7

// RECIPF32 sets the low lane of R to float32(1/s) for the float64 s in the
// low lane of S (the division in float64, then one rounding, as Go's
// float32(1/s)); AX is scratch.
#define RECIPF32(S, R) \
	MOVQ $0x3ff0000000000000, AX; \
	VMOVQ AX, R; \
	VDIVSD S, R, R; \
	VCVTSD2SS R, R, R

// JINF32 jumps to L when the float32 in the low lane of X is ±∞; AX is
// scratch.
#define JINF32(X, L) \
	VMOVD X, AX; \
	ANDL $0x7fffffff, AX; \
	CMPL AX, $0x7f800000; \
	JEQ L

#define fONE 0
#define fSIGN 32
#define fABS 64
#define fEXPLO 96
#define fEXPHI 128
#define fLOG2E 160
#define fLN2HI 192
#define fLN2LO 224
#define fQ0 256
#define fQ1 288
#define fQ2 320
#define fQ3 352
#define fQ4 384
#define fQ5 416
#define fBIAS 448
#define fTSMALL 480
#define fT0 512
#define fT1 544
#define fT2 576
#define fT3 608
#define fT4 640
#define fNHALF 704
#define fGBIG 736
#define fGS 768
#define fGC 832
#define fGP0 896
#define fGP1 960
#define fGP2 1024
#define fGP3 1088
#define fGP4 1152
#define fGP5 1216
#define fINF 1280
#define fEXPZ 1312
#define fGFSHIFT 1344
#define fGFLO 1376
#define fGFHI 1408
#define fGFC 1472
#define fGFP0 1536
#define fGFP1 1600
#define fGFP2 1664
#define fGFP3 1728
#define fGFP4 1792
#define fGFP5 1856
#define fGFP6 1920
#define fGFP7 1984
#define fGFP8 2048
#define fGFP9 2112
#define fGTSHIFT 2176
#define fGTLO 2208
#define fGTHI 2240
#define fGTC 2304
#define fGTP0 2368
#define fGTP1 2432
#define fGTP2 2496
#define fGTP3 2560
#define fGTP4 2624
#define fGTP5 2688
#define fGTP6 2752
#define fGTP7 2816
#define fGTP8 2880
#define fGTP9 2944

C8(fONE, $0x3f800000)    // 1
C8(fSIGN, $0x80000000)   // sign bit
C8(fABS, $0x7fffffff)    // all but the sign bit
C8(fEXPLO, $0xc2e00000)  // -112: e^a and x·e^a round to 0 below
C8(fEXPHI, $0x42b1999a)  // 88.8: e^a overflows above 88.73
C8(fLOG2E, $0x3fb8aa3b)  // log2 e
C8(fLN2HI, $0x3f317218)  // ln 2 rounded to float32
C8(fLN2LO, $0xb102e308)  // ln 2 - fLN2HI
C8(fQ0, $0x3f000000)     // Q(r) = 0.5 + 0.16666666r + ...
C8(fQ1, $0x3e2aaaaa)
C8(fQ2, $0x3d2aaa26)
C8(fQ3, $0x3c0888d9)
C8(fQ4, $0x3ab6de19)
C8(fQ5, $0x39501740)
C8(fBIAS, $0x0000007f)   // the float32 exponent bias, 127
C8(fTSMALL, $0x3f200000) // 0.625: tanh's polynomial below
C8(fT0, $0xbeaaaaa3)     // tanh x = x + x³·T(x²), T(z) = -0.33333310 + ...
C8(fT1, $0x3e088597)
C8(fT2, $0xbd5c5f67)
C8(fT3, $0x3caab3f3)
C8(fT4, $0xbbc21844)
C8(fNHALF, $0xbf000000)  // -0.5
C8(fGBIG, $0x426e6666)   // 14.9: GELU is x or -0 beyond
C8(fGS, $0x3ee66666)     // 0.45: GELU's t = 1/(1+0.45a)
// GELU's piecewise polynomial: Φ(-a)·e^{a²/2} = P0 + P1·u + ... + P5·u⁵,
// u = t - C, on six pieces of w = 1 + 0.45a: [1, 1.5), [1.5, 2), [2, 3),
// [3, 4), [4, 6) and [6, 8) (a up to 14.9). Entry i of each row is for
// the w whose bits 22 to 24 (the top bit of the fraction and the two low
// bits of the exponent) are i: [2, 3) is 0, [3, 4) 1, [4, 6) 2, [6, 8) 3,
// [1, 1.5) 6 and [1.5, 2) 7; 4 and 5 repeat [6, 8) (w ≥ 8 is past the
// cut). Each row is its eight entries twice, so that the sixteen-lane
// VPERMPS, which also reads bit 25, finds the same ones.
// scripts/gelu_pieces.py fits them and prints these lines.
G16(fGC, $0x3ed55555, $0x3e955555, $0x3e555555, $0x3e179718, $0x3e179718, $0x3e179718, $0x3f555555, $0x3f155555)
G16(fGP0, $0x3df141fb, $0x3d92a77c, $0x3d3ee6b4, $0x3cfe0207, $0x3cfe0207, $0x3cfe0207, $0x3eb992a3, $0x3e4aea6f)
G16(fGP1, $0x3ed4a73c, $0x3ea6f6f1, $0x3e8ce22c, $0x3e78c268, $0x3e78c268, $0x3e78c268, $0x3f42d9c2, $0x3f0d1b87)
G16(fGP2, $0x3ec46d31, $0x3ea7a39c, $0x3e9121a0, $0x3e80a252, $0x3e80a252, $0x3e80a252, $0x3ecd5ee3, $0x3ed901e4)
G16(fGP3, $0x3dffa800, $0x3e2db365, $0x3e377641, $0x3e33ff78, $0x3e33ff78, $0x3e33ff78, $0xbdabb5e9, $0x3d091218)
G16(fGP4, $0xbdf251a1, $0xbd5faf9d, $0xbb43c86c, $0x3cf33a74, $0x3cf33a74, $0x3cf33a74, $0xbdaaa767, $0xbe10da57)
G16(fGP5, $0xbd99a8f1, $0xbdfd0caf, $0xbdf2279d, $0xbdc29b79, $0xbdc29b79, $0xbdc29b79, $0x3d72ffc6, $0x3c6278ac)
C8(fINF, $0x7f800000)    // +∞
C8(fEXPZ, $0xc2d20000)   // -105: e^a rounds to 0 below (the AVX-512 kernels skip it)
C8(fGFSHIFT, $0x40a00000) // 5: the fast GELU's pieces are of x + 5
C8(fGFLO, $0xc0800000)    // -4: the fast GELU's lowest x
C8(fGFHI, $0x41280000)    // 10.5: Φ(x) rounds to 1 beyond
// The fast GELU's piecewise polynomial: Φ(x) = P0 + P1·u + ... + P9·u⁹,
// u = x - C, x ≥ -4 clamped to 10.5, on eight pieces of x + 5: [1, 1.5),
// [1.5, 2), [2, 3), [3, 4), [4, 6), [6, 8), [8, 12) and [12, 16). Entry i
// of each row is for the x + 5 whose bits 22 to 24 are i: [2, 3) is 0,
// [3, 4) 1, [4, 6) 2, [6, 8) 3, [8, 12) 4, [12, 16) 5, [1, 1.5) 6 and
// [1.5, 2) 7; rows repeat as fGC's. The second half of
// scripts/gelu_pieces.py's output.
G16(fGFC, $0xc0200000, $0xbfc00000, $0x00000000, $0x40000000, $0x40a00000, $0x410c0000, $0xc0700000, $0xc0500000)
G16(fGFP0, $0x3bcb7a73, $0x3d88d237, $0x3f000000, $0x3f7a2d0c, $0x3f7ffffb, $0x3f800000, $0x38b96cab, $0x3a17437f)
G16(fGFP1, $0x3c8f9783, $0x3e04a043, $0x3ecc4225, $0x3d5d2591, $0x35b6605c, $0x293c9b8c, $0x39b8dc97, $0x3b04f9c7)
G16(fGFP2, $0x3cb37d63, $0x3dc6f065, $0x3448e9fc, $0xbd5d25fa, $0xb654671f, $0x29b69e88, $0x3a2d4ece, $0x3b5815e3)
G16(fGFP3, $0x3c7b4934, $0x3cdd0b0a, $0xbd882ae2, $0x3cdd27cb, $0x36db7046, $0xaa52c036, $0x3a493aca, $0x3b53ee15)
G16(fGFP4, $0x3bc272f1, $0xbbc6f1fa, $0xb58a00c4, $0xbb93581f, $0xb7082f84, $0xaa46b728, $0x3a1fc4a3, $0x3b082dcb)
G16(fGFP5, $0x3a2ea509, $0xbbc04b15, $0x3c2334fa, $0xbb13c36c, $0x36ae22c0, $0x2a8581f9, $0x39b348a5, $0x3a62e83e)
G16(fGFP6, $0xba06ce61, $0xba2bcf3d, $0x35ecd4f0, $0x3aaff167, $0xb642fa6a, $0x2a12182c, $0x390ae73f, $0x39491e84)
G16(fGFP7, $0xb9891970, $0x3a11967c, $0xba9834f1, $0xb8e1424a, $0x3627f4af, $0xaa069c45, $0x37fda08a, $0xb76b00a9)
G16(fGFP8, $0xb7c33cfd, $0x392bbef9, $0xb579ff0e, $0xb8e03735, $0xb5b57454, $0xa91728dd, $0xb43c789c, $0xb7dc6e5a)
G16(fGFP9, $0x37843ccf, $0xb7b04c48, $0x38bdcf14, $0x37e582be, $0x348bfa8f, $0x28d7397d, $0xb63e4878, $0xb705c3e9)
C8(fGTSHIFT, $0x40600000) // 3.5: the fast tanh GELU's pieces are of x + 3.5
C8(fGTLO, $0xc0200000)    // -2.5: the fast tanh GELU's lowest x
C8(fGTHI, $0x41380000)    // 11.5: sigmoid(v) rounds to 1 beyond
// The fast tanh GELU's piecewise polynomial: sigmoid(v(x)), v = 2·√(2/π)·
// (x + 0.044715x³), as fGF's rows for Φ but of degree 9 on the pieces of
// x + 3.5 (x ≥ -2.5 clamped to 11.5). The third part of
// scripts/gelu_pieces.py's output.
G16(fGTC, $0xbf800000, $0x00000000, $0x3fc00000, $0x40600000, $0x40d00000, $0x41200000, $0xc0100000, $0xbfe00000)
G16(fGTP0, $0x3e229e91, $0x3f000000, $0x3f6edc38, $0x3f7ff476, $0x3f800000, $0x3f800000, $0x3c4612f5, $0x3d2451a5)
G16(fGTP1, $0x3e77931a, $0x3ecc422a, $0x3e04e3d0, $0x3a42a394, $0x3269a709, $0xa88a641d, $0x3d03144e, $0x3db18c72)
G16(fGTP2, $0x3df73082, $0x300e2415, $0xbdc6063b, $0xbabbe468, $0x331fb274, $0xa7f4a97a, $0x3d13cdaf, $0x3d9a484a)
G16(fGTP3, $0x39d79d35, $0xbd88d8a5, $0x3cdaef6b, $0x3ad907ac, $0xb36c0e59, $0x291da072, $0x3caefc18, $0x3cef228d)
G16(fGTP4, $0xbca3eb24, $0xb150f93a, $0x3bbc8cf4, $0xbaa359bc, $0xb393cc3b, $0x27e07ec7, $0x3bbfced2, $0x39ef78bb)
G16(fGTP5, $0xbb8c95d2, $0x3c2723cc, $0xbbbb8705, $0x3a20d094, $0x33867d20, $0xa924f00d, $0xb9f9d751, $0xbb853f8e)
G16(fGTP6, $0x3b008569, $0x32bd51f3, $0x3a417fc6, $0xb9381b1e, $0x33332814, $0xa6348cc7, $0xba697e01, $0xbaaad086)
G16(fGTP7, $0x3a5fb156, $0xbaa2c095, $0x3a05b07d, $0x3712f2ec, $0xb2f06664, $0x289342ad, $0xb9780b3c, $0x38e4c356)
G16(fGTP8, $0xb8e12b4f, $0xb34f7556, $0xb91ea9d4, $0x376a84d4, $0xb2190d78, $0xa5da0e51, $0x3763b18a, $0x393024f3)
G16(fGTP9, $0xb8d48c28, $0x38ec5c37, $0xb79d4882, $0xb68e0096, $0x31abe523, $0xa72d0850, $0x37c52568, $0x3808bde7)
// fIOTA holds the int32 lanes 0 to 15: the fast GELU kernels add a
// vector's first index to it to gather their slow lanes' indices.
#define fIOTA 3008
DATA f32Const<>+(fIOTA+0)(SB)/4, $0
DATA f32Const<>+(fIOTA+4)(SB)/4, $1
DATA f32Const<>+(fIOTA+8)(SB)/4, $2
DATA f32Const<>+(fIOTA+12)(SB)/4, $3
DATA f32Const<>+(fIOTA+16)(SB)/4, $4
DATA f32Const<>+(fIOTA+20)(SB)/4, $5
DATA f32Const<>+(fIOTA+24)(SB)/4, $6
DATA f32Const<>+(fIOTA+28)(SB)/4, $7
DATA f32Const<>+(fIOTA+32)(SB)/4, $8
DATA f32Const<>+(fIOTA+36)(SB)/4, $9
DATA f32Const<>+(fIOTA+40)(SB)/4, $10
DATA f32Const<>+(fIOTA+44)(SB)/4, $11
DATA f32Const<>+(fIOTA+48)(SB)/4, $12
DATA f32Const<>+(fIOTA+52)(SB)/4, $13
DATA f32Const<>+(fIOTA+56)(SB)/4, $14
DATA f32Const<>+(fIOTA+60)(SB)/4, $15
GLOBL f32Const<>(SB), RODATA|NOPTR, $3072

// The float64 constants of the tanh GELU (GELUTANHF8, GELUTANHF16), four
// lanes each.
#define D4(off, v) DATA f64Const<>+(off)(SB)/8, v; DATA f64Const<>+(off+8)(SB)/8, v; DATA f64Const<>+(off+16)(SB)/8, v; DATA f64Const<>+(off+24)(SB)/8, v

#define dONE 0
#define dGT1 32
#define dGT2 64

D4(dONE, $0x3ff0000000000000) // 1
D4(dGT1, $0x3fa6e4e26d4801f7) // 0.044715
D4(dGT2, $0x3ff9884533d43651) // 2·√(2/π)
GLOBL f64Const<>(SB), RODATA|NOPTR, $96
