// The vector kernel of Clamp, Hardtanh and Relu6 (amd64).

//go:build amd64 && !noasm

package runtime

// clampAVX2 sets out[i] = min(max(x[i], lo), hi) for i < n, as the
// portable loop of clampF32 (AVX2). The AVX-512 tier runs it too: a
// memory-bound pass gains nothing from wider vectors.
//
//go:noescape
func clampAVX2(out, x *float32, n int, lo, hi float32)

// clampVec clamps x into out with the selected tier's kernel and reports
// whether it did (false on the generic tier).
func clampVec(out, x []float32, lo, hi float32) bool {
	if vec == nil {
		return false
	}
	if n := len(out); n > 0 {
		_ = x[n-1]
		vec.clamp(&out[0], &x[0], n, lo, hi)
	}
	return true
}
