//go:build !amd64 || noasm

package runtime

// depthwiseBandAsm leaves every band to depthwiseBandGo.
func depthwiseBandAsm(out, in, wk, bias []float32, rows, w, channels, stride int, act Activation) bool {
	return false
}
