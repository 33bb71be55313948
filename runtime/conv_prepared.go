// This file holds a convolution's filters prepared once, for the kernels
// that want them in another layout.

package runtime

import "sync"

// ConvFilters are a convolution's filters [O, C/groups, KH, KW] with the
// layouts its kernels derive from them: the Winograd transform of 3×3
// filters (16/9 of their size). Generated code prepares
// the filters of every convolution once, in the compiled model's
// constructor (PrepareConv2d), so that Forward does not transform them on
// every call. A ConvFilters is safe for concurrent use; the filters must
// not change while it is in use.
type ConvFilters struct {
	w    *Array
	once sync.Once
	wino *[16]*PackedB // nil until a Winograd convolution needs it

	patchOnce sync.Once
	patch     *PackedB // nil until a patch-matrix GEMM needs it
}

// PrepareConv2d returns w, the filters of a Conv2d with this stride and
// groups, ready for Conv2dPrepared and Conv2dActPrepared: the layouts the
// selected tier's kernels want for that convolution are computed now (the
// Winograd transform of 3×3 filters with stride 1 and at least 32 input
// channels). A convolution that
// needs another layout later (after SetISA, or with another stride)
// computes it on its first call. padding, which no layout depends on, is
// taken so that the call reads as the convolution's.
func PrepareConv2d(w *Array, stride, padding []int, groups int) *ConvFilters {
	const name = "PrepareConv2d"
	checkDType(name, "weight", w, Float32)
	if len(w.Shape) != 4 {
		kernelPanic(name, "weight shape %v, want [O, C/groups, KH, KW]", w.Shape)
	}
	f := &ConvFilters{w: w}
	g := convGeom{c: w.Shape[1] * groups, o: w.Shape[0], kh: w.Shape[2], kw: w.Shape[3]}
	g.sh, g.sw = pair2(name, "stride", stride)
	pair2(name, "padding", padding)
	if groups >= 1 && convWinogradOK(&g, groups) {
		f.winograd()
	}
	return f
}

// winograd returns the transformed filters, computing them on first use.
func (f *ConvFilters) winograd() *[16]*PackedB {
	f.once.Do(func() { f.wino = winogradWeights(f.w.F32, f.w.Shape[0], f.w.Shape[1]) })
	return f.wino
}

// patchFilters returns the filters as the B of a patch-matrix GEMM
// (taps × output channels, packed in blocks of the depth a product of p
// pixels takes), computing them on first use.
func (f *ConvFilters) patchFilters(p int) *PackedB {
	f.patchOnce.Do(func() {
		o := f.w.Shape[0]
		k := len(f.w.F32) / o
		kern := selectedKernel
		kc := (&gemmCall{m: p, n: o, k: k, kern: kern}).depth()
		f.patch = &PackedB{k: k, n: o, kern: kern, kblock: kc,
			data: packBBlocks(true, k, o, f.w.F32, k, kern.nr, kc)}
	})
	return f.patch
}

// Conv2dPrepared is Conv2d with filters prepared by PrepareConv2d.
func Conv2dPrepared(out, x *Array, w *ConvFilters, bias *Array, stride, padding []int, groups int) {
	conv2dPrepared(out, x, w, bias, stride, padding, groups, ActNone)
}

// Conv2dActPrepared is Conv2dAct with filters prepared by PrepareConv2d.
func Conv2dActPrepared(out, x *Array, w *ConvFilters, bias *Array, stride, padding []int, groups, act int) {
	conv2dPrepared(out, x, w, bias, stride, padding, groups, checkAct("Conv2dActPrepared", act))
}

func conv2dPrepared(out, x *Array, w *ConvFilters, bias *Array, stride, padding []int, groups int, act Activation) {
	if w == nil {
		kernelPanic("Conv2dPrepared", "nil ConvFilters")
	}
	conv2dWith(out, x, w.w, w, bias, nil, stride, padding, groups, act)
}
