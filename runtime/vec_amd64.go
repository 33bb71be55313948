// The vector kernels of each amd64 tier.

//go:build amd64 && !noasm

package runtime

// vecKernels are the vector kernels of one tier. applyISA selects the set
// (vec, nil on the generic tier) and the ...Vec functions call through it,
// so that a tier is one table here rather than a switch in every kernel.
type vecKernels struct {
	activation    [taskGeluTanh + 1]func(out, x *float32, n int) // by task kind; nil: no kernel
	expShift      func(out, x *float32, n int, shift float64) (sum float64)
	expShiftBelow func(out, x *float32, n int, shift float64) (sum float64) // for x ≤ shift
	max           func(x *float32, n int) (m float32, nan bool)
	relu          func(out, x *float32, n int)
	clamp         func(out, x *float32, n int, lo, hi float32)
	unary         [unaryMaps]func(out, x *float32, n int)
	same          [opDiv + 1]func(o, a, b *float32, n int) // by binaryOp
	scalar        [opDiv + 1]func(o, a *float32, s float32, n int)
	layerNormRow  func(out, x, w, b *float32, n int, eps float64, mode int)
	// softmaxKept is softmaxKeptVec's kernel; nil: the tier has none.
	softmaxKept func(out, x *float32, size, rows int, kept *int) (done int)
}

// vec is the vector kernel set of the selected tier, or nil.
var vec *vecKernels

var avx512Vec = &vecKernels{
	activation: [...]func(out, x *float32, n int){
		taskSigmoid: sigmoidAVX512, taskTanh: tanhAVX512, taskGelu: geluVecAVX512,
		taskSilu: siluAVX512, taskGeluTanh: geluTanhVecAVX512,
	},
	expShift:      expShiftAVX512,
	expShiftBelow: expShiftBelowAVX512,
	max:           maxAVX512,
	relu:          reluAVX512,
	clamp:         clampAVX2,
	unary:         unaryAVX2,
	same:          [...]func(o, a, b *float32, n int){addSameAVX512, subSameAVX512, mulSameAVX512, divSameAVX512},
	scalar:        [...]func(o, a *float32, s float32, n int){addScalarAVX512, subScalarAVX512, mulScalarAVX512, divScalarAVX512},
	layerNormRow:  layerNormRowAVX512,
	softmaxKept:   softmaxKeptAVX512,
}

var avx2Vec = &vecKernels{
	activation: [...]func(out, x *float32, n int){
		taskSigmoid: sigmoidAVX2, taskTanh: tanhAVX2, taskGelu: geluVecAVX2,
		taskSilu: siluAVX2, taskGeluTanh: geluTanhVecAVX2,
	},
	expShift:      expShiftAVX2,
	expShiftBelow: expShiftBelowAVX2,
	max:           maxAVX2,
	relu:          reluAVX2,
	clamp:         clampAVX2,
	unary:         unaryAVX2,
	same:          [...]func(o, a, b *float32, n int){addSameAVX2, subSameAVX2, mulSameAVX2, divSameAVX2},
	scalar:        [...]func(o, a *float32, s float32, n int){addScalarAVX2, subScalarAVX2, mulScalarAVX2, divScalarAVX2},
	layerNormRow:  layerNormRowAVX2,
	softmaxKept:   softmaxKeptAVX2,
}

// bestVec returns the vector kernels of the selected tier (SetISA).
func bestVec() *vecKernels {
	switch {
	case hasAVX512:
		return avx512Vec
	case hasAVX2FMA:
		return avx2Vec
	}
	return nil
}
