// This file holds the elementwise unary kernels: relu, neg, sqrt.

package runtime

import "math"

func checkUnary(kernel string, out, x *Array) {
	if !equalInts(out.Shape, x.Shape) {
		kernelPanic(kernel, "out shape %v, want %v", out.Shape, x.Shape)
	}
}

// Relu sets out = max(x, 0) for float32 arrays; NaN stays NaN, as in
// PyTorch and in the fused GEMM epilogue.
//
//	out[i] = x[i] < 0 ? 0 : x[i]
func Relu(out, x *Array) {
	checkUnary("Relu", out, x)
	checkDType("Relu", "x", x, Float32)
	reluF32(out.F32, x.F32[:len(out.F32)])
}

// reluF32 sets out[i] = max(x[i], 0), keeping NaN (and -0) as PyTorch does;
// out may be x.
func reluF32(out, x []float32) {
	if reluVec(out, x) {
		return
	}
	for i, v := range x {
		if v < 0 {
			v = 0
		}
		out[i] = v
	}
}

// Neg sets out = -x for float32 or int64 arrays.
//
//	out[i] = -x[i]
func Neg(out, x *Array) {
	checkUnary("Neg", out, x)
	checkDType("Neg", "out", out, x.DType)
	switch x.DType {
	case Float32:
		o, s := out.F32, x.F32[:len(out.F32)]
		for i, v := range s {
			o[i] = -v
		}
	case Int64:
		o, s := out.I64, x.I64[:len(out.I64)]
		for i, v := range s {
			o[i] = -v
		}
	default:
		kernelPanic("Neg", "x: got dtype %v, want f32 or i64", x.DType)
	}
}

// Sqrt sets out = √x for float32 arrays.
//
//	out[i] = sqrt(x[i])
func Sqrt(out, x *Array) {
	checkUnary("Sqrt", out, x)
	checkDType("Sqrt", "x", x, Float32)
	unarySlice(unarySqrt, out.F32, x.F32)
}

func sqrtF32(v float32) float32 { return float32(math.Sqrt(float64(v))) }

// Convert sets out = x converted to out's dtype (bool → 0/1, float → int
// truncates toward zero, non-zero → true).
//
//	out[i] = T(x[i])
func Convert(out, x *Array) {
	checkUnary("Convert", out, x)
	n := out.Len()
	for i := 0; i < n; i++ {
		switch out.DType {
		case Float32:
			out.F32[i] = float32(x.At(i))
		case Int64:
			out.I64[i] = intAt(x, i)
		case Bool:
			out.B[i] = x.At(i) != 0
		}
	}
}

// Copy copies x into out; the two must have the same dtype and element count
// (their shapes may differ, as for a reshape).
//
//	out[i] = x[i]
func Copy(out, x *Array) {
	if out.Len() != x.Len() || out.DType != x.DType {
		kernelPanic("Copy", "cannot copy %v%v into %v%v", x.DType, x.Shape, out.DType, out.Shape)
	}
	copy(out.F32, x.F32)
	copy(out.I64, x.I64)
	copy(out.B, x.B)
}
