// Declarations of the vector binary-op loops: AVX-512 (broadcast_amd64.s)
// and AVX2 (broadcast_avx2_amd64.s).

//go:build amd64 && !noasm

package runtime

//go:noescape
func addSameAVX512(o, a, b *float32, n int)

//go:noescape
func subSameAVX512(o, a, b *float32, n int)

//go:noescape
func mulSameAVX512(o, a, b *float32, n int)

//go:noescape
func divSameAVX512(o, a, b *float32, n int)

//go:noescape
func addScalarAVX512(o, a *float32, s float32, n int)

//go:noescape
func subScalarAVX512(o, a *float32, s float32, n int)

//go:noescape
func mulScalarAVX512(o, a *float32, s float32, n int)

//go:noescape
func divScalarAVX512(o, a *float32, s float32, n int)

//go:noescape
func addSameAVX2(o, a, b *float32, n int)

//go:noescape
func subSameAVX2(o, a, b *float32, n int)

//go:noescape
func mulSameAVX2(o, a, b *float32, n int)

//go:noescape
func divSameAVX2(o, a, b *float32, n int)

//go:noescape
func addScalarAVX2(o, a *float32, s float32, n int)

//go:noescape
func subScalarAVX2(o, a *float32, s float32, n int)

//go:noescape
func mulScalarAVX2(o, a *float32, s float32, n int)

//go:noescape
func divScalarAVX2(o, a *float32, s float32, n int)

// The loops of each tier, indexed by binaryOp (opAdd, opSub, opMul, opDiv).
var (
	sameAVX512   = [...]func(o, a, b *float32, n int){addSameAVX512, subSameAVX512, mulSameAVX512, divSameAVX512}
	sameAVX2     = [...]func(o, a, b *float32, n int){addSameAVX2, subSameAVX2, mulSameAVX2, divSameAVX2}
	scalarAVX512 = [...]func(o, a *float32, s float32, n int){addScalarAVX512, subScalarAVX512, mulScalarAVX512, divScalarAVX512}
	scalarAVX2   = [...]func(o, a *float32, s float32, n int){addScalarAVX2, subScalarAVX2, mulScalarAVX2, divScalarAVX2}
)

// binarySameVec sets o[i] = a[i] op b[i] with the vector loops of the
// selected tier and reports whether it did (false on the generic tier).
// a and b hold at least len(o) elements.
func binarySameVec(op binaryOp, o, a, b []float32) bool {
	loops := &sameAVX2
	switch {
	case hasAVX512:
		loops = &sameAVX512
	case !hasAVX2FMA:
		return false
	}
	if int(op) >= len(loops) {
		return false
	}
	if n := len(o); n > 0 {
		_, _ = a[n-1], b[n-1]
		loops[op](&o[0], &a[0], &b[0], n)
	}
	return true
}

// binaryScalarVec sets o[i] = a[i] op s with the vector loops of the
// selected tier and reports whether it did.
func binaryScalarVec(op binaryOp, o, a []float32, s float32) bool {
	loops := &scalarAVX2
	switch {
	case hasAVX512:
		loops = &scalarAVX512
	case !hasAVX2FMA:
		return false
	}
	if int(op) >= len(loops) {
		return false
	}
	if n := len(o); n > 0 {
		_ = a[n-1]
		loops[op](&o[0], &a[0], s, n)
	}
	return true
}
