// This file holds the narrow linear path: a packed linear layer whose
// input and output widths are both tiny, computed row by row instead of
// through the blocked GEMM.

package runtime

// narrowMax is the largest input and output width of a linear layer that
// linearNarrow computes. Below it the GEMM's tiles are mostly edge (a
// 5-column output fills 5 of a 16- or 32-column tile) and packing A costs
// as much as the product: on a [5120,4]·[4,5] layer (Zen 3, AVX2 tier, 1
// worker) the blocked GEMM took about 280 µs and this loop about 20 µs.
const narrowMax = 16

// narrowParallelMin is the work (multiply-adds) from which linearNarrow
// splits its rows over the workers: the kernel does about 10⁵ in 17 µs,
// and below this the hand-off costs more than it saves (fxdoc at N=1024,
// 102 400 multiply-adds, 2 workers, Zen 3: 210 µs per Forward split at
// 2^16, 118 µs kept serial).
const narrowParallelMin = 1 << 18

// narrowLinear is one linear layer computed by linearNarrow.
type narrowLinear struct {
	k, n   int
	w16    [narrowMax * narrowMax]float32 // w16[p*16+j] = B(p, j) of the k×n product, zero for j ≥ n
	bias16 [narrowMax]float32             // bias[j], zero for j ≥ n
	x      []float32
	bias   []float32
	out    []float32
	act    Activation
}

var narrowTasks = taskPool((*narrowLinear).rows)

// linearNarrow sets out[r, j] = act(bias[j] + Σp x[r, p]·B(p, j)) for the
// packed k×n matrix B when both k and n are at most narrowMax, and reports
// whether it did. Each output is summed in the order of p, as a GEMM tile
// sums it, and does not depend on the number of workers.
func linearNarrow(rows int, x []float32, pb *PackedB, bias, out []float32, act Activation) bool {
	k, n := pb.k, pb.n
	if k > narrowMax || n > narrowMax || rows < 2 || k == 0 || n == 0 {
		return false
	}
	l := &narrowLinear{k: k, n: n, x: x, bias: bias, out: out, act: act}
	nr := pb.kern.nr
	for p := 0; p < k; p++ {
		for j := 0; j < n; j++ {
			l.w16[p*narrowMax+j] = pb.data[j/nr*k*nr+p*nr+j%nr]
		}
	}
	copy(l.bias16[:], bias)
	if w := Workers(); w > 1 && rows*k*n >= narrowParallelMin {
		runPooled(narrowTasks, rows, *l)
	} else {
		l.rows(0, rows)
	}
	if postAct(act) {
		applyAct(out[:rows*n], act)
	}
	return true
}

// rows computes rows [lo, hi) of the product, with the tier's vector
// kernel when it has one.
func (l *narrowLinear) rows(lo, hi int) {
	if narrowRowsVec(l, lo, hi) {
		return
	}
	k, n := l.k, l.n
	var acc [narrowMax]float32
	for r := lo; r < hi; r++ {
		xr := l.x[r*k : r*k+k]
		a := acc[:n]
		clear(a)
		for p, xv := range xr {
			wp := l.w16[p*narrowMax : p*narrowMax+n]
			for j, wv := range wp {
				a[j] += xv * wv
			}
		}
		o := l.out[r*n : r*n+n]
		for j, v := range a {
			if l.bias != nil {
				v += l.bias[j]
			}
			if l.act == ActReLU && v < 0 {
				v = 0
			}
			o[j] = v
		}
	}
}
