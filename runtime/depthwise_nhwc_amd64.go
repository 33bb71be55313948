//go:build amd64 && !noasm

package runtime

// dwPixelAVX2 computes one output pixel of a channels-last depthwise
// convolution, eight channels at a time; see depthwise_nhwc_avx2_amd64.s.
//
//go:noescape
func dwPixelAVX2(dst, x *float32, offs *int, wt *float32, taps *int, nt, c int, bias *float32, flags int)

// dwPixelAsm runs dwPixelAVX2 for the channels in whole blocks of eight on
// the vector tiers, and returns the first channel it left to the caller.
func dwPixelAsm(dst, x []float32, offs []int, wt []float32, taps []int, bias []float32, relu bool) int {
	c := len(dst) &^ 7
	if !hasAVX2FMA || c == 0 || len(offs) == 0 {
		return 0
	}
	// What the kernel reads, checked once.
	for t, o := range offs {
		_, _ = x[o+c-1], wt[taps[t]+c-1]
	}
	flags, bp := dwFlags(bias, c, relu)
	dwPixelAVX2(&dst[0], &x[0], &offs[0], &wt[0], &taps[0], len(offs), c, bp, flags)
	return c
}

// dwRow3x3AVX2 computes a run of output pixels of a row of a 3×3
// channels-last depthwise convolution; see depthwise_nhwc_avx2_amd64.s.
//
//go:noescape
func dwRow3x3AVX2(dst, r0, r1, r2, w *float32, c, n, step int, bias *float32, flags int)

// dwRowAsm runs dwRow3x3AVX2 for the output pixels dst (a run of a row
// whose taps all fall in the image horizontally) on the vector tiers:
// their input rows are y0 .. y0+2 of img (h rows of wd pixels of c
// channels, rows outside counting as zeros), their first input pixel
// column x0, step columns from one output to the next. It reports whether
// it ran.
func dwRowAsm(dst, img, taps, bias []float32, c, y0, h, x0, wd, step int, relu bool) bool {
	n := len(dst) / c
	if !hasAVX2FMA || n == 0 {
		return false
	}
	flags, bp := dwFlags(bias, c, relu)
	var rows [3]*float32
	for p := range 3 {
		iy := y0 + p
		if iy < 0 || iy >= h {
			flags |= [3]int{4, 0, 8}[p]
			iy = y0 + 1 // not read
		}
		// What the kernel reads of the row, checked once.
		_ = img[(iy*wd+x0+(n-1)*step+2)*c+c-1]
		rows[p] = &img[(iy*wd+x0)*c]
	}
	_ = taps[9*c-1]
	dwRow3x3AVX2(&dst[0], rows[0], rows[1], rows[2], &taps[0], c, n, step, bp, flags)
	return true
}

// dwFlags returns the flags of the channels-last depthwise kernels (1:
// bias, 2: ReLU) and the bias they read (nil for none), checking that it
// holds c channels.
func dwFlags(bias []float32, c int, relu bool) (int, *float32) {
	flags := 0
	var bp *float32
	if bias != nil {
		_ = bias[c-1]
		flags, bp = 1, &bias[0]
	}
	if relu {
		flags |= 2
	}
	return flags, bp
}
