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

// packPanelFast packs the panel of pixels [q, q+rows) with the AVX-512
// kernel when the tier has it and the pixels lie in at most three output
// rows, and reports whether it did.
func (pt *convPatches) packPanelFast(panel []float32, q, rows int, offs []int32, mr int) bool {
	if !hasAVX512 || mr > 16 || len(offs) == 0 {
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
	patchPanelAVX512(&panel[0], len(offs), &offs[0], unsafe.SliceData(pt.xp),
		b[0], b[1], b[2], m[0], m[1], m[2], uint16(1<<mr-1), mr*4)
	return true
}

// convPatchGemmOK reports whether a convolution of geometry g runs as a
// product of its patch matrix (output pixels × taps, packed straight from
// the padded image) by its packed filters: on the AVX-512 tier, where
// the direct kernel would run, for at least 64 output channels (two
// columns of 14×32 tiles), 256 taps and 14 output pixels.
func convPatchGemmOK(g *convGeom, groups int) bool {
	return hasAVX512 && groups == 1 && g.o >= 64 && g.c*g.kh*g.kw >= 256 && g.p >= 14 &&
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
	inSize, outSize := g.c*g.h*g.w, g.o*g.p
	for n := lo; n < hi; n++ {
		j.fillPadded(xp, j.x[n*inSize:(n+1)*inSize], &d)
		gc := gemmCall{m: g.p, n: g.o, k: pb.k, alpha: 1, pb: pb, c: pc, ldc: g.o,
			bias: j.bias, act: j.act, kern: pb.kern, serial: !parallel, patches: pt}
		gc.run()
		packTranspose(j.out[n*outSize:(n+1)*outSize], g.p, pc, g.o, g.p, g.o, 1)
	}
	*pt = convPatches{}
	convPatchesPool.Put(pt)
	convScratch.Put(scratch)
}

var convPatchesPool = sync.Pool{New: func() any { return new(convPatches) }}
