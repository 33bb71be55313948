// This file holds the smooth activation kernels: sigmoid, tanh and the exact
// (erf-based) GELU, with the fast exp and erfc they are built on.

package runtime

import "math"

// Sigmoid sets out = 1/(1+exp(-x)) for float32 arrays.
//
//	out[i] = 1 / (1 + exp(-x[i]))
//
// It is computed in float64 with a polynomial exp; the result is within
// 1e-6 relative of the math.Exp-based reference (see the tests).
func Sigmoid(out, x *Array) {
	checkUnary("Sigmoid", out, x)
	checkDType("Sigmoid", "x", x, Float32)
	checkDType("Sigmoid", "out", out, Float32)
	parallelElementwise(out.F32, x.F32, sigmoidF32)
}

// Tanh sets out = tanh(x) for float32 arrays.
//
//	out[i] = tanh(x[i])
//
// It is within 1e-6 relative of math.Tanh.
func Tanh(out, x *Array) {
	checkUnary("Tanh", out, x)
	checkDType("Tanh", "x", x, Float32)
	checkDType("Tanh", "out", out, Float32)
	parallelElementwise(out.F32, x.F32, tanhF32)
}

// Gelu sets out to the exact GELU of x, x·Φ(x) with Φ the standard normal
// distribution function, for float32 arrays.
//
//	out[i] = 0.5 · x[i] · (1 + erf(x[i]/√2))
//
// It is within 1e-6 relative of the math.Erfc-based reference, also in the
// negative tail where 1 + erf(x/√2) cancels.
func Gelu(out, x *Array) {
	checkUnary("Gelu", out, x)
	checkDType("Gelu", "x", x, Float32)
	checkDType("Gelu", "out", out, Float32)
	parallelElementwise(out.F32, x.F32, geluF32)
}

// elementwiseGrain is the number of elements below which an elementwise
// kernel runs on the calling goroutine.
const elementwiseGrain = 1 << 14

// parallelElementwise applies the slice function f to x in chunks over the
// worker pool; f runs a plain loop, so its body is inlined and unrolled by
// the compiler instead of being called per element.
func parallelElementwise(out, x []float32, f func(out, x []float32)) {
	n := len(out)
	x = x[:n]
	if n < 2*elementwiseGrain {
		f(out, x)
		return
	}
	blocks := (n + elementwiseGrain - 1) / elementwiseGrain
	Parallel(blocks, func(lo, hi int) {
		a, b := lo*elementwiseGrain, min(hi*elementwiseGrain, n)
		f(out[a:b], x[a:b])
	})
}

func sigmoidF32(out, x []float32) {
	x = x[:len(out)]
	for i, v := range x {
		out[i] = float32(1 / (1 + expF64(-float64(v))))
	}
}

func tanhF32(out, x []float32) {
	x = x[:len(out)]
	for i, v := range x {
		out[i] = float32(tanhF64(float64(v)))
	}
}

func geluF32(out, x []float32) {
	x = x[:len(out)]
	for i, v := range x {
		out[i] = float32(geluF64(float64(v)))
	}
}

// Constants of expF64.
const (
	log2e  = 1.4426950408889634
	ln2Hi  = 6.93147180369123816490e-01 // ln 2 in its top 32 bits, so k·ln2Hi is exact
	ln2Lo  = 1.90821492927058770002e-10 // ln 2 - ln2Hi
	expMax = 709.0
	expMin = -745.0
)

// expF64 is e^x with a relative error below 1e-11 (ample for float32
// results): x = k·ln2 + r with |r| ≤ ln2/2, e^r by a degree-9 Taylor
// polynomial, scaled by 2^k in the
// exponent bits. It returns 0 below -745 (and for -Inf), +Inf above 709
// and NaN for NaN.
func expF64(x float64) float64 {
	if !(x > expMin) {
		if x != x {
			return x
		}
		return 0
	}
	if x > expMax {
		return math.Inf(1)
	}
	k := math.Floor(x*log2e + 0.5)
	r := (x - k*ln2Hi) - k*ln2Lo
	p := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720+r*(1.0/5040+
		r*(1.0/40320+r*(1.0/362880)))))))))
	ki := int64(k)
	if ki < -1020 { // 2^k is subnormal: scale in two steps
		return p * math.Float64frombits(uint64(ki+1020+1023)<<52) * 0x1p-1020
	}
	return p * math.Float64frombits(uint64(ki+1023)<<52)
}

// tanhF64 is tanh(x) = 1 - 2/(1+e^{2x}) for |x| ≥ 2^-7 (the cancellation
// costs at most 2^8 of float64's 2^-52), and its Taylor series below.
func tanhF64(x float64) float64 {
	ax := math.Abs(x)
	if ax < 0x1p-7 {
		x2 := x * x
		return x * (1 + x2*(-1.0/3+x2*(2.0/15+x2*(-17.0/315))))
	}
	if ax > 20 {
		return math.Copysign(1, x)
	}
	t := 1 - 2/(1+expF64(2*ax))
	return math.Copysign(t, x)
}

// erfcF64 is the complementary error function with a relative error below
// 1.2e-7 everywhere: the Chebyshev fit of erfc(z)·e^{z²} in t = 1/(1+z/2)
// of Numerical Recipes (erfcc), with erfc(-z) = 2 - erfc(z).
func erfcF64(x float64) float64 {
	z := math.Abs(x)
	t := 1 / (1 + 0.5*z)
	poly := -z*z - 1.26551223 + t*(1.00002368+t*(0.37409196+t*(0.09678418+
		t*(-0.18628806+t*(0.27886807+t*(-1.13520398+t*(1.48851587+
			t*(-0.82215223+t*0.17087277))))))))
	r := t * expF64(poly)
	if x < 0 {
		return 2 - r
	}
	return r
}

// geluF64 is x·Φ(x) = x·erfc(-x/√2)/2.
func geluF64(x float64) float64 {
	return 0.5 * x * erfcF64(-x*(1/math.Sqrt2))
}
