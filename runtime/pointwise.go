// This file holds the portable pointwise kernels of the PyTorch surface:
// hardtanh, relu6, clamp, hardswish, hardsigmoid, exp, log, rsqrt, abs,
// and the broadcasting minimum, maximum and pow. They follow PyTorch's
// semantics, NaN propagation included.

package runtime

import "math"

// Hardtanh sets out = min(max(x, minVal), maxVal) for float32 arrays, as
// torch.nn.functional.hardtanh; NaN stays NaN. When minVal > maxVal every
// element is maxVal, as in PyTorch's clamp.
//
//	out[i] = x[i] < minVal ? minVal : x[i] > maxVal ? maxVal : x[i]
func Hardtanh(out, x *Array, minVal, maxVal float64) { clampF32("Hardtanh", out, x, minVal, maxVal) }

// Relu6 sets out = min(max(x, 0), 6) for float32 arrays: Hardtanh(x, 0, 6).
//
//	out[i] = x[i] < 0 ? 0 : x[i] > 6 ? 6 : x[i]
func Relu6(out, x *Array) { clampF32("Relu6", out, x, 0, 6) }

// Clamp sets out = min(max(x, min), max) for float32 arrays, as
// torch.clamp; NaN stays NaN, a NaN bound makes every element NaN, and
// when min > max every element is max. Pass ±Inf for an absent bound.
//
//	out[i] = x[i] < min ? min : x[i] > max ? max : x[i]
func Clamp(out, x *Array, min, max float64) { clampF32("Clamp", out, x, min, max) }

func clampF32(name string, out, x *Array, lo, hi float64) {
	checkUnary(name, out, x)
	checkDType(name, "x", x, Float32)
	checkDType(name, "out", out, Float32)
	o, s := out.F32, x.F32[:len(out.F32)]
	if math.IsNaN(lo) || math.IsNaN(hi) {
		nan := float32(math.NaN())
		for i := range o {
			o[i] = nan
		}
		return
	}
	clampSlice(o, s, float32(lo), float32(hi))
}

// clampSlice sets o[i] = min(max(s[i], l), h), NaN kept, with the tier's
// vector kernel where there is one.
func clampSlice(o, s []float32, l, h float32) {
	if clampVec(o, s, l, h) {
		return
	}
	for i, v := range s[:len(o)] {
		if v < l {
			v = l
		}
		if v > h {
			v = h
		}
		o[i] = v
	}
}

// Hardswish sets out = x·relu6(x+3)/6 for float32 arrays, as
// torch.nn.functional.hardswish, in float32 in that order.
//
//	out[i] = x[i] * min(max(x[i]+3, 0), 6) / 6
func Hardswish(out, x *Array) { unaryF32("Hardswish", out, x, unaryHardswish) }

func hardswishF32(v float32) float32 {
	r := v + 3
	if r < 0 {
		r = 0
	}
	if r > 6 {
		r = 6
	}
	return v * r / 6
}

// Hardsigmoid sets out = relu6(x+3)/6 for float32 arrays, as
// torch.nn.functional.hardsigmoid.
//
//	out[i] = min(max(x[i]+3, 0), 6) / 6
func Hardsigmoid(out, x *Array) { unaryF32("Hardsigmoid", out, x, unaryHardsigmoid) }

func hardsigmoidF32(v float32) float32 {
	r := v + 3
	if r < 0 {
		r = 0
	}
	if r > 6 {
		r = 6
	}
	return r / 6
}

// Exp sets out = e^x for float32 arrays, rounded from float64.
//
//	out[i] = exp(x[i])
func Exp(out, x *Array) {
	activation("Exp", taskExp, out, x)
}

// Log sets out = ln x for float32 arrays (-Inf at 0, NaN below).
//
//	out[i] = log(x[i])
func Log(out, x *Array) {
	mapF32("Log", out, x, logF32)
}

func logF32(v float32) float32 { return float32(math.Log(float64(v))) }

// Rsqrt sets out = 1/√x for float32 arrays (+Inf at 0, NaN below).
//
//	out[i] = 1 / sqrt(x[i])
func Rsqrt(out, x *Array) {
	mapF32("Rsqrt", out, x, rsqrtF32)
}

func rsqrtF32(v float32) float32 { return float32(1 / math.Sqrt(float64(v))) }

// Abs sets out = |x| for float32 or int64 arrays.
//
//	out[i] = |x[i]|
func Abs(out, x *Array) {
	checkUnary("Abs", out, x)
	checkDType("Abs", "out", out, x.DType)
	switch x.DType {
	case Float32:
		unarySlice(unaryAbs, out.F32, x.F32)
	case Int64:
		o, s := out.I64, x.I64[:len(out.I64)]
		for i, v := range s {
			if v < 0 {
				v = -v
			}
			o[i] = v
		}
	default:
		kernelPanic("Abs", "x: got dtype %v, want f32 or i64", x.DType)
	}
}

// mapF32 checks a float32 unary kernel's operands and sets out[i] = f(x[i]).
func mapF32(name string, out, x *Array, f func(float32) float32) {
	checkUnary(name, out, x)
	checkDType(name, "x", x, Float32)
	checkDType(name, "out", out, Float32)
	mapSlice(out.F32, x.F32, f)
}

// mapSlice sets o[i] = f(s[i]).
func mapSlice(o, s []float32, f func(float32) float32) {
	for i, v := range s[:len(o)] {
		o[i] = f(v)
	}
}

// absF32 clears the sign bit of v, NaN payloads kept, as the vector
// kernels do.
func absF32(v float32) float32 { return math.Float32frombits(math.Float32bits(v) &^ (1 << 31)) }

// unaryMap names a float32 map that has a vector kernel on the amd64
// tiers; unaryPortable holds each one's portable form.
type unaryMap int

const (
	unaryHardswish unaryMap = iota
	unaryHardsigmoid
	unaryAbs
	unarySqrt
	unaryMaps // how many
)

var unaryPortable = [unaryMaps]func(float32) float32{
	unaryHardswish: hardswishF32, unaryHardsigmoid: hardsigmoidF32, unaryAbs: absF32, unarySqrt: sqrtF32,
}

// unaryF32 checks a float32 map's arrays and runs it.
func unaryF32(name string, out, x *Array, m unaryMap) {
	checkUnary(name, out, x)
	checkDType(name, "x", x, Float32)
	checkDType(name, "out", out, Float32)
	unarySlice(m, out.F32, x.F32)
}

// unarySlice sets o[i] = m(s[i]) with the tier's kernel, or the portable
// map where there is none.
func unarySlice(m unaryMap, o, s []float32) {
	if unaryVec(m, o, s) {
		return
	}
	// Each case names its map, so that mapSlice inlines here with the
	// map inlined into its loop; through unaryPortable[m] it would call
	// the map per element (2–3× slower).
	switch m {
	case unaryHardswish:
		mapSlice(o, s, hardswishF32)
	case unaryHardsigmoid:
		mapSlice(o, s, hardsigmoidF32)
	case unaryAbs:
		mapSlice(o, s, absF32)
	case unarySqrt:
		mapSlice(o, s, sqrtF32)
	default:
		mapSlice(o, s, unaryPortable[m])
	}
}

// Minimum sets out = min(a, b) elementwise with broadcasting, as
// torch.minimum: NaN if either is NaN. out is float32 or int64; operands
// of another dtype are converted.
//
//	out[i] = isNaN(a[i]) || isNaN(b[i]) ? NaN : min(a[i], b[i])
func Minimum(out, a, b *Array) {
	pointwiseBinary("Minimum", out, a, b, func(x, y float64) float64 {
		if x != x || y != y {
			return math.NaN()
		}
		return min(x, y)
	}, func(x, y int64) int64 { return min(x, y) })
}

// Maximum sets out = max(a, b) elementwise with broadcasting, as
// torch.maximum: NaN if either is NaN.
//
//	out[i] = isNaN(a[i]) || isNaN(b[i]) ? NaN : max(a[i], b[i])
func Maximum(out, a, b *Array) {
	pointwiseBinary("Maximum", out, a, b, func(x, y float64) float64 {
		if x != x || y != y {
			return math.NaN()
		}
		return max(x, y)
	}, func(x, y int64) int64 { return max(x, y) })
}

// Pow sets the float32 array out = a^b elementwise with broadcasting, as
// torch.pow, computed in float64 (math.Pow's special cases: x^0 = 1 even
// for NaN, 1^y = 1).
//
//	out[i] = pow(a[i], b[i])
func Pow(out, a, b *Array) {
	checkDType("Pow", "out", out, Float32)
	pointwiseBinary("Pow", out, a, b, math.Pow, nil)
}

// pointwiseBinary checks the operands of a broadcasting binary kernel and
// sets out[i] = f(a[i], b[i]), computed in float64 for a float32 out and
// with fi for an int64 out.
func pointwiseBinary(name string, out, a, b *Array, f func(x, y float64) float64, fi func(x, y int64) int64) {
	if !broadcastsTo(a.Shape, b.Shape, out.Shape) {
		shape, err := BroadcastShapes(a.Shape, b.Shape)
		if err != nil {
			kernelPanic(name, "%v", err)
		}
		kernelPanic(name, "out shape %v, want %v", out.Shape, shape)
	}
	switch {
	case out.DType == Float32:
	case out.DType == Int64 && fi != nil:
	default:
		kernelPanic(name, "out: got dtype %v, want f32 or i64", out.DType)
	}
	n := out.Len()
	var buf walkBuf
	w := newBroadcastWalk(&buf, out.Shape, a.Shape, b.Shape)
	for i := 0; i < n; i++ {
		if out.DType == Int64 {
			out.I64[i] = fi(intAt(a, w.off[0]), intAt(b, w.off[1]))
		} else {
			out.F32[i] = float32(f(a.At(w.off[0]), b.At(w.off[1])))
		}
		w.step()
	}
}
