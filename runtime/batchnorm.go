// This file holds batch normalization in inference mode.

package runtime

import "math"

// BatchNorm sets out to x normalized per channel with the running
// statistics, as torch.nn.functional.batch_norm with training false: x and
// out are [N, C, ...], weight and bias are [C] or nil (scale 1, shift 0),
// mean and variance are [C]. It is one fused scale-and-shift pass per
// channel plane, with the scale computed in float64:
//
//	scale[c] = weight[c] / √(variance[c] + eps)
//	shift[c] = bias[c] - mean[c]·scale[c]
//	out[n, c, s] = x[n, c, s]·scale[c] + shift[c]
func BatchNorm(out, x, weight, bias, mean, variance *Array, eps float64) {
	const name = "BatchNorm"
	checkDType(name, "x", x, Float32)
	checkDType(name, "out", out, Float32)
	if len(x.Shape) < 2 {
		kernelPanic(name, "x shape %v, want [N, C, ...]", x.Shape)
	}
	if !equalInts(out.Shape, x.Shape) {
		kernelPanic(name, "out shape %v, want %v", out.Shape, x.Shape)
	}
	c := x.Shape[1]
	for _, p := range [...]struct {
		what     string
		a        *Array
		optional bool
	}{{"weight", weight, true}, {"bias", bias, true}, {"running_mean", mean, false}, {"running_var", variance, false}} {
		if p.a == nil {
			if !p.optional {
				kernelPanic(name, "%s is nil", p.what)
			}
			continue
		}
		checkDType(name, p.what, p.a, Float32)
		if len(p.a.Shape) != 1 || p.a.Shape[0] != c {
			kernelPanic(name, "%s shape %v, want [%d]", p.what, p.a.Shape, c)
		}
	}
	planes := NumElements(x.Shape[:2])
	size := NumElements(x.Shape[2:])
	if planes == 0 || size == 0 {
		return
	}
	g := batchNormJob{x: x.F32, out: out.F32, weight: weight, bias: bias, mean: mean.F32, variance: variance.F32, eps: eps, c: c, size: size}
	if serialPlanes(x.Len()) {
		g.planes(0, planes)
		return
	}
	runPooled(batchNormTasks, planes, g)
}

var batchNormTasks = taskPool((*batchNormJob).planes)

// batchNormJob is one BatchNorm call.
type batchNormJob struct {
	x, out, mean, variance []float32
	weight, bias           *Array
	eps                    float64
	c, size                int
}

// planes normalizes the channel planes [lo, hi) of x.
func (g *batchNormJob) planes(lo, hi int) {
	for pl := lo; pl < hi; pl++ {
		ch := pl % g.c
		s := 1 / math.Sqrt(float64(g.variance[ch])+g.eps)
		if g.weight != nil {
			s *= float64(g.weight.F32[ch])
		}
		t := -float64(g.mean[ch]) * s
		if g.bias != nil {
			t += float64(g.bias.F32[ch])
		}
		scale, shift := float32(s), float32(t)
		src := g.x[pl*g.size : (pl+1)*g.size]
		dst := g.out[pl*g.size : (pl+1)*g.size]
		for i, v := range src {
			dst[i] = v*scale + shift
		}
	}
}
