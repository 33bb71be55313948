// This file holds the constructor kernels: fill, arange and seeded rand.

package runtime

import "math/rand/v2"

// Fill sets every element of out to v (converted to out's dtype).
//
//	out[i] = v
func Fill(out *Array, v float64) {
	switch out.DType {
	case Float32:
		f := float32(v)
		for i := range out.F32 {
			out.F32[i] = f
		}
	case Int64:
		for i := range out.I64 {
			out.I64[i] = int64(v)
		}
	case Bool:
		for i := range out.B {
			out.B[i] = v != 0
		}
	}
}

// Zeros sets every element of out to zero.
//
//	out[i] = 0
func Zeros(out *Array) { Fill(out, 0) }

// Ones sets every element of out to one.
//
//	out[i] = 1
func Ones(out *Array) { Fill(out, 1) }

// Arange sets out, a 1-d array, to start, start+step, start+2·step, ...
//
//	out[i] = start + i·step
func Arange(out *Array, start, step float64) {
	if len(out.Shape) != 1 {
		kernelPanic("Arange", "out shape %v, want 1-d", out.Shape)
	}
	for i := 0; i < out.Shape[0]; i++ {
		v := start + float64(i)*step
		switch out.DType {
		case Float32:
			out.F32[i] = float32(v)
		case Int64:
			out.I64[i] = int64(v)
		default:
			kernelPanic("Arange", "out dtype %v, want f32 or i64", out.DType)
		}
	}
}

// Rand fills the float32 array out with uniform values in [0, 1) from a PCG
// generator seeded with seed, so the same seed gives the same values on
// every platform.
//
//	out[i] = pcg(seed).Float32()
func Rand(out *Array, seed int) {
	checkDType("Rand", "out", out, Float32)
	r := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	for i := range out.F32 {
		out.F32[i] = r.Float32()
	}
}

// FullLike fills out, of x's dtype and size, with v; x's values are not
// read. It is torch.full_like.
//
//	out[i] = v
func FullLike(out, x *Array, v float64) {
	if out.DType != x.DType || out.Len() != x.Len() {
		kernelPanic("FullLike", "out %v%v does not match x %v%v", out.DType, out.Shape, x.DType, x.Shape)
	}
	Fill(out, v)
}
