// The constants of the float32 activation kernels
// (activation_f32_avx2_amd64.s, activation_f32_avx512_amd64.s), so that
// both tiers compute with the same ones. Each file that includes this
// gets its own copy of the tables f32Const<> and f64Const<>.

// Each constant fills 32 bytes (eight float32 lanes), so that it can be a
// memory operand of a 256-bit instruction; the AVX-512 kernels broadcast
// its first lane.
#define C8(off, v) DATA f32Const<>+(off)(SB)/4, v; DATA f32Const<>+(off+4)(SB)/4, v; DATA f32Const<>+(off+8)(SB)/4, v; DATA f32Const<>+(off+12)(SB)/4, v; DATA f32Const<>+(off+16)(SB)/4, v; DATA f32Const<>+(off+20)(SB)/4, v; DATA f32Const<>+(off+24)(SB)/4, v; DATA f32Const<>+(off+28)(SB)/4, v

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
#define fHALF 672
#define fNHALF 704
#define fGBIG 736
#define fR0 768
#define fR1 800
#define fR2 832
#define fR3 864
#define fR4 896
#define fR5 928
#define fR6 960
#define fR7 992
#define fR8 1024
#define fR9 1056
#define fR10 1088
#define fE0 1120
#define fE1 1152
#define fE2 1184
#define fE3 1216
#define fE4 1248
#define fINF 1280
#define fEXPZ 1312

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
C8(fHALF, $0x3f000000)   // 0.5
C8(fNHALF, $0xbf000000)  // -0.5
C8(fGBIG, $0x426e6666)   // 14.9: GELU is x or -0 beyond
C8(fR0, $0xb597c115)     // Φ(-a)·e^{a²/2} = R(t), t = 1/(1+a/2): R0 + R1·t + ...
C8(fR1, $0x3e4c4df7)
C8(fR2, $0x3e4b7750)
C8(fR3, $0x3e20ea60)
C8(fR4, $0x3b8184f3)
C8(fR5, $0x3df26f8f)
C8(fR6, $0xbf1106cc)
C8(fR7, $0x3f22ff80)
C8(fR8, $0xbe8ca545)
C8(fR9, $0x3bbbfdba)
C8(fR10, $0x3cad3469)
C8(fE0, $0x3ecc422a)     // (Φ(x)-1/2)/x = E(x²) = E0 + E1·x² + ...
C8(fE1, $0xbd882c1c)
C8(fE2, $0x3c2367da)
C8(fE3, $0xba9b80da)
C8(fE4, $0x38e77cca)
C8(fINF, $0x7f800000)    // +∞
C8(fEXPZ, $0xc2d20000)   // -105: e^a rounds to 0 below (the AVX-512 kernels skip it)
GLOBL f32Const<>(SB), RODATA|NOPTR, $1344

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
