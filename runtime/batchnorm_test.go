package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// batchNormRef is the textbook form (x - mean)/√(var + eps)·weight + bias.
func batchNormRef(x, weight, bias, mean, variance *Array, eps float64) *Array {
	out := NewArray(Float32, x.Shape...)
	c := x.Shape[1]
	size := NumElements(x.Shape[2:])
	for i := range x.F32 {
		ch := i / size % c
		v := (float64(x.F32[i]) - float64(mean.F32[ch])) / math.Sqrt(float64(variance.F32[ch])+eps)
		if weight != nil {
			v *= float64(weight.F32[ch])
		}
		if bias != nil {
			v += float64(bias.F32[ch])
		}
		out.F32[i] = float32(v)
	}
	return out
}

func TestBatchNormAgainstReference(t *testing.T) { forEachISA(t, testBatchNormAgainstReference) }

func testBatchNormAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, c := range []struct {
		shape  []int
		affine bool
		eps    float64
	}{
		{[]int{1, 1, 1, 1}, true, 1e-5},
		{[]int{2, 3, 4, 5}, true, 1e-5},
		{[]int{2, 3, 4, 5}, false, 1e-3},
		{[]int{4, 7}, true, 1e-5},               // BatchNorm1d shape
		{[]int{3, 2, 5}, true, 0.1},             // [N, C, L]
		{[]int{2, 64, 56, 56}, true, 1e-5},      // parallel
		{[]int{0, 3, 4, 4}, true, 1e-5},         // empty batch
		{[]int{1, 16, 1, 1}, true, 1e-5},        // 1×1 planes
		{[]int{2, 5, 3, 3, 3}, false, 1e-5},     // 3-D
		{[]int{5, 2, 9, 1}, true, 0},            // eps 0
		{[]int{1, 128, 28, 28}, false, 1e-5},    // no affine, parallel
		{[]int{3, 9, 11, 13}, true, 1e-5},       // odd sizes
		{[]int{1, 512, 7, 7}, true, 1e-5},       // ResNet-18 layer4
		{[]int{64, 16, 32, 32}, true, 1e-5},     // ResNet-20 layer1 at its batch
		{[]int{2, 1, 2, 2}, true, math.Inf(1)},  // infinite eps gives the bias
		{[]int{3, 3, 3, 3}, false, 1e-5 + 1e-6}, // eps not a round number
	} {
		ch := c.shape[1]
		x := randArray(r, c.shape...)
		mean := randArray(r, ch)
		variance := randArray(r, ch)
		for i := range variance.F32 {
			variance.F32[i] = variance.F32[i]*variance.F32[i] + 0.5
		}
		var weight, bias *Array
		if c.affine {
			weight, bias = randArray(r, ch), randArray(r, ch)
		}
		want := batchNormRef(x, weight, bias, mean, variance, c.eps)
		got := nanArray(c.shape...)
		BatchNorm(got, x, weight, bias, mean, variance, c.eps)
		if err := closeArrays(got, want, 1e-5); err != nil {
			t.Fatalf("BatchNorm x%v affine %v eps %v: %v", c.shape, c.affine, c.eps, err)
		}
	}
}

func TestBatchNormChecks(t *testing.T) { forEachISA(t, testBatchNormChecks) }

func testBatchNormChecks(t *testing.T) {
	x, p := NewArray(Float32, 2, 3, 4, 4), NewArray(Float32, 3)
	for _, c := range []struct {
		name string
		call func()
	}{
		{"bad out", func() { BatchNorm(NewArray(Float32, 2, 3, 4, 5), x, p, p, p, p, 1e-5) }},
		{"bad weight", func() { BatchNorm(NewArray(Float32, 2, 3, 4, 4), x, NewArray(Float32, 4), p, p, p, 1e-5) }},
		{"nil mean", func() { BatchNorm(NewArray(Float32, 2, 3, 4, 4), x, p, p, nil, p, 1e-5) }},
		{"rank 1", func() { BatchNorm(NewArray(Float32, 3), NewArray(Float32, 3), p, p, p, p, 1e-5) }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", c.name)
				}
			}()
			c.call()
		}()
	}
}

func TestBatchNormAllocs(t *testing.T) { forEachISA(t, testBatchNormAllocs) }

func testBatchNormAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	r := rand.New(rand.NewPCG(1, 1))
	for _, c := range [...]int{4, 400} { // serial, parallel
		x, p := randArray(r, 2, c, 9, 9), randArray(r, c)
		out := NewArray(Float32, 2, c, 9, 9)
		BatchNorm(out, x, p, p, p, p, 1e-5)
		if n := testing.AllocsPerRun(10, func() { BatchNorm(out, x, p, p, p, p, 1e-5) }); n != 0 {
			t.Errorf("BatchNorm x%v allocates %v times per call, want 0", x.Shape, n)
		}
	}
}
