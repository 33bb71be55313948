//go:build amd64 && !noasm

package runtime

// depthwiseBandAsm sets out (channels planes of rows × w floats) to the
// 3×3 depthwise convolution with stride 1 of the bands in (each channel's
// rows + 2 rows at stride floats from the last: the band's rows between
// the rows around them), weights wk [9·channels] plus bias (nil for none),
// then act, with the AVX2 rows kernel; it reports false, leaving out
// alone, when it cannot (a CPU or tier without AVX2, rows narrower than
// eight floats or wider than its row of zeros).
func depthwiseBandAsm(out, in, wk, bias []float32, rows, w, channels, stride int, act Activation) bool {
	if !depthwiseRowsOK(w) {
		return false
	}
	flags := flagHaloRows
	var bias0 float32
	b := &bias0
	if bias != nil {
		flags |= flagBias
		b = &bias[0]
	}
	if act == ActReLU {
		flags |= flagReLU
	}
	plane := rows * w
	_, _, _ = out[channels*plane-1], in[(channels-1)*stride+(rows+2)*w-1], wk[9*channels-1]
	if stride == (rows+2)*w {
		depthwiseRowsAVX2(&in[w], &wk[0], &out[0], rows, w, channels, b, flags, &dwZeros[0], &dwRowMasks)
	} else {
		// A band shorter than the buffer's: a channel at a time.
		for ch := range channels {
			if bias != nil {
				b = &bias[ch]
			}
			depthwiseRowsAVX2(&in[ch*stride+w], &wk[9*ch], &out[ch*plane], rows, w, 1, b, flags, &dwZeros[0], &dwRowMasks)
		}
	}
	if postAct(act) {
		actBlock(out[:channels*plane], act)
	}
	return true
}

// depthwiseRowsOK reports whether the AVX2 rows kernel takes rows w
// floats wide: at least eight floats and at most its row of zeros.
func depthwiseRowsOK(w int) bool {
	return hasAVX2FMA && w >= 8 && w <= len(dwZeros)
}

// depthwiseRows2OK reports whether the AVX2 phase kernel takes a band of
// rows w floats wide: stride 2 splits them into two phases of w/2, at
// least eight floats and at most its row of zeros.
func depthwiseRows2OK(w int) bool {
	return hasAVX2FMA && w%2 == 0 && w/2 >= 8 && w/2 <= len(dwZeros)
}

// depthwiseRows2Asm runs depthwiseRows2AVX2 on one channel's phases e and
// o (h rows of ow floats, the row before each read too with
// flagHaloRows) into out (oh rows of ow).
func depthwiseRows2Asm(e, o, wk, out []float32, h, oh, ow int, bias *float32, flags int) {
	_, _, _, _ = e[h*ow-1], o[h*ow-1], wk[8], out[oh*ow-1]
	depthwiseRows2AVX2(&e[0], &o[0], &wk[0], &out[0], h, oh, ow, bias, flags, &dwZeros[0], &dwRowMasks)
}
