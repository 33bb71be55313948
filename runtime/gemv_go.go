// The portable m == 1 kernels: plain Go for every architecture without
// assembly (and the generic tier on amd64).

package runtime

// portableGemv is the generic kernel's m == 1 path. Without it a row of A
// goes through the 4×4 tile, which computes three rows of padding for it.
var portableGemv = &gemvKernel{row: gemvRowGo, dot4: dot4Go}

// gemvRowGo is the portable gemvKernel.row for cols ≤ 4. It keeps two sums
// a column, over the even and the odd rows of B, so that eight chains of
// adds run side by side instead of four, and adds them at the end.
func gemvRowGo(k int, a, b []float32, ldb int, c []float32, alpha, beta float32, bias []float32, flags, cols int) {
	a = a[:k]
	var s [4]float32
	if cols == 4 {
		var e0, e1, e2, e3, o0, o1, o2, o3 float32
		p := 0
		for ; p+1 < k; p += 2 {
			re := b[p*ldb : p*ldb+4 : p*ldb+4]
			ro := b[(p+1)*ldb : (p+1)*ldb+4 : (p+1)*ldb+4]
			ae, ao := a[p], a[p+1]
			e0 += ae * re[0]
			e1 += ae * re[1]
			e2 += ae * re[2]
			e3 += ae * re[3]
			o0 += ao * ro[0]
			o1 += ao * ro[1]
			o2 += ao * ro[2]
			o3 += ao * ro[3]
		}
		if p < k {
			re := b[p*ldb : p*ldb+4 : p*ldb+4]
			ae := a[p]
			e0 += ae * re[0]
			e1 += ae * re[1]
			e2 += ae * re[2]
			e3 += ae * re[3]
		}
		s = [4]float32{e0 + o0, e1 + o1, e2 + o2, e3 + o3}
	} else {
		// The last, narrower panel of a B read in place: the same sums,
		// a column at a time.
		for j := range cols {
			var e, o float32
			p := 0
			for ; p+1 < k; p += 2 {
				e += a[p] * b[p*ldb+j]
				o += a[p+1] * b[(p+1)*ldb+j]
			}
			if p < k {
				e += a[p] * b[p*ldb+j]
			}
			s[j] = e + o
		}
	}
	c = c[:cols]
	for j := range c {
		v := alpha * s[j]
		if flags&flagBeta != 0 {
			v += beta * c[j]
		}
		if flags&flagBias != 0 {
			v += bias[j]
		}
		if flags&flagReLU != 0 && v < 0 {
			v = 0
		}
		c[j] = v
	}
}

// dot4Go is the portable gemvKernel.dot4, with two sums a column as
// gemvRowGo.
func dot4Go(k int, a, b []float32, ldb int) [4]float32 {
	a = a[:k]
	r0 := b[:k]
	r1 := b[ldb : ldb+k]
	r2 := b[2*ldb : 2*ldb+k]
	r3 := b[3*ldb : 3*ldb+k]
	var e0, e1, e2, e3, o0, o1, o2, o3 float32
	p := 0
	for ; p+1 < k; p += 2 {
		ae, ao := a[p], a[p+1]
		e0 += ae * r0[p]
		e1 += ae * r1[p]
		e2 += ae * r2[p]
		e3 += ae * r3[p]
		o0 += ao * r0[p+1]
		o1 += ao * r1[p+1]
		o2 += ao * r2[p+1]
		o3 += ao * r3[p+1]
	}
	if p < k {
		ae := a[p]
		e0 += ae * r0[p]
		e1 += ae * r1[p]
		e2 += ae * r2[p]
		e3 += ae * r3[p]
	}
	return [4]float32{e0 + o0, e1 + o1, e2 + o2, e3 + o3}
}
