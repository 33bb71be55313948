// Declarations of the AVX-512 binary-op loops.

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

// binarySameVec sets o[i] = a[i] op b[i] with the AVX-512 loops and
// reports whether it did (false when the CPU lacks AVX-512). a and b hold
// at least len(o) elements.
func binarySameVec(op binaryOp, o, a, b []float32) bool {
	if !hasAVX512 {
		return false
	}
	n := len(o)
	if n == 0 {
		return true
	}
	_, _ = a[n-1], b[n-1]
	switch op {
	case opAdd:
		addSameAVX512(&o[0], &a[0], &b[0], n)
	case opSub:
		subSameAVX512(&o[0], &a[0], &b[0], n)
	case opMul:
		mulSameAVX512(&o[0], &a[0], &b[0], n)
	case opDiv:
		divSameAVX512(&o[0], &a[0], &b[0], n)
	default:
		return false
	}
	return true
}

// binaryScalarVec sets o[i] = a[i] op s with the AVX-512 loops and reports
// whether it did.
func binaryScalarVec(op binaryOp, o, a []float32, s float32) bool {
	if !hasAVX512 {
		return false
	}
	n := len(o)
	if n == 0 {
		return true
	}
	_ = a[n-1]
	switch op {
	case opAdd:
		addScalarAVX512(&o[0], &a[0], s, n)
	case opSub:
		subScalarAVX512(&o[0], &a[0], s, n)
	case opMul:
		mulScalarAVX512(&o[0], &a[0], s, n)
	case opDiv:
		divScalarAVX512(&o[0], &a[0], s, n)
	default:
		return false
	}
	return true
}
