// Portable build: convolutions have no direct or depthwise kernel.

//go:build !amd64 || noasm

package runtime

// convDirectOK reports false: im2col and the GEMM do the work.
func convDirectOK(g *convGeom, groups int) bool { return false }

// paddedImages is never called without a direct kernel.
func (j *convJob) paddedImages(lo, hi int, parallel bool) {
	panic("runtime: no direct convolution kernel")
}

// depthwiseImages is never called without a depthwise kernel.
func (j *convJob) depthwiseImages(lo, hi int, parallel bool) {
	panic("runtime: no depthwise convolution kernel")
}

// convDepthwiseOK reports false: im2col and the GEMM do the work.
func convDepthwiseOK(g *convGeom, groups int) bool { return false }
