// Generator of the amd64 GEMM micro-kernels in gemm_amd64.s.

//go:build ignore

// Run with `go generate` in package runtime (see gemm_amd64.go). It writes
// gemm_amd64.s: one AVX-512 tile kernel per row count 1..14 (32 columns,
// column mask for edges), one AVX2 tile kernel per row count 1..6 (16
// columns), and the AVX-512 GEMV kernels used when m == 1.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"strings"
)

var out bytes.Buffer

func p(format string, args ...any) { fmt.Fprintf(&out, "\t"+format+"\n", args...) }
func label(name string)            { fmt.Fprintf(&out, "%s:\n", name) }

const (
	mr512  = 14
	nr512  = 32
	mr256  = 6
	nr256  = 16
	unroll = 4
)

// tile512 writes the AVX-512 kernel for mr rows of a 14×32 tile.
//
// Registers: Z0..Z27 accumulators (row i uses Z(2i), Z(2i+1)), Z28/Z29 the B
// row, Z30/Z31 broadcasts of A. AX walks packed A (stride 14 floats), BX
// packed B (stride 32 floats), CX counts k, DI is C, SI ldc in bytes.
func tile512(mr int) {
	name := fmt.Sprintf("tile512x%d", mr)
	fmt.Fprintf(&out, "// func %s(k int, a, b, c *float32, ldc int, beta float32, bias *float32, flags int, mask uint32, next int, ahead *float32, aheadLines int)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-96\n", name)
	loadTileArgs()
	prefetchCSetup(name, mr, "R12", avx512Regs)
	prefetchNextSetup(name, "next+72(FP)", avx512Regs)
	p("MOVQ ahead+80(FP), R14")
	tileLoop(name, mr, avx512Regs, func() {
		p("PREFETCHT0 %d(AX)", 4*mr512*4*4)
		prefetchNextLoop(name, avx512Regs)
		prefetchCLoop(name, mr, "R12", avx512Regs)
		prefetchAheadLoop(name, "aheadLines+88(FP)")
	})
	label(name + "_epi")
	epilogue512(name, mr, "", "beta+40(FP)", "bias+48(FP)", "flags+56(FP)", "mask+64(FP)")
}

// directRow returns the address of A(i, p) at byte offset off for the
// direct-A kernels: AX is row 0, R12 row 8, R13 row 16 and R14 row 24
// (the last two for the AVX-512 narrow kernel's 28 rows), R8 = lda,
// R9 = 3·lda, R10 = 5·lda, R11 = 7·lda (all in bytes).
func directRow(i, off int) string {
	base := "AX"
	if i > 8 {
		g := (i - 1) / 8
		base, i = []string{"R12", "R13", "R14"}[g-1], i-8*g
	}
	idx := [...]string{"", "(R8*1)", "(R8*2)", "(R9*1)", "(R8*4)", "(R10*1)", "(R9*2)", "(R11*1)", "(R8*8)"}[i]
	return fmt.Sprintf("%d(%s)%s", off, base, idx)
}

// tileDirect writes the kernel for mr rows of a tile of the flavour v
// (AVX-512 14×32 or AVX2 6×16) that reads A in place (row stride lda)
// instead of from a packed panel, for products too narrow or too small to
// pay for packing A. Registers as in tile512 and tile256: accumulators
// from 0, B in v.b and v.b+1, broadcasts in v.bcast and v.bcast+1.
//
// With pack, the kernel also stores the elements of A it reads to the
// packed panel pa (element (i, p) at pa[p*v.mr+i], rows past mr
// untouched), so that the tiles to the right can read the panel: packing
// on the fly. DX walks pa.
//
// The AVX-512 kernels take a column mask after flags; the AVX2 ones store
// whole 16-column rows (the Go side routes narrower tiles through a
// scratch tile).
func tileDirect(v vecRegs, mr int, pack bool) {
	tileDirectKernel(v, mr, pack, false)
}

// tileDirectRun writes tileDirectRun256xN: the AVX2 kernel of tileDirect
// for a run of tiles of mr rows one below the other, each mr rows of A
// and C after the one before (and mr elements of the bias after when it
// is per row), so that the driver calls it once for a column of tiles:
// a call per tile of 6×16 cost the driver and the wrappers about as
// much as 5 % of the tiles. Before each tile it asks for aheadLines lines
// of the next panel of B from ahead on (of aheadTotal left), as
// prefetchAhead did before each call.
func tileDirectRun(v vecRegs, mr int) {
	tileDirectKernel(v, mr, false, true)
}

// tileDirectKernel writes tileDirect's kernels, or with run tileDirectRun's.
func tileDirectKernel(v vecRegs, mr int, pack, run bool) {
	r := v.r
	bits := v.width * 8
	masked := v.mask[0] != ""
	name := fmt.Sprintf("tileDirect%dx%d", bits, mr)
	if pack {
		name = fmt.Sprintf("tileDirectPack%dx%d", bits, mr)
	}
	if run {
		name = fmt.Sprintf("tileDirectRun%dx%d", bits, mr)
	}
	args := "k int, a *float32, lda int, b, c *float32, ldc int, alpha, beta float32, bias *float32, flags int"
	size := 72
	if masked {
		args += ", mask uint32"
		size = 76
	}
	paOff := 72
	if masked {
		paOff = 80
	}
	if pack {
		args += ", pa *float32"
		size = paOff + 8
	}
	aheadOff := (size + 7) &^ 7 // pointer-aligned
	if masked {
		args += ", ahead *float32, aheadLines int"
		size = aheadOff + 16
	}
	if run {
		tileRunTop(name, mr, masked, size)
		if masked {
			args += ", tiles int, aheadPer, aheadTotal int"
			size += 24
		} else {
			args += ", tiles int, ahead *float32, aheadLines, aheadTotal int"
			size += 32
		}
	}
	fmt.Fprintf(&out, "// func %s(%s)\n", name, args)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", name, size)
	if run {
		runTop()
		defer func() { epilogueEnd, runTop = nil, nil }()
	}
	if pack {
		p("MOVQ pa+%d(FP), DX", paOff)
	}
	if masked {
		p("MOVQ ahead+%d(FP), R14", aheadOff)
	}
	p("MOVQ k+0(FP), CX")
	p("MOVQ a+8(FP), AX")
	p("MOVQ lda+16(FP), R8")
	p("SHLQ $2, R8")
	p("LEAQ (R8)(R8*2), R9")
	p("LEAQ (R8)(R8*4), R10")
	p("LEAQ (R9)(R8*4), R11")
	p("LEAQ (AX)(R8*8), R12")
	p("MOVQ b+24(FP), BX")
	p("MOVQ c+32(FP), DI")
	p("MOVQ ldc+40(FP), SI")
	p("SHLQ $2, SI")
	prefetchCSetup(name, mr, "R13", v)
	for i := 0; i < 2*mr; i++ {
		p("%s %s%d, %s%d, %s%d", v.zeroOp, r, i, r, i, r, i)
	}
	step := func(u int) {
		p("VMOVUPS %d(BX), %s%d", u*v.nr*4, r, v.b)
		p("VMOVUPS %d(BX), %s%d", u*v.nr*4+v.width, r, v.b+1)
		for i := 0; i < mr; i++ {
			x := v.bcast + i%2
			p("VBROADCASTSS %s, %s%d", directRow(i, 4*u), r, x)
			if pack {
				p("VMOVSS X%d, %d(DX)", x, (u*v.mr+i)*4)
			}
			p("VFMADD231PS %s%d, %s%d, %s%d", r, v.b, r, x, r, 2*i)
			p("VFMADD231PS %s%d, %s%d, %s%d", r, v.b+1, r, x, r, 2*i+1)
		}
	}
	p("CMPQ CX, $%d", unroll)
	p("JL %s_tail", name)
	label(name + "_loop")
	prefetchCLoop(name, mr, "R13", v)
	if masked {
		prefetchAheadLoop(name, fmt.Sprintf("aheadLines+%d(FP)", aheadOff+8))
	}
	for u := 0; u < unroll; u++ {
		step(u)
	}
	p("ADDQ $%d, AX", unroll*4)
	if v.mr > 8 {
		p("ADDQ $%d, R12", unroll*4)
	}
	p("ADDQ $%d, BX", unroll*v.nr*4)
	if pack {
		p("ADDQ $%d, DX", unroll*v.mr*4)
	}
	p("SUBQ $%d, CX", unroll)
	p("CMPQ CX, $%d", unroll)
	p("JGE %s_loop", name)
	label(name + "_tail")
	p("TESTQ CX, CX")
	p("JEQ %s_epi", name)
	label(name + "_tail1")
	step(0)
	p("ADDQ $4, AX")
	if v.mr > 8 {
		p("ADDQ $4, R12")
	}
	p("ADDQ $%d, BX", v.nr*4)
	if pack {
		p("ADDQ $%d, DX", v.mr*4)
	}
	p("DECQ CX")
	p("JNE %s_tail1", name)
	label(name + "_epi")
	if masked {
		epilogue512(name, mr, "alpha+48(FP)", "beta+52(FP)", "bias+56(FP)", "flags+64(FP)", "mask+72(FP)")
		return
	}
	p("VBROADCASTSS alpha+48(FP), %s%d", r, v.bcast)
	for i := 0; i < 2*mr; i++ {
		p("VMULPS %s%d, %s%d, %s%d", r, v.bcast, r, i, r, i)
	}
	p("MOVQ flags+64(FP), R10")
	epilogueFlags(name, mr, v, "beta+52(FP)", "bias+56(FP)")
}

// tileDirectPackB writes the kernel for mr rows of a tile of the flavour v
// (AVX-512 14×32 or AVX2 6×16) that reads both A and B in place (B a
// k×nr block of a row-major matrix with row stride ldb) and stores the
// rows of B it reads to the packed panel pb (row p at pb[p*nr:]), so that
// the tiles below can read the panel: B packed on the fly by the top tile
// of each column. Registers as in tileDirect; DX walks pb. The AVX2
// kernel keeps ldb in bytes in R12 and prefetches the row of B 32 steps
// ahead (R11 = 32·ldb), some 200 cycles, well past an L3 hit (about 50
// cycles on Zen 3; 8 steps ahead was level within the noise of a shared
// machine except on 128x1152x784: 0.92 of OpenBLAS against 1.00, means of
// 3 paired runs). The AVX-512 kernel, whose rows of A take R8..R12, keeps
// ldb in R14 and prefetches 8 steps ahead ((BX)(R14*8)); its epilogue
// takes a column mask like tileDirect's (the Go side passes all 32
// columns).
func tileDirectPackB(v vecRegs, mr int) {
	r := v.r
	wide := v.mask[0] != "" // AVX-512: 14 rows, masked stores
	name := fmt.Sprintf("tileDirectPackB%dx%d", v.width*8, mr)
	args, size, ldb, ahead := directPackB256Args, 88, "R12", "(BX)(R11*1)"
	if wide {
		args, size, ldb, ahead = directPackB512Args, 92, "R14", "(BX)(R14*8)"
	}
	fmt.Fprintf(&out, "// func %s(%s)\n", name, args)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", name, size)
	p("MOVQ k+0(FP), CX")
	p("MOVQ a+8(FP), AX")
	p("MOVQ lda+16(FP), R8")
	p("SHLQ $2, R8")
	p("LEAQ (R8)(R8*2), R9")
	p("LEAQ (R8)(R8*4), R10")
	if wide {
		p("LEAQ (R9)(R8*4), R11")
		p("LEAQ (AX)(R8*8), R12")
	}
	p("MOVQ b+24(FP), BX")
	p("MOVQ ldb+32(FP), %s", ldb)
	p("SHLQ $2, %s", ldb)
	if !wide {
		p("MOVQ R12, R11")
		p("SHLQ $5, R11")
	}
	p("MOVQ pb+40(FP), DX")
	p("MOVQ c+48(FP), DI")
	p("MOVQ ldc+56(FP), SI")
	p("SHLQ $2, SI")
	prefetchCSetup(name, mr, "R13", v)
	for i := 0; i < 2*mr; i++ {
		p("%s %s%d, %s%d, %s%d", v.zeroOp, r, i, r, i, r, i)
	}
	step := func(u int) {
		p("VMOVUPS (BX), %s%d", r, v.b)
		p("VMOVUPS %d(BX), %s%d", v.width, r, v.b+1)
		p("PREFETCHT0 %s", ahead)
		p("VMOVUPS %s%d, %d(DX)", r, v.b, u*v.nr*4)
		p("VMOVUPS %s%d, %d(DX)", r, v.b+1, u*v.nr*4+v.width)
		p("ADDQ %s, BX", ldb)
		for i := 0; i < mr; i++ {
			x := v.bcast + i%2
			p("VBROADCASTSS %s, %s%d", directRow(i, 4*u), r, x)
			p("VFMADD231PS %s%d, %s%d, %s%d", r, v.b, r, x, r, 2*i)
			p("VFMADD231PS %s%d, %s%d, %s%d", r, v.b+1, r, x, r, 2*i+1)
		}
	}
	p("CMPQ CX, $%d", unroll)
	p("JL %s_tail", name)
	label(name + "_loop")
	prefetchCLoop(name, mr, "R13", v)
	for u := 0; u < unroll; u++ {
		step(u)
	}
	p("ADDQ $%d, AX", unroll*4)
	if wide {
		p("ADDQ $%d, R12", unroll*4)
	}
	p("ADDQ $%d, DX", unroll*v.nr*4)
	p("SUBQ $%d, CX", unroll)
	p("CMPQ CX, $%d", unroll)
	p("JGE %s_loop", name)
	label(name + "_tail")
	p("TESTQ CX, CX")
	p("JEQ %s_epi", name)
	label(name + "_tail1")
	step(0)
	p("ADDQ $4, AX")
	if wide {
		p("ADDQ $4, R12")
	}
	p("ADDQ $%d, DX", v.nr*4)
	p("DECQ CX")
	p("JNE %s_tail1", name)
	label(name + "_epi")
	if wide {
		epilogue512(name, mr, "alpha+64(FP)", "beta+68(FP)", "bias+72(FP)", "flags+80(FP)", "mask+88(FP)")
		return
	}
	p("VBROADCASTSS alpha+64(FP), %s%d", r, v.bcast)
	for i := 0; i < 2*mr; i++ {
		p("VMULPS %s%d, %s%d, %s%d", r, v.bcast, r, i, r, i)
	}
	p("MOVQ flags+80(FP), R10")
	epilogueFlags(name, mr, v, "beta+68(FP)", "bias+72(FP)")
}

// narrowTier is one vector width's narrow kernel (tileDirectNarrow): the
// first vector of a two-vector panel of B, for up to two tiles' rows.
type narrowTier struct {
	r     string // register prefix
	bits  int    // vector width: the kernels' names
	lanes int    // floats per vector
	nr    int    // columns of a packed panel of B
	mr    int    // rows at most: two tiles'
	zero  string // instruction zeroing a register
}

// args returns the parameters of the tier's narrow kernels: the AVX-512
// ones apply the direct tiles' epilogue under a column mask, the AVX2 ones
// store alpha times the sums for the Go side's (as for the AVX2 tiles'
// partial columns), and frame the bytes of those parameters.
func (t narrowTier) args() string {
	if t.bits == 512 {
		return direct512Args
	}
	return directNarrowArgs
}

func (t narrowTier) frame() int {
	if t.bits == 512 {
		return 76
	}
	return 52
}

// name returns the tier's name in comments and messages.
func (t narrowTier) name() string {
	if t.bits == 512 {
		return "AVX-512"
	}
	return "AVX2"
}

var (
	narrow512 = narrowTier{r: "Z", bits: 512, lanes: 16, nr: nr512, mr: 2 * mr512, zero: "VPXORD"}
	narrow256 = narrowTier{r: "Y", bits: 256, lanes: 8, nr: nr256, mr: 2 * mr256, zero: "VXORPS"}
)

// tileDirectNarrow writes the kernel of tier t for mr ≤ t.mr rows (two
// tiles high) and the first t.lanes columns of a packed B panel, reading
// A in place: alpha·Σp a[i*lda+p]·b[p*t.nr+j] for j < t.lanes, then on
// AVX-512 the direct tiles' epilogue under the column mask, on AVX2 none
// (stored to c for the Go side's, as for the AVX2 tiles' partial
// columns). Each element is the same chain of FMAs over p as in the tile
// kernels, so the bits are theirs; two tiles' rows keep as many chains in
// flight as a whole tile where one tile's rows of one vector would wait
// on the FMA latency. Registers: accumulators from 0, the B row in
// t.mr, broadcasts in t.mr+1 and t.mr+2; A's rows from AX, R12, R13 and
// R14 (rows 0, 8, 16 and 24; see directRow).
func tileDirectNarrow(t narrowTier, mr int) {
	name := fmt.Sprintf("tileDirectNarrow%dx%d", t.bits, mr)
	fmt.Fprintf(&out, "// func %s(%s)\n", name, t.args())
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", name, t.frame())
	p("MOVQ k+0(FP), CX")
	p("MOVQ a+8(FP), AX")
	p("MOVQ lda+16(FP), R8")
	p("SHLQ $2, R8")
	p("LEAQ (R8)(R8*2), R9")
	p("LEAQ (R8)(R8*4), R10")
	p("LEAQ (R9)(R8*4), R11")
	bases := []string{"R12", "R13", "R14"}[:max(mr-2, 0)/8] // for rows 9 on
	for g, base := range bases {
		from := "AX"
		if g > 0 {
			from = bases[g-1]
		}
		p("LEAQ (%s)(R8*8), %s", from, base)
	}
	p("MOVQ b+24(FP), BX")
	p("MOVQ c+32(FP), DI")
	p("MOVQ ldc+40(FP), SI")
	p("SHLQ $2, SI")
	for i := 0; i < mr; i++ {
		p("%s %s%d, %s%d, %s%d", t.zero, t.r, i, t.r, i, t.r, i)
	}
	step := func(u int) {
		p("VMOVUPS %d(BX), %s%d", u*t.nr*4, t.r, t.mr)
		for i := 0; i < mr; i++ {
			x := t.mr + 1 + i%2
			p("VBROADCASTSS %s, %s%d", directRow(i, 4*u), t.r, x)
			p("VFMADD231PS %s%d, %s%d, %s%d", t.r, t.mr, t.r, x, t.r, i)
		}
	}
	advance := func(floats int) {
		p("ADDQ $%d, AX", floats*4)
		for _, base := range bases {
			p("ADDQ $%d, %s", floats*4, base)
		}
		p("ADDQ $%d, BX", floats*t.nr*4)
	}
	p("CMPQ CX, $%d", unroll)
	p("JL %s_tail", name)
	label(name + "_loop")
	for u := 0; u < unroll; u++ {
		step(u)
	}
	advance(unroll)
	p("SUBQ $%d, CX", unroll)
	p("CMPQ CX, $%d", unroll)
	p("JGE %s_loop", name)
	label(name + "_tail")
	p("TESTQ CX, CX")
	p("JEQ %s_epi", name)
	label(name + "_tail1")
	step(0)
	advance(1)
	p("DECQ CX")
	p("JNE %s_tail1", name)
	label(name + "_epi")
	p("VBROADCASTSS alpha+48(FP), %s%d", t.r, t.mr+1)
	for i := 0; i < mr; i++ {
		p("VMULPS %s%d, %s%d, %s%d", t.r, t.mr+1, t.r, i, t.r, i)
	}
	if t.bits == 512 {
		// The direct tiles' epilogue, under the column mask.
		p("MOVL mask+72(FP), R9")
		p("KMOVW R9, K1")
		p("MOVQ flags+64(FP), R10")
		epilogueFlags(name, mr, narrowRegs512, "beta+52(FP)", "bias+56(FP)")
		return
	}
	for i := 0; i < mr; i++ {
		p("VMOVUPS %s%d, (DI)", t.r, i)
		if i < mr-1 {
			p("ADDQ SI, DI")
		}
	}
	p("VZEROUPPER")
	p("RET")
	out.WriteString("\n")
}

// direct512Args are the parameters of the AVX-512 kernels that read A in
// place.
const direct512Args = "k int, a *float32, lda int, b, c *float32, ldc int, alpha, beta float32, bias *float32, flags int, mask uint32"

// directNarrowArgs are the parameters of the AVX2 narrow kernels.
const directNarrowArgs = "k int, a *float32, lda int, b, c *float32, ldc int, alpha float32"

// directPackB512Args are the parameters of the AVX-512 kernels that read
// A and B in place and pack B.
const directPackB512Args = "k int, a *float32, lda int, b *float32, ldb int, pb, c *float32, ldc int, alpha, beta float32, bias *float32, flags int, mask uint32"

// directPackB256Args are the parameters of the AVX2 kernels that read A and
// B in place and pack B.
const directPackB256Args = "k int, a *float32, lda int, b *float32, ldb int, pb, c *float32, ldc int, alpha, beta float32, bias *float32, flags int"

// prefetchCSetup starts the prefetch of the C tile (DI, stride SI), which is
// read or written only after the k loop (count in CX), in rows of v.nr
// floats. For long loops reg
// walks the rows and prefetchCLoop fetches one row per iteration over the
// last mr iterations, so that the misses do not all queue for fill buffers
// at once; short loops fetch every row here.
func prefetchCSetup(name string, mr int, reg string, v vecRegs) {
	p("MOVQ DI, %s", reg)
	p("CMPQ CX, $%d", unroll*(mr+1))
	p("JGE %s_late", name)
	for i := 0; i < mr; i++ {
		p("PREFETCHT0 (%s)", reg)
		p("PREFETCHT0 %d(%s)", 4*v.nr-4, reg)
		p("ADDQ SI, %s", reg)
	}
	label(name + "_late")
}

// prefetchNextSetup prepares the prefetch into L2 of the next C tile the
// driver computes (nextArg floats from C), one row of v.nr floats per loop
// iteration over the first v.mr iterations: R13 walks its rows and DX
// counts them down. Short loops skip it.
func prefetchNextSetup(name, nextArg string, v vecRegs) {
	p("XORL DX, DX")
	p("CMPQ CX, $%d", unroll*2*v.mr)
	p("JL %s_nonext", name)
	p("MOVL $%d, DX", v.mr)
	p("MOVQ %s, R13", nextArg)
	p("LEAQ (DI)(R13*4), R13")
	label(name + "_nonext")
}

// prefetchNextLoop is the per-iteration half of prefetchNextSetup.
func prefetchNextLoop(name string, v vecRegs) {
	p("TESTL DX, DX")
	p("JEQ %s_nonextpf", name)
	p("PREFETCHT1 (R13)")
	p("PREFETCHT1 %d(R13)", 4*v.nr-4)
	p("ADDQ SI, R13")
	p("DECL DX")
	label(name + "_nonextpf")
}

// prefetchCLoop is the per-iteration half of prefetchCSetup.
func prefetchCLoop(name string, mr int, reg string, v vecRegs) {
	p("CMPQ CX, $%d", unroll*mr+unroll-1)
	p("JG %s_nopf", name)
	p("PREFETCHT0 (%s)", reg)
	p("PREFETCHT0 %d(%s)", 4*v.nr-4, reg)
	p("ADDQ SI, %s", reg)
	label(name + "_nopf")
}

// prefetchAheadLoop asks, at the top of each unrolled pass, for the next
// of the lines of the next panel of B that the driver gave the AVX-512
// tile (at R14, their count in the argument countArg, counted down in
// place): one line every four steps of k, spread over the tile where a
// burst before it held the L2's miss buffers that its own loads wait for.
func prefetchAheadLoop(name, countArg string) {
	p("CMPQ %s, $0", countArg)
	p("JEQ %s_noahead", name)
	p("PREFETCHT1 (R14)")
	p("ADDQ $64, R14")
	p("DECQ %s", countArg)
	label(name + "_noahead")
}

// epilogue512 writes the end of an AVX-512 tile kernel: scale by alpha (when
// alphaArg is set), add beta·C, add the bias, apply ReLU and store under the
// column mask. DI must hold C and SI ldc in bytes.
func epilogue512(name string, mr int, alphaArg, betaArg, biasArg, flagsArg, maskArg string) {
	if alphaArg != "" {
		p("VBROADCASTSS %s, Z30", alphaArg)
		for r := 0; r < 2*mr; r++ {
			p("VMULPS Z30, Z%d, Z%d", r, r)
		}
	}
	p("MOVL %s, R9", maskArg)
	p("KMOVW R9, K1")
	p("SHRL $16, R9")
	p("KMOVW R9, K2")
	p("MOVQ %s, R10", flagsArg)
	epilogueFlags(name, mr, avx512Regs, betaArg, biasArg)
}

// vecRegs describes the registers and masking of one flavour of tile
// kernel for epilogueFlags.
type vecRegs struct {
	r                string    // register prefix: Z or Y
	width            int       // bytes per vector
	beta, bias, zero int       // scratch registers: beta, bias (and bias+1), zero
	zeroOp           string    // instruction zeroing a register
	load             string    // instruction loading the bias
	mr, nr           int       // rows and columns of a full tile (the packed panels' widths)
	b, bcast         int       // the two B registers (b, b+1) and broadcast registers (bcast, bcast+1)
	mask             [2]string // mask operands of the two halves of a row, if any
	perRow           int       // accumulators of a row: 2, or 1 in the narrow kernels
}

// avx512Regs masks both halves of a 32-column row with K1 and K2.
var avx512Regs = vecRegs{r: "Z", width: 64, mask: [2]string{"K1, ", "K2, "}, beta: 30, bias: 28, zero: 30, zeroOp: "VPXORD", load: "VMOVUPS.Z",
	mr: mr512, nr: nr512, b: 28, bcast: 30, perRow: 2}

// narrowRegs512 is the AVX-512 narrow kernel's epilogue: one vector a row,
// masked by K1.
var narrowRegs512 = vecRegs{r: "Z", width: 64, mask: [2]string{"K1, "}, beta: 30, bias: 28, zero: 30, zeroOp: "VPXORD", load: "VMOVUPS.Z",
	perRow: 1}

// avx2Regs stores whole 16-column rows.
var avx2Regs = vecRegs{r: "Y", width: 32, beta: 14, bias: 12, zero: 14, zeroOp: "VXORPS", load: "VMOVUPS",
	mr: mr256, nr: nr256, b: 12, bcast: 14, perRow: 2}

// tileLoop writes the body of a packed tile kernel for mr rows, after the
// arguments are loaded (k in CX, the A panel at AX, the B panel at BX):
// zero the accumulators, then the k loop, unrolled, with loopTop written at
// the top of each unrolled pass, and the leftover steps one by one. It ends
// at the label name_epi, which the caller writes.
func tileLoop(name string, mr int, v vecRegs, loopTop func()) {
	r := v.r
	for i := 0; i < 2*mr; i++ {
		p("%s %s%d, %s%d, %s%d", v.zeroOp, r, i, r, i, r, i)
	}
	step := func(u int) {
		p("VMOVUPS %d(BX), %s%d", u*v.nr*4, r, v.b)
		p("VMOVUPS %d(BX), %s%d", u*v.nr*4+v.width, r, v.b+1)
		for i := 0; i < mr; i++ {
			x := v.bcast + i%2
			p("VBROADCASTSS %d(AX), %s%d", (u*v.mr+i)*4, r, x)
			p("VFMADD231PS %s%d, %s%d, %s%d", r, v.b, r, x, r, 2*i)
			p("VFMADD231PS %s%d, %s%d, %s%d", r, v.b+1, r, x, r, 2*i+1)
		}
	}
	p("CMPQ CX, $%d", unroll)
	p("JL %s_tail", name)
	label(name + "_loop")
	loopTop()
	for u := 0; u < unroll; u++ {
		step(u)
	}
	p("ADDQ $%d, AX", unroll*v.mr*4)
	p("ADDQ $%d, BX", unroll*v.nr*4)
	p("SUBQ $%d, CX", unroll)
	p("CMPQ CX, $%d", unroll)
	p("JGE %s_loop", name)
	label(name + "_tail")
	p("TESTQ CX, CX")
	p("JEQ %s_epi", name)
	label(name + "_tail1")
	step(0)
	p("ADDQ $%d, AX", v.mr*4)
	p("ADDQ $%d, BX", v.nr*4)
	p("DECQ CX")
	p("JNE %s_tail1", name)
}

// epilogueFlags writes the flag-driven end of a tile kernel, with the flags
// in R10, the accumulators in registers 0..v.perRow·mr-1 (v.perRow a row)
// and C at DI with its row stride in SI: C = acc (+beta·C when flags&1)
// (+bias when flags&2) (+bias[i] on row i when flags&8) (ReLU when
// flags&4), then the store.
func epilogueFlags(name string, mr int, v vecRegs, betaArg, biasArg string) {
	r, w, per := v.r, v.width, v.perRow
	// loadMask puts a mask register after a memory source operand.
	loadMask := func(h int) string {
		if v.mask[h] == "" {
			return ""
		}
		return ", " + v.mask[h][:len(v.mask[h])-2]
	}
	// off is the byte offset of a row's vector h.
	off := func(h int) string {
		if h == 0 {
			return ""
		}
		return fmt.Sprint(h * w)
	}
	p("TESTQ $1, R10")
	p("JEQ %s_nobeta", name)
	p("VBROADCASTSS %s, %s%d", betaArg, r, v.beta)
	p("MOVQ DI, R8")
	for i := 0; i < mr; i++ {
		for h := range per {
			p("VFMADD231PS %s(R8), %s%d, %s%s%d", off(h), r, v.beta, v.mask[h], r, per*i+h)
		}
		if i < mr-1 {
			p("ADDQ SI, R8")
		}
	}
	label(name + "_nobeta")
	p("TESTQ $2, R10")
	p("JEQ %s_nobias", name)
	p("MOVQ %s, R11", biasArg)
	for h := range per {
		p("%s %s(R11)%s, %s%d", v.load, off(h), loadMask(h), r, v.bias+h)
	}
	for i := 0; i < mr; i++ {
		for h := range per {
			p("VADDPS %s%d, %s%d, %s%d", r, v.bias+h, r, per*i+h, r, per*i+h)
		}
	}
	label(name + "_nobias")
	// flags&8 adds bias[i] to row i (bias is then per row).
	p("TESTQ $8, R10")
	p("JEQ %s_norowbias", name)
	p("MOVQ %s, R11", biasArg)
	for i := 0; i < mr; i++ {
		p("VBROADCASTSS %d(R11), %s%d", 4*i, r, v.bias)
		for h := range per {
			p("VADDPS %s%d, %s%d, %s%d", r, v.bias, r, per*i+h, r, per*i+h)
		}
	}
	label(name + "_norowbias")
	p("TESTQ $4, R10")
	p("JEQ %s_store", name)
	p("%s %s%d, %s%d, %s%d", v.zeroOp, r, v.zero, r, v.zero, r, v.zero)
	for i := 0; i < per*mr; i++ {
		// max(0, x) with x as second source keeps NaN and -0 like the Go loop.
		p("VMAXPS %s%d, %s%d, %s%d", r, i, r, v.zero, r, i)
	}
	label(name + "_store")
	for i := 0; i < mr; i++ {
		for h := range per {
			p("VMOVUPS %s%d, %s%s(DI)", r, per*i+h, v.mask[h], off(h))
		}
		if i < mr-1 {
			p("ADDQ SI, DI")
		}
	}
	if epilogueEnd != nil {
		epilogueEnd()
	} else {
		p("VZEROUPPER")
		p("RET")
	}
	out.WriteString("\n")
}

// epilogueEnd, when set, writes the end of epilogueFlags in place of the
// return (tileDirectRun's loop back), and runTop the top of the loop.
var epilogueEnd, runTop func()

// tileRunTop sets runTop and epilogueEnd for tileDirectRun's kernel name
// of mr rows whose other arguments take size bytes: at the top, the
// lines of the next panel of B the tile asks for (AVX2: all at once,
// from ahead, which then points past them; AVX-512 (masked): aheadLines
// for the tile's loop to spread, from ahead); at the end, A, C, ahead
// (AVX-512) and a per-row bias moved on to the next tile.
func tileRunTop(name string, mr int, masked bool, size int) {
	tiles, per, total := size, size+8, size+16
	if !masked {
		per, total = size+16, size+24
	}
	runTop = func() {
		label(name + "_top")
		if masked {
			p("MOVQ aheadPer+%d(FP), CX", per)
		} else {
			p("MOVQ aheadLines+%d(FP), CX", per)
		}
		p("MOVQ aheadTotal+%d(FP), DX", total)
		p("CMPQ DX, CX")
		p("CMOVQLT DX, CX")
		p("SUBQ CX, aheadTotal+%d(FP)", total)
		if masked {
			p("MOVQ CX, aheadLines+%d(FP)", size-8)
			return
		}
		p("MOVQ ahead+%d(FP), R14", size+8)
		p("TESTQ CX, CX")
		p("JLE %s_ahead", name)
		label(name + "_prefetch")
		p("PREFETCHT1 (R14)")
		p("ADDQ $64, R14")
		p("DECQ CX")
		p("JNZ %s_prefetch", name)
		p("MOVQ R14, ahead+%d(FP)", size+8)
		label(name + "_ahead")
	}
	epilogueEnd = func() {
		p("DECQ tiles+%d(FP)", tiles)
		p("JEQ %s_done", name)
		p("MOVQ lda+16(FP), AX")
		p("IMULQ $%d, AX", 4*mr)
		p("ADDQ AX, a+8(FP)")
		p("MOVQ ldc+40(FP), AX")
		p("IMULQ $%d, AX", 4*mr)
		p("ADDQ AX, c+32(FP)")
		if masked {
			p("MOVQ aheadPer+%d(FP), AX", per)
			p("SHLQ $6, AX")
			p("ADDQ AX, ahead+%d(FP)", size-16)
		}
		p("TESTQ $8, R10")
		p("JEQ %s_top", name)
		p("ADDQ $%d, bias+56(FP)", 4*mr)
		p("JMP %s_top", name)
		label(name + "_done")
		p("VZEROUPPER")
		p("RET")
	}
}

// loadTileArgs writes the loads of the arguments the packed tile kernels
// share: k to CX, the A and B panels to AX and BX, C to DI and its row
// stride in bytes to SI.
func loadTileArgs() {
	p("MOVQ k+0(FP), CX")
	p("MOVQ a+8(FP), AX")
	p("MOVQ b+16(FP), BX")
	p("MOVQ c+24(FP), DI")
	p("MOVQ ldc+32(FP), SI")
	p("SHLQ $2, SI")
}

// tile256 writes the AVX2 kernel for mr rows of a 6×16 tile. It always
// stores 16 columns; the Go side routes narrower edge tiles through a
// scratch tile. It prefetches A ahead, its C tile over the last iterations
// and the next C tile (next floats from c) into L2, as tile512 does.
//
// Registers: Y0..Y11 accumulators, Y12/Y13 the B row, Y14/Y15 broadcasts.
func tile256(mr int) {
	name := fmt.Sprintf("tile256x%d", mr)
	fmt.Fprintf(&out, "// func %s(k int, a, b, c *float32, ldc int, beta float32, bias *float32, flags int, next int)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-72\n", name)
	loadTileArgs()
	prefetchCSetup(name, mr, "R12", avx2Regs)
	prefetchNextSetup(name, "next+64(FP)", avx2Regs)
	tileLoop(name, mr, avx2Regs, func() {
		p("PREFETCHT0 %d(AX)", 4*mr256*4*4)
		prefetchNextLoop(name, avx2Regs)
		prefetchCLoop(name, mr, "R12", avx2Regs)
	})
	label(name + "_epi")
	p("MOVQ flags+56(FP), R10")
	epilogueFlags(name, mr, avx2Regs, "beta+40(FP)", "bias+48(FP)")
}

// gemvRow512 writes the one-row kernel: c[0:32] = alpha·Σp a[p]·b[p*ldb:+32]
// (+beta·c, +bias, ReLU), with four interleaved partial sums over p.
func gemvRow512() {
	name := "gemvRow512"
	fmt.Fprintf(&out, "// func %s(k int, a, b *float32, ldb int, c *float32, alpha, beta float32, bias *float32, flags int, mask uint32)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-68\n", name)
	p("MOVQ k+0(FP), CX")
	p("MOVQ a+8(FP), AX")
	p("MOVQ b+16(FP), BX")
	p("MOVQ ldb+24(FP), SI")
	p("SHLQ $2, SI")
	p("MOVQ c+32(FP), DI")
	p("MOVL mask+64(FP), R9")
	p("KMOVW R9, K1")
	p("SHRL $16, R9")
	p("KMOVW R9, K2")
	for r := 0; r < 8; r++ {
		p("VPXORD Z%d, Z%d, Z%d", r, r, r)
	}
	p("CMPQ CX, $4")
	p("JL %s_tail", name)
	label(name + "_loop")
	p("LEAQ (SI)(SI*2), DX") // 3·ldb
	p("PREFETCHT0 (BX)(SI*8)")
	p("PREFETCHT0 64(BX)(SI*8)")
	p("LEAQ (BX)(SI*8), R12")
	p("PREFETCHT0 (R12)(SI*1)")
	p("PREFETCHT0 64(R12)(SI*1)")
	p("PREFETCHT0 (R12)(SI*2)")
	p("PREFETCHT0 64(R12)(SI*2)")
	p("PREFETCHT0 (R12)(DX*1)")
	p("PREFETCHT0 64(R12)(DX*1)")
	for u := 0; u < 4; u++ {
		p("VBROADCASTSS %d(AX), Z%d", 4*u, 16+u)
		p("VFMADD231PS (BX), Z%d, K1, Z%d", 16+u, 2*u)
		p("VFMADD231PS 64(BX), Z%d, K2, Z%d", 16+u, 2*u+1)
		p("ADDQ SI, BX")
	}
	p("ADDQ $16, AX")
	p("SUBQ $4, CX")
	p("CMPQ CX, $4")
	p("JGE %s_loop", name)
	label(name + "_tail")
	p("TESTQ CX, CX")
	p("JEQ %s_epi", name)
	label(name + "_tail1")
	p("VBROADCASTSS (AX), Z16")
	p("VFMADD231PS (BX), Z16, K1, Z0")
	p("VFMADD231PS 64(BX), Z16, K2, Z1")
	p("ADDQ SI, BX")
	p("ADDQ $4, AX")
	p("DECQ CX")
	p("JNE %s_tail1", name)
	label(name + "_epi")
	p("VADDPS Z2, Z0, Z0")
	p("VADDPS Z3, Z1, Z1")
	p("VADDPS Z6, Z4, Z4")
	p("VADDPS Z7, Z5, Z5")
	p("VADDPS Z4, Z0, Z0")
	p("VADDPS Z5, Z1, Z1")
	p("VBROADCASTSS alpha+40(FP), Z16")
	p("VMULPS Z16, Z0, Z0")
	p("VMULPS Z16, Z1, Z1")
	p("MOVQ flags+56(FP), R10")
	p("TESTQ $1, R10")
	p("JEQ %s_nobeta", name)
	p("VBROADCASTSS beta+44(FP), Z16")
	p("VFMADD231PS (DI), Z16, K1, Z0")
	p("VFMADD231PS 64(DI), Z16, K2, Z1")
	label(name + "_nobeta")
	p("TESTQ $2, R10")
	p("JEQ %s_nobias", name)
	p("MOVQ bias+48(FP), R11")
	p("VMOVUPS.Z (R11), K1, Z16")
	p("VMOVUPS.Z 64(R11), K2, Z17")
	p("VADDPS Z16, Z0, Z0")
	p("VADDPS Z17, Z1, Z1")
	label(name + "_nobias")
	p("TESTQ $4, R10")
	p("JEQ %s_store", name)
	p("VPXORD Z16, Z16, Z16")
	p("VMAXPS Z0, Z16, Z0")
	p("VMAXPS Z1, Z16, Z1")
	label(name + "_store")
	p("VMOVUPS Z0, K1, (DI)")
	p("VMOVUPS Z1, K2, 64(DI)")
	p("VZEROUPPER")
	p("RET")
	out.WriteString("\n")
}

// dotRows512 writes the kernel dotNx512, dst[r] = Σp a[p]·b[r*ldb+p] for
// r < rows (4 or 8), with two partial sums per row over 16-float chunks
// of p and a masked tail: each row's sums are the same whatever rows.
func dotRows512(rows int) {
	name := fmt.Sprintf("dot%dx512", rows)
	regs := []string{"R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15"}[:rows]
	fmt.Fprintf(&out, "// func %s(k int, a, b *float32, ldb int, dst *float32)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-40\n", name)
	p("MOVQ k+0(FP), CX")
	p("MOVQ a+8(FP), AX")
	p("MOVQ b+16(FP), R8")
	p("MOVQ ldb+24(FP), SI")
	p("SHLQ $2, SI")
	for r := 1; r < rows; r++ {
		p("LEAQ (%s)(SI*1), %s", regs[r-1], regs[r])
	}
	p("XORQ DX, DX")
	// Row r's first sums are in Zr, its second in Z(rows+r).
	for r := 0; r < 2*rows; r++ {
		p("VPXORD Z%d, Z%d, Z%d", r, r, r)
	}
	p("CMPQ CX, $32")
	p("JL %s_one", name)
	label(name + "_loop")
	p("VMOVUPS (AX)(DX*1), Z16")
	p("VMOVUPS 64(AX)(DX*1), Z17")
	for r, reg := range regs {
		p("VFMADD231PS (%s)(DX*1), Z16, Z%d", reg, r)
		p("VFMADD231PS 64(%s)(DX*1), Z17, Z%d", reg, r+rows)
	}
	p("ADDQ $128, DX")
	p("SUBQ $32, CX")
	p("CMPQ CX, $32")
	p("JGE %s_loop", name)
	label(name + "_one")
	p("CMPQ CX, $16")
	p("JL %s_tail", name)
	p("VMOVUPS (AX)(DX*1), Z16")
	for r, reg := range regs {
		p("VFMADD231PS (%s)(DX*1), Z16, Z%d", reg, r)
	}
	p("ADDQ $64, DX")
	p("SUBQ $16, CX")
	label(name + "_tail")
	p("TESTQ CX, CX")
	p("JEQ %s_reduce", name)
	p("MOVL $1, BX")
	p("SHLL CX, BX")
	p("DECL BX")
	p("KMOVW BX, K1")
	p("VMOVUPS.Z (AX)(DX*1), K1, Z16")
	for r, reg := range regs {
		p("VMOVUPS.Z (%s)(DX*1), K1, Z17", reg)
		p("VFMADD231PS Z17, Z16, Z%d", r+rows)
	}
	label(name + "_reduce")
	p("MOVQ dst+32(FP), DI")
	// Row 0's second sums are added first, which frees Z(rows) as the
	// scratch of the reductions.
	t := rows
	for r := 0; r < rows; r++ {
		p("VADDPS Z%d, Z%d, Z%d", r+rows, r, r)
		p("VEXTRACTF64X4 $1, Z%d, Y%d", r, t)
		p("VADDPS Y%d, Y%d, Y%d", t, r, r)
		p("VEXTRACTF128 $1, Y%d, X%d", r, t)
		p("VADDPS X%d, X%d, X%d", t, r, r)
		p("VHADDPS X%d, X%d, X%d", r, r, r)
		p("VHADDPS X%d, X%d, X%d", r, r, r)
		p("VMOVSS X%d, %d(DI)", r, 4*r)
	}
	p("VZEROUPPER")
	p("RET")
	out.WriteString("\n")
}

// transpose16 writes the AVX-512 block transpose used by packing:
// dst[q*dstStride+i] = alpha·src[i*ld+q] for i < rows ≤ 16, q < cols ≤ 16.
// Rows past rows are not loaded (their pointer is row 0's) and lanes past
// rows are not stored.
func transpose16() {
	name := "transpose16x16"
	fmt.Fprintf(&out, "// func %s(src *float32, ld int, dst *float32, dstStride int, rows, cols int, alpha float32)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-52\n", name)
	p("MOVQ src+0(FP), AX")
	p("MOVQ ld+8(FP), SI")
	p("SHLQ $2, SI")
	p("MOVQ dst+16(FP), DI")
	p("MOVQ dstStride+24(FP), DX")
	p("SHLQ $2, DX")
	p("MOVQ rows+32(FP), R8")
	p("MOVQ cols+40(FP), R9")
	// K1: lanes < rows (stores); K2: lanes < cols (loads).
	p("MOVL $1, BX")
	p("MOVQ R8, CX")
	p("SHLL CX, BX")
	p("DECL BX")
	p("KMOVW BX, K1")
	p("MOVL $1, BX")
	p("MOVQ R9, CX")
	p("SHLL CX, BX")
	p("DECL BX")
	p("KMOVW BX, K2")
	p("MOVQ AX, R10") // row pointer
	for i := 0; i < 16; i++ {
		// R11 = row i if i < rows, else row 0
		p("MOVQ AX, R11")
		p("CMPQ R8, $%d", i)
		p("CMOVQGT R10, R11")
		p("VMOVUPS.Z (R11), K2, Z%d", i)
		p("ADDQ SI, R10")
	}
	for i := 0; i < 16; i += 2 {
		p("VUNPCKLPS Z%d, Z%d, Z%d", i+1, i, 16+i)
		p("VUNPCKHPS Z%d, Z%d, Z%d", i+1, i, 17+i)
	}
	// u(4g+c): column 4L+c of rows 4g..4g+3 in lane L
	for g := 0; g < 4; g++ {
		t := 16 + 4*g // t0 = t+0 (lo r0r1), t1 = t+1 (hi r0r1), t2 = t+2 (lo r2r3), t3 = t+3
		p("VSHUFPS $0x44, Z%d, Z%d, Z%d", t+2, t, 4*g)
		p("VSHUFPS $0xEE, Z%d, Z%d, Z%d", t+2, t, 4*g+1)
		p("VSHUFPS $0x44, Z%d, Z%d, Z%d", t+3, t+1, 4*g+2)
		p("VSHUFPS $0xEE, Z%d, Z%d, Z%d", t+3, t+1, 4*g+3)
	}
	// v: for c, even/odd lanes of u(c) and u(4+c); w: of u(8+c) and u(12+c)
	for c := 0; c < 4; c++ {
		p("VSHUFF32X4 $0x88, Z%d, Z%d, Z%d", 4+c, c, 16+4*c)    // v even
		p("VSHUFF32X4 $0xDD, Z%d, Z%d, Z%d", 4+c, c, 17+4*c)    // v odd
		p("VSHUFF32X4 $0x88, Z%d, Z%d, Z%d", 12+c, 8+c, 18+4*c) // w even
		p("VSHUFF32X4 $0xDD, Z%d, Z%d, Z%d", 12+c, 8+c, 19+4*c) // w odd
	}
	for c := 0; c < 4; c++ {
		v := 16 + 4*c
		p("VSHUFF32X4 $0x88, Z%d, Z%d, Z%d", v+2, v, c)      // row c
		p("VSHUFF32X4 $0x88, Z%d, Z%d, Z%d", v+3, v+1, 4+c)  // row 4+c
		p("VSHUFF32X4 $0xDD, Z%d, Z%d, Z%d", v+2, v, 8+c)    // row 8+c
		p("VSHUFF32X4 $0xDD, Z%d, Z%d, Z%d", v+3, v+1, 12+c) // row 12+c
	}
	p("VBROADCASTSS alpha+48(FP), Z16")
	for q := 0; q < 16; q++ {
		p("VMULPS Z16, Z%d, Z%d", q, q)
		p("VMOVUPS Z%d, K1, (DI)", q)
		if q < 15 {
			p("CMPQ R9, $%d", q+1)
			p("JEQ %s_done", name)
			p("ADDQ DX, DI")
		}
	}
	label(name + "_done")
	p("VZEROUPPER")
	p("RET")
	out.WriteString("\n")
}

// packRows writes packRows32 (AVX-512) or packRows16 (AVX2), the packing
// of B (not transposed) into panels of 32 or 16 columns, two vectors a
// row: for p < kb, row p of src (stride ldb floats) is dealt out to panels
// r < full at dst + r·kb·width + p·width, and when tail > 0 its last tail
// columns go, zero-padded to width, to panel full. Four rows at a time, so
// each panel receives four rows of contiguous bytes per step. The tail's
// lanes come from k-masks K1, K2 (AVX-512) or, through tailMask
// (activation_amd64.go), the VMASKMOVPS masks Y14, Y15 (AVX2).
//
// Registers: AX src row, BX dst row, CX rows left, DX panel stride in bytes,
// SI ldb in bytes, R8 full, R9 panel counter, R10 src, R11 dst, R12 3·ldb.
func packRows(width int) {
	name := fmt.Sprintf("packRows%d", width)
	vec, reg := width*2, "Z" // bytes a vector
	if width == 16 {
		reg = "Y"
	}
	row := 4 * width // bytes a panel row
	fmt.Fprintf(&out, "// func %s(dst, src *float32, ldb, kb, full, tail int)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-48\n", name)
	p("MOVQ dst+0(FP), BX")
	p("MOVQ src+8(FP), AX")
	p("MOVQ ldb+16(FP), SI")
	p("SHLQ $2, SI")
	p("LEAQ (SI)(SI*2), R12")
	p("MOVQ kb+24(FP), CX")
	p("MOVQ CX, DX")
	p("SHLQ $%d, DX", map[int]int{32: 7, 16: 6}[width])
	p("MOVQ full+32(FP), R8")
	p("MOVQ tail+40(FP), R9")
	if width == 32 {
		// K1, K2: the tail's lanes in its first and second 16 columns.
		p("MOVQ R9, CX")
		p("MOVQ $1, R10")
		p("SHLQ CX, R10")
		p("DECQ R10")
		p("KMOVW R10, K1")
		p("SHRQ $16, R10")
		p("KMOVW R10, K2")
	} else {
		// Y14: lanes < min(tail, 8); Y15: lanes < tail-8.
		p("MOVQ $8, R10")
		p("CMPQ R9, R10")
		p("CMOVQLT R9, R10")
		p("SHLQ $2, R10")
		p("LEAQ ·tailMask+32(SB), R11")
		p("SUBQ R10, R11")
		p("VMOVDQU (R11), Y14")
		p("MOVQ R9, R10")
		p("SUBQ $8, R10")
		p("XORQ R11, R11")
		p("CMPQ R10, R11")
		p("CMOVQLT R11, R10")
		p("SHLQ $2, R10")
		p("LEAQ ·tailMask+32(SB), R11")
		p("SUBQ R10, R11")
		p("VMOVDQU (R11), Y15")
	}
	p("MOVQ kb+24(FP), CX")
	rows := func(n int, suffix string) {
		srcs := [...]string{"(R10)", "(R10)(SI*1)", "(R10)(SI*2)", "(R10)(R12*1)"}
		p("MOVQ AX, R10")
		p("MOVQ BX, R11")
		p("MOVQ R8, R9")
		p("TESTQ R9, R9")
		p("JEQ %s_tail%s", name, suffix)
		label(name + "_panels" + suffix)
		for i := 0; i < n; i++ {
			p("VMOVUPS %s, %s%d", srcs[i], reg, 2*i)
			p("VMOVUPS %d%s, %s%d", vec, srcs[i], reg, 2*i+1)
		}
		for i := 0; i < 2*n; i++ {
			p("VMOVUPS %s%d, %d(R11)", reg, i, vec*i)
		}
		p("ADDQ $%d, R10", row)
		p("ADDQ DX, R11")
		p("DECQ R9")
		p("JNE %s_panels%s", name, suffix)
		label(name + "_tail" + suffix)
		p("CMPQ tail+40(FP), $0")
		p("JEQ %s_next%s", name, suffix)
		for i := 0; i < n; i++ {
			if width == 32 {
				p("VMOVUPS.Z %s, K1, Z%d", srcs[i], 2*i)
				p("VMOVUPS.Z %d%s, K2, Z%d", vec, srcs[i], 2*i+1)
			} else {
				p("VMASKMOVPS %s, Y14, Y%d", srcs[i], 2*i)
				p("VMASKMOVPS %d%s, Y15, Y%d", vec, srcs[i], 2*i+1)
			}
		}
		for i := 0; i < 2*n; i++ {
			p("VMOVUPS %s%d, %d(R11)", reg, i, vec*i)
		}
		label(name + "_next" + suffix)
	}
	p("CMPQ CX, $4")
	p("JL %s_one", name)
	label(name + "_four")
	rows(4, "4")
	p("LEAQ (AX)(SI*4), AX")
	p("ADDQ $%d, BX", 4*row)
	p("SUBQ $4, CX")
	p("CMPQ CX, $4")
	p("JGE %s_four", name)
	label(name + "_one")
	p("TESTQ CX, CX")
	p("JEQ %s_done", name)
	rows(1, "1")
	p("ADDQ SI, AX")
	p("ADDQ $%d, BX", row)
	p("DECQ CX")
	p("JMP %s_one", name)
	label(name + "_done")
	p("VZEROUPPER")
	p("RET")
	out.WriteString("\n")
}

func main() {
	out.WriteString("// AVX-512 and AVX2 GEMM micro-kernels for amd64.\n")
	out.WriteString("// Code generated by gemm_asmgen.go; DO NOT EDIT.\n\n")
	out.WriteString("//go:build amd64 && !noasm\n\n")
	out.WriteString("#include \"textflag.h\"\n\n")
	for mr := 1; mr <= mr512; mr++ {
		tile512(mr)
	}
	for mr := 1; mr <= mr512; mr++ {
		tileDirect(avx512Regs, mr, false)
	}
	for mr := 1; mr <= mr512; mr++ {
		tileDirect(avx512Regs, mr, true)
	}
	for mr := 1; mr <= mr512; mr++ {
		tileDirectPackB(avx512Regs, mr)
	}
	for mr := 1; mr <= mr256; mr++ {
		tile256(mr)
	}
	for mr := 1; mr <= mr256; mr++ {
		tileDirect(avx2Regs, mr, false)
	}
	for mr := 1; mr <= mr256; mr++ {
		tileDirect(avx2Regs, mr, true)
	}
	for mr := 1; mr <= mr256; mr++ {
		tileDirectPackB(avx2Regs, mr)
	}
	tileDirectRun(avx2Regs, mr256)
	tileDirectRun(avx512Regs, mr512)
	for _, t := range []narrowTier{narrow512, narrow256} {
		for mr := 1; mr <= t.mr; mr++ {
			tileDirectNarrow(t, mr)
		}
	}
	gemvRow512()
	dotRows512(4)
	dotRows512(8)
	transpose16()
	packRows(32)
	packRows(16)
	write("gemm_amd64.s")
	decls()
	write("gemm_decl_amd64.go")
}

// decls writes the Go declarations of the kernels and their dispatch tables.
func decls() {
	out.WriteString("// Go declarations of the amd64 GEMM micro-kernels.\n")
	out.WriteString("// Code generated by gemm_asmgen.go; DO NOT EDIT.\n\n")
	out.WriteString("//go:build amd64 && !noasm\n\npackage runtime\n\n")
	for mr := 1; mr <= mr512; mr++ {
		fmt.Fprintf(&out, "// tile512x%d is the AVX-512 micro-kernel for %d row(s) of a 14×32 tile.\n//\n//go:noescape\n", mr, mr)
		fmt.Fprintf(&out, "func tile512x%d(k int, a, b, c *float32, ldc int, beta float32, bias *float32, flags int, mask uint32, next int, ahead *float32, aheadLines int)\n\n", mr)
	}
	for mr := 1; mr <= mr512; mr++ {
		fmt.Fprintf(&out, "// tileDirect512x%d is the AVX-512 micro-kernel for %d row(s) of a 14×32 tile reading A in place.\n//\n//go:noescape\n", mr, mr)
		fmt.Fprintf(&out, "func tileDirect512x%d(%s, ahead *float32, aheadLines int)\n\n", mr, direct512Args)
	}
	for mr := 1; mr <= mr512; mr++ {
		fmt.Fprintf(&out, "// tileDirectPack512x%d is tileDirect512x%d also storing the A it reads to the packed panel pa.\n//\n//go:noescape\n", mr, mr)
		fmt.Fprintf(&out, "func tileDirectPack512x%d(%s, pa *float32, ahead *float32, aheadLines int)\n\n", mr, direct512Args)
	}
	for mr := 1; mr <= mr512; mr++ {
		fmt.Fprintf(&out, "// tileDirectPackB512x%d is tileDirect512x%d reading B in place too (row stride ldb) and storing the rows of it it reads to the packed panel pb.\n//\n//go:noescape\n", mr, mr)
		fmt.Fprintf(&out, "func tileDirectPackB512x%d(%s)\n\n", mr, directPackB512Args)
	}
	for mr := 1; mr <= mr256; mr++ {
		fmt.Fprintf(&out, "// tile256x%d is the AVX2 micro-kernel for %d row(s) of a 6×16 tile.\n//\n//go:noescape\n", mr, mr)
		fmt.Fprintf(&out, "func tile256x%d(k int, a, b, c *float32, ldc int, beta float32, bias *float32, flags, next int)\n\n", mr)
	}
	for mr := 1; mr <= mr256; mr++ {
		fmt.Fprintf(&out, "// tileDirect256x%d is the AVX2 micro-kernel for %d row(s) of a 6×16 tile reading A in place.\n//\n//go:noescape\n", mr, mr)
		fmt.Fprintf(&out, "func tileDirect256x%d(%s)\n\n", mr, direct256Args)
	}
	for mr := 1; mr <= mr256; mr++ {
		fmt.Fprintf(&out, "// tileDirectPack256x%d is tileDirect256x%d also storing the A it reads to the packed panel pa.\n//\n//go:noescape\n", mr, mr)
		fmt.Fprintf(&out, "func tileDirectPack256x%d(%s, pa *float32)\n\n", mr, direct256Args)
	}
	for mr := 1; mr <= mr256; mr++ {
		fmt.Fprintf(&out, "// tileDirectPackB256x%d is tileDirect256x%d reading B in place too (row stride ldb) and storing the rows of it it reads to the packed panel pb.\n//\n//go:noescape\n", mr, mr)
		fmt.Fprintf(&out, "func tileDirectPackB256x%d(%s)\n\n", mr, directPackB256Args)
	}
	fmt.Fprintf(&out, "// tileDirectRun256x%d is tileDirect256x%d for a run of tiles, one below the other, prefetching lines of the next panel before each.\n//\n//go:noescape\n", mr256, mr256)
	fmt.Fprintf(&out, "func tileDirectRun256x%d(%s, tiles int, ahead *float32, aheadLines, aheadTotal int)\n\n", mr256, direct256Args)
	fmt.Fprintf(&out, "// tileDirectRun512x%d is tileDirect512x%d for a run of tiles, one below the other, each spreading up to aheadPer lines of the next panel over its loop.\n//\n//go:noescape\n", mr512, mr512)
	fmt.Fprintf(&out, "func tileDirectRun512x%d(%s, ahead *float32, aheadLines int, tiles int, aheadPer, aheadTotal int)\n\n", mr512, direct512Args)
	for _, t := range []narrowTier{narrow512, narrow256} {
		for mr := 1; mr <= t.mr; mr++ {
			fmt.Fprintf(&out, "// tileDirectNarrow%dx%d is the %s kernel for %d row(s) and the first %d columns of a %d-column panel, reading A in place.\n//\n//go:noescape\n", t.bits, mr, t.name(), mr, t.lanes, t.nr)
			fmt.Fprintf(&out, "func tileDirectNarrow%dx%d(%s)\n\n", t.bits, mr, t.args())
		}
	}
	out.WriteString("// gemvRow512 sets c[0:32] (lanes in mask) to alpha·Σp a[p]·b[p*ldb+j] (+beta·c, +bias, ReLU per flags).\n//\n//go:noescape\n")
	out.WriteString("func gemvRow512(k int, a, b *float32, ldb int, c *float32, alpha, beta float32, bias *float32, flags int, mask uint32)\n\n")
	for _, rows := range []int{4, 8} {
		fmt.Fprintf(&out, "// dot%dx512 sets dst[r] = Σ_{p<k} a[p]·b[r*ldb+p] for r = 0..%d.\n//\n//go:noescape\n", rows, rows-1)
		fmt.Fprintf(&out, "func dot%dx512(k int, a, b *float32, ldb int, dst *float32)\n\n", rows)
	}
	out.WriteString("// transpose16x16 sets dst[q*dstStride+i] = alpha·src[i*ld+q] for i < rows ≤ 16, q < cols ≤ 16.\n//\n//go:noescape\n")
	out.WriteString("func transpose16x16(src *float32, ld int, dst *float32, dstStride int, rows, cols int, alpha float32)\n\n")
	out.WriteString("// packRows32 packs kb rows of B (stride ldb) into full 32-column panels of kb·32 floats and a zero-padded panel of tail columns.\n//\n//go:noescape\n")
	out.WriteString("func packRows32(dst, src *float32, ldb, kb, full, tail int)\n\n")
	out.WriteString("// packRows16 packs kb rows of B (stride ldb) into full 16-column panels of kb·16 floats and a zero-padded panel of tail columns.\n//\n//go:noescape\n")
	out.WriteString("func packRows16(dst, src *float32, ldb, kb, full, tail int)\n\n")
	out.WriteString("var tiles512 = [...]func(k int, a, b, c *float32, ldc int, beta float32, bias *float32, flags int, mask uint32, next int, ahead *float32, aheadLines int){\n\tnil,")
	for mr := 1; mr <= mr512; mr++ {
		fmt.Fprintf(&out, " tile512x%d,", mr)
	}
	out.WriteString("\n}\n\nvar tilesDirect512 = [...]func(k int, a *float32, lda int, b, c *float32, ldc int, alpha, beta float32, bias *float32, flags int, mask uint32, ahead *float32, aheadLines int){\n\tnil,")
	for mr := 1; mr <= mr512; mr++ {
		fmt.Fprintf(&out, " tileDirect512x%d,", mr)
	}
	out.WriteString("\n}\n\nvar tilesDirectPack512 = [...]func(k int, a *float32, lda int, b, c *float32, ldc int, alpha, beta float32, bias *float32, flags int, mask uint32, pa *float32, ahead *float32, aheadLines int){\n\tnil,")
	for mr := 1; mr <= mr512; mr++ {
		fmt.Fprintf(&out, " tileDirectPack512x%d,", mr)
	}
	out.WriteString("\n}\n\n")
	// The AVX2 tiles are called through a switch, not a table of funcs:
	// an indirect call would make the caller's scratch tile escape.
	out.WriteString("// tile256 runs the AVX2 tile kernel for rows rows.\n")
	out.WriteString("func tile256(rows, k int, a, b, c *float32, ldc int, beta float32, bias *float32, flags, next int) {\n\tswitch rows {\n")
	for mr := 1; mr <= mr256; mr++ {
		fmt.Fprintf(&out, "\tcase %d:\n\t\ttile256x%d(k, a, b, c, ldc, beta, bias, flags, next)\n", mr, mr)
	}
	out.WriteString("\tdefault:\n\t\tpanic(\"runtime: AVX2 tile with more than 6 rows\")\n\t}\n}\n")
	for _, pack := range []bool{false, true} {
		name, params, extra := "tileDirect256", direct256Args, ""
		if pack {
			name, params, extra = "tileDirectPack256", direct256Args+", pa *float32", ", pa"
		}
		fmt.Fprintf(&out, "\n// %s runs the AVX2 kernel %sxN for rows rows.\n", name, name)
		fmt.Fprintf(&out, "func %s(rows int, %s) {\n\tswitch rows {\n", name, params)
		for mr := 1; mr <= mr256; mr++ {
			fmt.Fprintf(&out, "\tcase %d:\n\t\t%sx%d(k, a, lda, b, c, ldc, alpha, beta, bias, flags%s)\n", mr, name, mr, extra)
		}
		out.WriteString("\tdefault:\n\t\tpanic(\"runtime: AVX2 tile with more than 6 rows\")\n\t}\n}\n")
	}
	for _, t := range []narrowTier{narrow512, narrow256} {
		fmt.Fprintf(&out, "\n// tileDirectNarrow%d runs the %s kernel tileDirectNarrow%dxN for rows rows.\n", t.bits, t.name(), t.bits)
		fmt.Fprintf(&out, "func tileDirectNarrow%d(rows int, %s) {\n\tswitch rows {\n", t.bits, t.args())
		call := "k, a, lda, b, c, ldc, alpha"
		if t.bits == 512 {
			call += ", beta, bias, flags, mask"
		}
		for mr := 1; mr <= t.mr; mr++ {
			fmt.Fprintf(&out, "\tcase %d:\n\t\ttileDirectNarrow%dx%d(%s)\n", mr, t.bits, mr, call)
		}
		fmt.Fprintf(&out, "\tdefault:\n\t\tpanic(\"runtime: narrow %s tile with more than %d rows\")\n\t}\n}\n", t.name(), t.mr)
	}
	out.WriteString("\n// tileDirectPackB512 runs the AVX-512 kernel tileDirectPackB512xN for rows rows.\n")
	fmt.Fprintf(&out, "func tileDirectPackB512(rows int, %s) {\n\tswitch rows {\n", directPackB512Args)
	for mr := 1; mr <= mr512; mr++ {
		fmt.Fprintf(&out, "\tcase %d:\n\t\ttileDirectPackB512x%d(k, a, lda, b, ldb, pb, c, ldc, alpha, beta, bias, flags, mask)\n", mr, mr)
	}
	out.WriteString("\tdefault:\n\t\tpanic(\"runtime: AVX-512 tile with more than 14 rows\")\n\t}\n}\n")
	out.WriteString("\n// tileDirectPackB256 runs the AVX2 kernel tileDirectPackB256xN for rows rows.\n")
	fmt.Fprintf(&out, "func tileDirectPackB256(rows int, %s) {\n\tswitch rows {\n", directPackB256Args)
	for mr := 1; mr <= mr256; mr++ {
		fmt.Fprintf(&out, "\tcase %d:\n\t\ttileDirectPackB256x%d(k, a, lda, b, ldb, pb, c, ldc, alpha, beta, bias, flags)\n", mr, mr)
	}
	out.WriteString("\tdefault:\n\t\tpanic(\"runtime: AVX2 tile with more than 6 rows\")\n\t}\n}\n")
}

// direct256Args are the parameters of the AVX2 direct-A kernels.
const direct256Args = "k int, a *float32, lda int, b, c *float32, ldc int, alpha, beta float32, bias *float32, flags int"

func write(name string) {
	src := out.Bytes()
	if strings.HasSuffix(name, ".go") {
		var err error
		if src, err = format.Source(src); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := os.WriteFile(name, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out.Reset()
}
