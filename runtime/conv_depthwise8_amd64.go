// The channel-interleaved path of the AVX2 depthwise convolution (see
// useDepthwise8): eight channels at a time are transposed
// into one zero-padded plane of eight-float pixels, convolved eight
// output pixels per step with every vector lane busy, and transposed back.

//go:build amd64 && !noasm

package runtime

import "unsafe"

// depthwise8AVX2 convolves groups of eight interleaved pixels of eight
// channels whose inputs are step bytes apart; see
// conv_depthwise8_avx2_amd64.s.
//
//go:noescape
func depthwise8AVX2(k int, offs *int32, x *float32, step int, w *float32, out *float32, groups int, bias *float32, flags int)

// depthwise8NarrowWidth is the widest output row that takes the
// interleaved path whatever the channel count: narrower rows leave most
// of the sixteen lanes of the per-channel kernel idle (Zen 3, 1 worker,
// depthwise 3×3 of 8 images: 960 channels at 7² 5.6 → 29 GFLOP/s, 576
// at 14² 11 → 25).
const depthwise8NarrowWidth = 15

// useDepthwise8 reports whether a depthwise convolution of geometry g
// takes the interleaved path: rows narrow enough that the per-channel
// kernel idles, or channels in whole blocks of eight. Wider rows are
// faster interleaved too (Zen 3, avx2, 1 worker, 3×3 of 8 images: 32
// channels at 112² 11.3 → 8.6 ms, 144 at 56² 4.2 → 3.0, 192 at 28² 1.58
// → 0.99), but a last block of fewer than eight channels moves its rows
// a float at a time and fills some lanes only (2 images: 12 channels at
// 56² 70 → 86 µs, 3 at 112² 60 → 188).
func useDepthwise8(g *convGeom) bool {
	return g.ow <= depthwise8NarrowWidth || g.c%8 == 0
}

// depthwise8Layout is the interleaved padded plane of one block of eight
// channels: wp pixels per row (the padded width), each eight floats, and
// the output in rows of outRow pixels. With stride 1 the kernel computes
// a pixel for every q = y·wp + x, x < wp, of the output rows (x ≥ OW are
// discarded) in groups of eight, in one call; with a larger stride, each
// output row is a call of rowGroups groups (the pixels past OW are
// discarded). The plane has rows enough below for the last group's
// reads.
type depthwise8Layout struct {
	wp, hp    int // padded width and height, in pixels, of the input plane
	outRow    int // pixels per output row in the kernel's output
	rowGroups int // groups of eight output pixels per call
	calls     int // kernel calls: 1 with stride 1, else OH
	inSize    int // floats of the padded input plane
	outSize   int // floats of the kernel's output
}

func newDepthwise8Layout(g *convGeom) depthwise8Layout {
	l := depthwise8Layout{wp: g.w + 2*g.pw}
	if g.sh == 1 && g.sw == 1 {
		l.outRow, l.rowGroups, l.calls = l.wp, (g.oh*l.wp+7)/8, 1
	} else {
		l.rowGroups = (g.ow + 7) / 8
		l.outRow, l.calls = 8*l.rowGroups, g.oh
	}
	// The last call's first input pixel, and how far its last group reads.
	first := (l.calls - 1) * g.sh * l.wp
	last := first + (8*l.rowGroups-1)*g.sw + (g.kh-1)*l.wp + g.kw - 1
	l.hp = max(g.h+2*g.ph, last/l.wp+1)
	l.inSize = l.hp * l.wp * 8
	l.outSize = l.calls * 8 * l.rowGroups * 8
	return l
}

// depthwise8ParamSize is the number of floats interleaveDepthwise8Params
// writes for geometry g.
func depthwise8ParamSize(g *convGeom) int {
	blocks := (g.c + 7) / 8
	return blocks * 8 * (g.kh*g.kw + 1)
}

// interleaveDepthwise8Params lays out the filters w [C, 1, KH, KW] and the
// bias (nil: zeros) for channels8 in buf: for each block b of eight
// channels, w8[(b·k + t)·8 + i] = w[8b+i, t] and bias8[8b+i] = bias[8b+i]
// (0 past the last channel).
func interleaveDepthwise8Params(buf []float32, g *convGeom, w, bias []float32) (w8, bias8 []float32) {
	k, blocks := g.kh*g.kw, (g.c+7)/8
	w8, bias8 = buf[:blocks*8*k], buf[blocks*8*k:blocks*8*(k+1)]
	clear(w8)
	clear(bias8)
	for c := 0; c < g.c; c++ {
		b, i := c/8, c%8
		dst := w8[b*8*k:]
		for t, v := range w[c*k : (c+1)*k] {
			dst[t*8+i] = v
		}
	}
	if bias != nil {
		copy(bias8, bias[:g.c])
	}
	return w8, bias8
}

// channels8 convolves the blocks of eight channels [lo, hi) of one image
// (the last block holds the channels past the last multiple of eight)
// with the weights and bias laid out by interleaveDepthwise8Params.
func (j *convDepthwiseJob) channels8(lo, hi int) {
	g := j.g
	l := newDepthwise8Layout(&g)
	k := g.kh * g.kw
	inPlane, outPlane := g.h*g.w, g.oh*g.ow
	// Scratch: the padded interleaved input, the output in q order, the
	// pixels of eight planes, the tap offsets.
	flat := max(inPlane, outPlane)
	if g.w >= 8 && g.ow >= 8 {
		flat = 0 // every row moves straight between planes and pixels
	}
	scratch := getConvScratch(l.inSize + l.outSize + 8*flat + k)
	buf := *scratch
	in, buf := buf[:l.inSize], buf[l.inSize:]
	outQ, buf := buf[:l.outSize], buf[l.outSize:]
	pix, buf := buf[:8*flat], buf[8*flat:]
	offs := unsafe.Slice((*int32)(unsafe.Pointer(&buf[0])), k)
	for p := 0; p < g.kh; p++ {
		for q := 0; q < g.kw; q++ {
			offs[p*g.kw+q] = int32((p*l.wp + q) * 32)
		}
	}
	clear(in) // the padding stays zero; each block writes the interior
	// Rows under eight pixels are moved a pixel (32 bytes) at a time:
	// they are short, and copy's call costs more than the move (Zen 3: 7²
	// planes, 2.5x).
	inPix, outPix, pixels := pixels8(in), pixels8(outQ), pixels8(pix)
	for b := lo; b < hi; b++ {
		c0 := 8 * b
		cnt := min(8, g.c-c0)
		src, dst := j.x[c0*inPlane:], j.out[c0*outPlane:]
		// The eight planes, transposed to pixels of eight channels: rows
		// of eight pixels or more straight into the padded plane, shorter
		// ones through pix (a transpose needs eight pixels).
		if g.w >= 8 {
			for y := 0; y < g.h; y++ {
				interleave8(in[((y+g.ph)*l.wp+g.pw)*8:], src[y*g.w:], inPlane, g.w, cnt)
			}
		} else {
			interleave8(pix, src, inPlane, inPlane, cnt)
			for y := 0; y < g.h; y++ {
				row := inPix[(y+g.ph)*l.wp+g.pw:][:g.w]
				for x, v := range pixels[y*g.w:][:g.w] {
					row[x] = v
				}
			}
		}
		for call := range l.calls {
			depthwise8AVX2(k, &offs[0], &in[call*g.sh*l.wp*8], 32*g.sw, &j.w8[b*8*k],
				&outQ[call*l.rowGroups*64], l.rowGroups, &j.bias8[c0], j.flags)
		}
		// Transpose back to planes, dropping the columns past OW.
		if g.ow >= 8 {
			for y := 0; y < g.oh; y++ {
				deinterleave8(dst[y*g.ow:], outQ[y*l.outRow*8:], outPlane, g.ow, cnt)
			}
		} else {
			for y := 0; y < g.oh; y++ {
				row := pixels[y*g.ow:][:g.ow]
				for x, v := range outPix[y*l.outRow:][:g.ow] {
					row[x] = v
				}
			}
			deinterleave8(dst, pix, outPlane, outPlane, cnt)
		}
		if postAct(j.act) {
			actBlock(j.out[c0*outPlane:(c0+cnt)*outPlane], j.act)
		}
	}
	convScratch.Put(scratch)
}

// pixels8 views f (a multiple of 8 floats long) as pixels of eight
// channels.
func pixels8(f []float32) [][8]float32 {
	if len(f) < 8 {
		return nil // an empty f may point past its buffer
	}
	return unsafe.Slice((*[8]float32)(unsafe.Pointer(unsafe.SliceData(f))), len(f)/8)
}
