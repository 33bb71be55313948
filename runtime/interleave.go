// Moves between planes of channels and pixels of eight channels (NCHW8c),
// in plain Go.

package runtime

// interleaveGo sets pix[8p+i] = x[i·stride+p] for the cnt ≤ 8 channels
// at x, stride floats apart, and the pixels lo ≤ p < n.
func interleaveGo(pix, x []float32, stride, lo, n, cnt int) {
	for i := range cnt {
		xi := x[i*stride:][:n]
		for p := lo; p < n; p++ {
			pix[8*p+i] = xi[p]
		}
	}
}

// deinterleaveGo sets out[i·stride+p] = pix[8p+i] for the cnt ≤ 8
// channels at out, stride floats apart, and the pixels lo ≤ p < n.
func deinterleaveGo(out, pix []float32, stride, lo, n, cnt int) {
	for i := range cnt {
		oi := out[i*stride:][:n]
		for p := lo; p < n; p++ {
			oi[p] = pix[8*p+i]
		}
	}
}
