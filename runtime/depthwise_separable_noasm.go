//go:build !amd64 || noasm

package runtime

// depthwiseBandAsm leaves every band to depthwiseBandGo.
func depthwiseBandAsm(out, in, wk, bias []float32, rows, w, channels, stride int, act Activation) bool {
	return false
}

// depthwiseRows2OK reports that this build has no phase kernel.
func depthwiseRows2OK(w int) bool { return false }

// depthwiseRows2Asm is never called in this build.
func depthwiseRows2Asm(e, o, wk, out []float32, h, oh, ow int, bias *float32, flags int) {
	panic("unreachable")
}
