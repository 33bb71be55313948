//go:build !amd64 || noasm

package runtime

// dwPixelAsm leaves every channel to dwPixel's loop.
func dwPixelAsm(dst, x []float32, offs []int, wt []float32, taps []int, bias []float32, relu bool) int {
	return 0
}

// dwRowAsm reports that this build has no row kernel.
func dwRowAsm(dst, img, taps, bias []float32, c, y0, h, x0, wd, step int, relu bool) bool {
	return false
}
