// Portable build: patch panels are packed in Go.

//go:build !amd64 || noasm

package runtime

// packPanelFast reports false: pack copies the panel in Go.
func (pt *convPatches) packPanelFast(panel []float32, q, rows int, offs []int32, mr int) bool {
	return false
}

// convPatchGemmOK reports false: there is no padded image to pack from.
func convPatchGemmOK(g *convGeom, groups int) bool { return false }

// convPointwisePatchOK reports false: see convPatchGemmOK.
func convPointwisePatchOK(g *convGeom, groups int) bool { return false }

// pointwisePatchImages is never called without convPointwisePatchOK.
func (j *convJob) pointwisePatchImages(lo, hi int, parallel bool, pb *PackedB) {
	panic("runtime: no patch-matrix convolution")
}

// patchGemmImages is never called without convPatchGemmOK.
func (j *convJob) patchGemmImages(lo, hi int, parallel bool, pb *PackedB) {
	panic("runtime: no patch-matrix convolution")
}
