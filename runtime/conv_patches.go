// This file holds a convolution's patch matrix packed straight from its
// zero-padded image into the GEMM's A panels, for convolutions computed as
// one product of their pixels by their filters (see patchGemmImages).

package runtime

// convPatches is the patch matrix of one image of a convolution, never
// stored whole: row q is output pixel q (row q / ow, column q % ow of the
// output plane), column t is tap t of the filters (channel, kernel row,
// kernel column, in the filters' order), and the element is the input
// under that tap in the zero-padded image xp. A GEMM whose A is a
// convPatches packs its panels from xp (see gemmCall.region).
type convPatches struct {
	xp      []float32 // the zero-padded image
	offs    []int32   // byte offset in xp of each tap, for pixel 0
	ow      int       // output columns
	rowStep int       // floats in xp from one output row's inputs to the next
}

// pixel returns the offset in floats in xp of pixel q's input under tap 0.
func (pt *convPatches) pixel(q int) int { return q/pt.ow*pt.rowStep + q%pt.ow }

// pack writes rows [i0, i0+mb) and taps [p0, p0+kb) of the patch matrix to
// dst as ⌈mb/mr⌉ panels of kb×mr floats, the layout packA gives: element
// (i, t) in panel i/mr at offset t·mr + i%mr, rows past mb zero.
func (pt *convPatches) pack(dst []float32, i0, mb, p0, kb, mr int) {
	offs := pt.offs[p0 : p0+kb]
	for r0 := 0; r0 < mb; r0 += mr {
		rows := min(mr, mb-r0)
		panel := dst[r0*kb : (r0+mr)*kb]
		if pt.packPanelFast(panel, i0+r0, rows, offs, mr) {
			continue
		}
		for i := 0; i < mr; i++ {
			if i >= rows {
				for t := range offs {
					panel[t*mr+i] = 0
				}
				continue
			}
			base := pt.pixel(i0 + r0 + i)
			for t, o := range offs {
				panel[t*mr+i] = pt.xp[int(o)/4+base]
			}
		}
	}
}

// patchRuns splits the pixels [q, q+rows) into runs of consecutive
// pixels of one output row (consecutive floats in xp under any tap): run
// r starts at panel row start[r] and pixel offset base[r]. It reports
// false when there are more than len(start) runs.
func (pt *convPatches) patchRuns(q, rows int, start, base []int) (runs int, ok bool) {
	for i := 0; i < rows; {
		if runs == len(start) {
			return 0, false
		}
		start[runs], base[runs] = i, pt.pixel(q+i)
		i += pt.ow - (q+i)%pt.ow
		runs++
	}
	return runs, true
}
