// The vector kernels of the unary maps (amd64).

//go:build amd64 && !noasm

package runtime

// hardswishAVX2, hardsigmoidAVX2, absAVX2 and sqrtAVX2 set out[i] to
// their map of x[i] for i < n, with the same bits as the portable maps of
// unaryMaps (AVX2). The AVX-512 tier runs them too: these memory-bound
// passes gain nothing from wider vectors.
//
//go:noescape
func hardswishAVX2(out, x *float32, n int)

//go:noescape
func hardsigmoidAVX2(out, x *float32, n int)

//go:noescape
func absAVX2(out, x *float32, n int)

//go:noescape
func sqrtAVX2(out, x *float32, n int)

// unaryAVX2 are the kernels by unaryMap.
var unaryAVX2 = [...]func(out, x *float32, n int){
	unaryHardswish: hardswishAVX2, unaryHardsigmoid: hardsigmoidAVX2, unaryAbs: absAVX2, unarySqrt: sqrtAVX2,
}

// unaryVec maps x into out with the selected tier's kernel and reports
// whether it did (false on the generic tier).
func unaryVec(m unaryMap, out, x []float32) bool {
	if vec == nil {
		return false
	}
	if n := len(out); n > 0 {
		_ = x[n-1]
		vec.unary[m](&out[0], &x[0], n)
	}
	return true
}
