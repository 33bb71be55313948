// Portable build: convolutions have no direct or depthwise kernel.

//go:build !amd64 || noasm

package runtime

// convDirectOK reports false: im2col and the GEMM do the work.
func convDirectOK(g *convGeom, groups int) bool { return false }

// paddedImages is never called without a direct or depthwise kernel.
func (j *convJob) paddedImages(lo, hi int, parallel, depthwise bool) {
	panic("runtime: no direct convolution kernel")
}

// convDepthwiseOK reports false: im2col and the GEMM do the work.
func convDepthwiseOK(g *convGeom, groups int) bool { return false }
