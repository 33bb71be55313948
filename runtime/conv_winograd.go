// The Winograd F(2×2, 3×3) convolution's transforms: a 3×3 convolution with
// stride 1 computes each 2×2 block of output pixels (a tile) from a 4×4
// block of input with 16 multiplications per input channel instead of 36.
//
// With d the 4×4 input block of one channel and g its 3×3 filter, the 2×2
// output block is Aᵀ[(G g Gᵀ) ⊙ (Bᵀ d B)]A, summed over the channels:
//
//	Bᵀ = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]
//	G  = [1 0 0; ½ ½ ½; ½ -½ ½; 0 0 1]
//	Aᵀ = [1 1 1 0; 0 1 -1 -1]
//
// so the sum over channels is, for each of the 16 positions ξ of the 4×4
// transformed block, one matrix product: M_ξ[tile, k] = Σ_c V_ξ[tile, c] ·
// U_ξ[k, c], with V = Bᵀ d B of every tile and channel, U = G g Gᵀ of
// every filter. The transforms work on eight channels at a time, laid out
// as NCHW8c blocks, so that every vector load is contiguous.

package runtime

// winoTiles is the number of tile rows and columns covering an output
// plane of oh×ow pixels.
func winoTiles(oh, ow int) (th, tw int) { return (oh + 1) / 2, (ow + 1) / 2 }

// winogradFilters returns U = G g Gᵀ of the filters w [K, C, 3, 3] as 16
// planes [K, C] (plane ξ = 4a+b holds U[a][b]), computed in float64 and
// rounded once.
func winogradFilters(w []float32, k, c int) [16][]float32 {
	var u [16][]float32
	for xi := range u {
		u[xi] = make([]float32, k*c)
	}
	for i := 0; i < k*c; i++ {
		g := w[i*9 : i*9+9]
		// Gg, 4×3: rows g0, (g0+g1+g2)/2, (g0−g1+g2)/2, g2.
		var t [4][3]float64
		for q := 0; q < 3; q++ {
			g0, g1, g2 := float64(g[q]), float64(g[3+q]), float64(g[6+q])
			t[0][q], t[1][q], t[2][q], t[3][q] = g0, (g0+g1+g2)/2, (g0-g1+g2)/2, g2
		}
		for a := 0; a < 4; a++ {
			r0, r1, r2 := t[a][0], t[a][1], t[a][2]
			u[4*a][i] = float32(r0)
			u[4*a+1][i] = float32((r0 + r1 + r2) / 2)
			u[4*a+2][i] = float32((r0 - r1 + r2) / 2)
			u[4*a+3][i] = float32(r2)
		}
	}
	return u
}

// winogradWeights transforms and packs the filters w [O, C, 3, 3] for
// winogradImages.
func winogradWeights(w []float32, o, c int) *[16]*PackedB {
	u := winogradFilters(w, o, c)
	var pb [16]*PackedB
	for xi := range pb {
		pb[xi] = PackB(true, c, o, u[xi], c)
	}
	return &pb
}
