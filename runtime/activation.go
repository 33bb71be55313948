// This file holds the smooth activation kernels: sigmoid, SiLU, tanh, the
// exact (erf-based) GELU and its tanh approximation, with the fast exp and
// erfc they are built on.

package runtime

import (
	"math"
)

// Sigmoid sets out = 1/(1+exp(-x)) for float32 arrays.
//
//	out[i] = 1 / (1 + exp(-x[i]))
//
// It is computed in float64 with a polynomial exp; the result is within
// 1e-6 relative of the math.Exp-based reference (see the tests).
func Sigmoid(out, x *Array) {
	activation("Sigmoid", taskSigmoid, out, x)
}

// Tanh sets out = tanh(x) for float32 arrays.
//
//	out[i] = tanh(x[i])
//
// It is within 1e-6 relative of math.Tanh.
func Tanh(out, x *Array) {
	activation("Tanh", taskTanh, out, x)
}

// Gelu sets out to the exact GELU of x, x·Φ(x) with Φ the standard normal
// distribution function, for float32 arrays.
//
//	out[i] = 0.5 · x[i] · (1 + erf(x[i]/√2))
//
// It is within 1e-6 relative of the math.Erfc-based reference, also in the
// negative tail where 1 + erf(x/√2) cancels.
func Gelu(out, x *Array) {
	activation("Gelu", taskGelu, out, x)
}

// Silu sets out to the SiLU (swish) of x, x·sigmoid(x), for float32
// arrays.
//
//	out[i] = x[i] / (1 + exp(-x[i]))
//
// It is within 1e-6 relative of the math.Exp-based reference.
func Silu(out, x *Array) {
	activation("Silu", taskSilu, out, x)
}

// GeluTanh sets out to the tanh approximation of GELU of x (PyTorch's
// gelu(x, approximate="tanh")) for float32 arrays.
//
//	u = √(2/π) · (x[i] + 0.044715·x[i]³)
//	out[i] = 0.5 · x[i] · (1 + tanh(u))
//
// It is computed as x·sigmoid(2u), which equals it and does not cancel
// where tanh(u) is near -1, and is within 1e-6 relative of that formula
// evaluated with math.Exp.
func GeluTanh(out, x *Array) {
	activation("GeluTanh", taskGeluTanh, out, x)
}

// activation checks the operands of the activation kernel name and
// applies kind to x over the worker pool.
func activation(name string, kind int, out, x *Array) {
	checkUnary(name, out, x)
	checkDType(name, "x", x, Float32)
	checkDType(name, "out", out, Float32)
	parallelElementwise(out.F32, x.F32, kind)
}

// elementwiseGrain is the number of elements (or of row elements) a
// worker takes at a time; below two grains a kernel runs on the calling
// goroutine.
const elementwiseGrain = 1 << 12

// The work a seqJob does.
const (
	taskSigmoid = iota
	taskTanh
	taskGelu
	taskSoftmax
	taskLayerNorm
	taskSilu
	taskGeluTanh
	taskLogSoftmax
	taskExp
)

// seqJob is one parallel call of a sequence kernel: kind's work on units
// of out and x (elements, or rows of size), grain units per block.
type seqJob struct {
	kind        int
	out, x      []float32
	w, b        []float32
	size, grain int // row length and rows (or elements) per block
	eps         float64
}

var seqTasks = taskPool((*seqJob).do)

// run runs the job over units units, in blocks of grain on the worker pool.
func (t seqJob) run(units int) { runPooled(seqTasks, (units+t.grain-1)/t.grain, t) }

// do runs blocks lo..hi.
func (t *seqJob) do(lo, hi int) {
	switch t.kind {
	case taskSigmoid, taskTanh, taskGelu, taskSilu, taskGeluTanh, taskExp:
		a, b := lo*t.grain, min(hi*t.grain, len(t.out))
		activationF32(t.kind, t.out[a:b], t.x[a:b])
	case taskSoftmax, taskLogSoftmax:
		softmaxRows(t.out, t.x, t.size, lo*t.grain, min(hi*t.grain, len(t.out)/t.size), t.kind == taskLogSoftmax)
	case taskLayerNorm:
		layerNormRows(t.out, t.x, t.w, t.b, t.size, t.eps, lo*t.grain, min(hi*t.grain, len(t.out)/t.size))
	}
}

// parallelElementwise applies the activation kind to x in blocks over the
// worker pool.
func parallelElementwise(out, x []float32, kind int) {
	n := len(out)
	x = x[:n]
	if n < 2*elementwiseGrain {
		activationF32(kind, out, x)
		return
	}
	seqJob{kind: kind, out: out, x: x, grain: elementwiseGrain}.run(n)
}

// activationF32 applies the activation kind to x: with the vector kernels
// of the selected tier, else with the portable loop over its float64
// function.
func activationF32(kind int, out, x []float32) {
	if kind == taskExp {
		// Softmax's exponential kernel with no shift.
		if _, ok := expShiftVec(out, x, 0, false); ok {
			return
		}
	} else if activationVec(kind, out, x) {
		return
	}
	mapF64(out, x, activationF64[kind])
}

// activationF64 holds the float64 function of each activation kind, which
// the portable loops round to float32 (the vector kernels compute in
// float32, within the ulp budgets of activation_vec_test.go).
var activationF64 = [...]func(float64) float64{
	taskSigmoid:  sigmoidF64,
	taskTanh:     tanhF64,
	taskGelu:     geluF64,
	taskSilu:     siluF64,
	taskGeluTanh: geluTanhF64,
	taskExp:      expF64,
}

// The float32 loops convert a block at a time into a float64 buffer and
// back: converting inside the arithmetic loop makes CVTSS2SD's false
// dependency on its destination register chain the iterations together,
// which costs a factor of three.
const convBlock = 64

func toF64(dst []float64, src []float32) []float64 {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float64(v)
	}
	return dst
}

func fromF64(dst []float32, src []float64) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

// mapF64 sets out[i] = float32(f(float64(x[i]))), a block at a time.
func mapF64(out, x []float32, f func(float64) float64) {
	var buf [convBlock]float64
	for len(out) > 0 {
		b := toF64(buf[:], x[:min(len(out), convBlock)])
		for i, v := range b {
			b[i] = f(v)
		}
		fromF64(out, b)
		out, x = out[len(b):], x[len(b):]
	}
}

// Constants of expF64: x = (32·m + j)·ln2/32 + r, e^x = 2^m · 2^(j/32) · e^r.
const (
	expShifter = 0x1.8p52                        // adding it rounds to an integer held in the low mantissa bits
	invLn2x32  = 46.16624130844682               // 32/ln 2
	ln2x32Hi   = 6.93147180369123816490e-01 / 32 // ln2Hi/32: 32 significant bits, so k·ln2x32Hi is exact
	ln2x32Lo   = 1.90821492927058770002e-10 / 32 // (ln 2 - ln2Hi)/32
	expMax     = 709.0
	expMin     = -745.0
)

// exp2Table holds 2^(j/32) for j in [0, 32).
var exp2Table = func() (t [32]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / 32)
	}
	return t
}()

// expF64 is e^x with a relative error below 1e-11 (ample for float32
// results): x = k·ln2/32 + r with |r| ≤ ln2/64, k = 32·m + j, e^x =
// 2^m · 2^(j/32) · e^r with 2^(j/32) from a table and e^r from a degree-4
// Taylor polynomial. It returns 0 below -745 (and for -Inf), +Inf above
// 709 and NaN for NaN. The short dependency chain, with no division and no
// float-to-int conversion, is what makes it several times faster than
// math.Exp in the activation loops.
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
	kf := x*invLn2x32 + expShifter
	k := int64(math.Float64bits(kf) - math.Float64bits(expShifter)) // k sits in the low mantissa bits
	kf -= expShifter
	r := (x - kf*ln2x32Hi) - kf*ln2x32Lo
	r2 := r * r
	p := (1 + r) + r2*((1.0/2+r*(1.0/6))+r2*(1.0/24))
	p *= exp2Table[k&31]
	m := k >> 5
	if m < -1021 { // 2^m is subnormal: scale in two steps
		return p * math.Float64frombits(uint64(m+1021+1023)<<52) * 0x1p-1021
	}
	return p * math.Float64frombits(uint64(m+1023)<<52)
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
	// The degree-9 polynomial by Estrin's scheme: four levels of
	// dependent multiply-adds instead of nine.
	t2 := t * t
	t4 := t2 * t2
	p01 := -1.26551223 + t*1.00002368
	p23 := 0.37409196 + t*0.09678418
	p45 := -0.18628806 + t*0.27886807
	p67 := -1.13520398 + t*1.48851587
	p89 := -0.82215223 + t*0.17087277
	poly := -z*z + (p01 + t2*p23) + t4*((p45+t2*p67)+t4*p89)
	r := t * expF64(poly)
	if x < 0 {
		return 2 - r
	}
	return r
}

// sigmoidF64 is 1/(1+e^-x).
func sigmoidF64(x float64) float64 {
	return 1 / (1 + expF64(-x))
}

// siluF64 is x·sigmoid(x).
func siluF64(x float64) float64 {
	return x * sigmoidF64(x)
}

// The constants of the tanh approximation of GELU.
const (
	geluTanhCubic = 0.044715
	geluTanh2K    = 1.5957691216057308 // 2·√(2/π)
)

// geluTanhF64 is 0.5·x·(1+tanh(u)) with u = √(2/π)·x·(1+0.044715x²),
// computed as x·sigmoid(2u) (the vector kernels round the same steps).
func geluTanhF64(x float64) float64 {
	x2 := x * x
	u := x * (1 + x2*geluTanhCubic)
	return x * sigmoidF64(u*geluTanh2K)
}

// geluF64 is x·Φ(x) = x·erfc(-x/√2)/2.
func geluF64(x float64) float64 {
	return 0.5 * x * erfcF64(-x*(1/math.Sqrt2))
}
