// The patch-matrix GEMM of the AVX-512 tier: convolutions computed as one
// product of their output pixels by their filters, A packed from the
// padded image by an assembly kernel, B the filters packed once.

//go:build amd64 && !noasm

package runtime

import (
	"sync"
	"unsafe"
)

// patchPanelAVX512 packs one panel of a patch matrix; see
// conv_patches_avx512_amd64.s.
//
//go:noescape
func patchPanelAVX512(dst *float32, kb int, offs *int32, x *float32,
	b1, b2, b3 int, m1, m2, m3, mstore uint16, stride int)

// patchPanelAVX2 is patchPanelAVX512 for the AVX2 tier, with the masks as
// vectors; see conv_patches_avx512_amd64.s.
//
//go:noescape
func patchPanelAVX2(dst *float32, kb int, offs *int32, x *float32,
	b1, b2, b3 int, masks *int32, stride int)

// packPanelFast packs the panel of pixels [q, q+rows) with the AVX-512
// or AVX2 kernel when the tier has one and the pixels lie in at most three
// output rows, and reports whether it did.
func (pt *convPatches) packPanelFast(panel []float32, q, rows int, offs []int32, mr int) bool {
	if !hasAVX2FMA || mr > 16 || (!hasAVX512 && mr > 8) || len(offs) == 0 {
		return false
	}
	var start, base [3]int
	runs, ok := pt.patchRuns(q, rows, start[:], base[:])
	if !ok {
		return false
	}
	var b [3]int
	var m [3]uint16
	for r := 0; r < runs; r++ {
		end := rows
		if r+1 < runs {
			end = start[r+1]
		}
		// Lane l of run r reads float base[r] + l − start[r].
		b[r] = (base[r] - start[r]) * 4
		m[r] = uint16((1<<end - 1) &^ (1<<start[r] - 1))
	}
	_ = panel[len(offs)*mr-1]
	if !hasAVX512 {
		var masks [4][8]int32
		for l := range 8 {
			for r := 0; r < runs; r++ {
				masks[r][l] = -int32(m[r] >> l & 1)
			}
			if l < mr {
				masks[3][l] = -1
			}
		}
		patchPanelAVX2(&panel[0], len(offs), &offs[0], unsafe.SliceData(pt.xp),
			b[0], b[1], b[2], &masks[0][0], mr*4)
		return true
	}
	patchPanelAVX512(&panel[0], len(offs), &offs[0], unsafe.SliceData(pt.xp),
		b[0], b[1], b[2], m[0], m[1], m[2], uint16(1<<mr-1), mr*4)
	return true
}

// convPatchGemmOK reports whether a convolution of geometry g runs as a
// product of its patch matrix (output pixels × taps, packed straight from
// the padded image) by its packed filters: on the AVX2 and AVX-512 tiers,
// where the direct kernel would run, for at least 64 output channels (two
// columns of 14×32 tiles), 256 taps and 14 output pixels. Xeon SPR, 1
// worker, 3×3 stride 2 at 56², 28², 14²: 122, 132, 111 → 141, 157, 136
// GFLOP/s on the AVX-512 tier, 81, 89, 81 → 91, 94, 92 on the AVX2 tier.
func convPatchGemmOK(g *convGeom, groups int) bool {
	return hasAVX2FMA && groups == 1 && g.o >= 64 && g.c*g.kh*g.kw >= 256 && g.p >= 14 &&
		convDirectOK(g, groups)
}

// patchGemmImages convolves images [lo, hi) as products of their patch
// matrices by the packed filters pb: each image is copied into a padded
// image (as for the direct kernel), the product computes its output
// pixels × channels with the bias and activation in the GEMM's epilogue,
// and a transpose writes that to the output's channels × pixels.
func (j *convJob) patchGemmImages(lo, hi int, parallel bool, pb *PackedB) {
	g := &j.g
	d := newConvDirect(g)
	scratch, xp, offs, pc := j.paddedScratch(&d, g.p*g.o)
	// From a pool: the product's jobs keep a pointer to it, which would
	// move a local to the heap on every call.
	pt := convPatchesPool.Get().(*convPatches)
	*pt = convPatches{xp: xp, offs: offs, ow: g.ow, rowStep: g.sh * d.wrow}
	inSize := g.c * g.h * g.w
	for n := lo; n < hi; n++ {
		j.fillPadded(xp, j.x[n*inSize:(n+1)*inSize], &d)
		j.patchProduct(pt, pb, pc, n, n+1, parallel)
	}
	*pt = convPatches{}
	convPatchesPool.Put(pt)
	convScratch.Put(scratch)
}

// patchProduct computes the output of images [lo, hi) from their patch
// matrices pt (one above the other) and the packed filters pb: the
// product into pc (pixels × channels, with the bias and activation), then
// a transpose of each image's rows into its channels × pixels.
func (j *convJob) patchProduct(pt *convPatches, pb *PackedB, pc []float32, lo, hi int, parallel bool) {
	g := &j.g
	gc := gemmCall{m: (hi - lo) * g.p, n: g.o, k: pb.k, alpha: 1, pb: pb, c: pc, ldc: g.o,
		bias: j.bias, act: j.act, kern: pb.kern, serial: !parallel, patches: pt}
	gc.run()
	size := g.o * g.p
	for n := lo; n < hi; n++ {
		packTranspose(j.out[n*size:(n+1)*size], g.p, pc[(n-lo)*size:], g.o, g.p, g.o, 1)
	}
}

// convPointwisePatchOK reports whether a 1×1 convolution with stride 1
// and no padding runs as one product of the pixels of all its images
// (read in place) by its packed filters, rather than a product per image
// of the filters by its pixels: on the AVX2 and AVX-512 tiers, for at
// least 64 output channels and images of 14 to pointwisePatchMaxPixels
// pixels, too few to fill the columns of the tiles the other way round
// (49 pixels of a 7² image use 49 of 64). Xeon SPR, 1 worker, benchstat
// n=6, depthwise-separable blocks at batch 8: 160→960→160 at 7² 1.94 →
// 1.78 ms on the AVX-512 tier, 3.06 → 2.93 ms on the AVX2 tier; at 14²
// (196 pixels) the blocks ran 12 % slower this way on AVX-512.
func convPointwisePatchOK(g *convGeom, groups int) bool {
	return hasAVX2FMA && groups == 1 && g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 &&
		g.ph == 0 && g.pw == 0 && g.o >= 64 && g.p >= 14 && g.p <= pointwisePatchMaxPixels
}

// pointwisePatchMaxPixels is the largest image convPointwisePatchOK takes.
const pointwisePatchMaxPixels = 63

// pointwisePatchChunk is the most floats of output a product of
// pointwisePatchImages computes before its transposes (1 MB).
const pointwisePatchChunk = 1 << 18

// pointwisePatchImages convolves images [lo, hi) with a 1×1 convolution
// as one product: row q of the patch matrix is pixel q % P of image
// lo + q / P, tap c its channel c, read where the images lie.
func (j *convJob) pointwisePatchImages(lo, hi int, parallel bool, pb *PackedB) {
	g := &j.g
	inSize := g.c * g.p
	chunk := max(1, min(hi-lo, pointwisePatchChunk/(g.p*g.o))) // images a product
	m := chunk * g.p
	scratch := getConvScratch(m*g.o + g.c)
	pc := (*scratch)[:m*g.o]
	offs := unsafe.Slice((*int32)(unsafe.Pointer(&(*scratch)[m*g.o])), g.c)
	for c := range offs {
		offs[c] = int32(c * g.p * 4)
	}
	pt := convPatchesPool.Get().(*convPatches)
	for n := lo; n < hi; n += chunk {
		n1 := min(hi, n+chunk)
		*pt = convPatches{xp: j.x[n*inSize : n1*inSize], offs: offs, ow: g.p, rowStep: inSize}
		j.patchProduct(pt, pb, pc, n, n1, parallel)
	}
	*pt = convPatches{}
	convPatchesPool.Put(pt)
	convScratch.Put(scratch)
}

var convPatchesPool = sync.Pool{New: func() any { return new(convPatches) }}
