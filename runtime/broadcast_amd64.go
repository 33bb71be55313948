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

// binarySameVec sets o[i] = a[i] op b[i] with the vector loops of the
// selected tier and reports whether it did (false on the generic tier).
// a and b hold at least len(o) elements.
func binarySameVec(op binaryOp, o, a, b []float32) bool {
	if vec == nil || int(op) >= len(vec.same) {
		return false
	}
	if n := len(o); n > 0 {
		_, _ = a[n-1], b[n-1]
		vec.same[op](&o[0], &a[0], &b[0], n)
	}
	return true
}

// binaryScalarVec sets o[i] = a[i] op s with the vector loops of the
// selected tier and reports whether it did.
func binaryScalarVec(op binaryOp, o, a []float32, s float32) bool {
	if vec == nil || int(op) >= len(vec.scalar) {
		return false
	}
	if n := len(o); n > 0 {
		_ = a[n-1]
		vec.scalar[op](&o[0], &a[0], s, n)
	}
	return true
}
