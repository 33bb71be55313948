package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refLogSoftmax is the log-softmax of x along dim in float64 (no shortcuts
// for special values: a -Inf max, NaN or +Inf give NaN).
func refLogSoftmax(x []float32, shape []int, dim int) []float64 {
	d, _ := NormalizeDim(dim, len(shape))
	size, inner := shape[d], NumElements(shape[d+1:])
	outer := NumElements(shape[:d])
	out := make([]float64, len(x))
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			at := func(j int) int { return (o*size+j)*inner + i }
			m := math.Inf(-1)
			nan := false
			for j := 0; j < size; j++ {
				v := float64(x[at(j)])
				nan = nan || v != v
				m = math.Max(m, v)
			}
			var sum float64
			for j := 0; j < size; j++ {
				sum += math.Exp(float64(x[at(j)]) - m)
			}
			lse := m + math.Log(sum)
			for j := 0; j < size; j++ {
				if nan || math.IsInf(m, 0) {
					out[at(j)] = math.NaN()
					continue
				}
				out[at(j)] = float64(x[at(j)]) - lse
			}
		}
	}
	return out
}

// TestLogSoftmaxMatchesReference checks LogSoftmax along the last dim
// (rows, serial and split over workers) and along inner dims (strided)
// against the float64 reference, with -Inf entries, all -Inf rows and NaN
// and +Inf rows; a result may be off by the float32 rounding of x and of
// the row's log-sum-exp.
func TestLogSoftmaxMatchesReference(t *testing.T) { forEachISA(t, testLogSoftmaxMatchesReference) }

func testLogSoftmaxMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 31))
	cases := []struct {
		shape []int
		dim   int
	}{{[]int{3, 37}, -1}, {[]int{3, 37}, 0}, {[]int{2, 5, 7}, 1}, {[]int{300, 40}, -1}, {[]int{1, 1}, -1}, {[]int{4, 9}, 1}}
	for _, c := range cases {
		x := NewArray(Float32, c.shape...)
		for i := range x.F32 {
			x.F32[i] = float32(rng.NormFloat64() * 8)
			if rng.IntN(15) == 0 {
				x.F32[i] = float32(math.Inf(-1))
			}
		}
		if c.dim == -1 && c.shape[0] >= 3 {
			row := c.shape[len(c.shape)-1]
			for j := 0; j < row; j++ {
				x.F32[j] = float32(math.Inf(-1)) // row 0: all -Inf
			}
			x.F32[row+1] = float32(math.NaN())    // row 1: a NaN
			x.F32[2*row+2] = float32(math.Inf(1)) // row 2: +Inf
		}
		out := NewArray(Float32, c.shape...)
		LogSoftmax(out, x, c.dim)
		want := refLogSoftmax(x.F32, c.shape, c.dim)
		for i, w := range want {
			got := float64(out.F32[i])
			if w != w || got != got {
				if (w != w) != (got != got) {
					t.Fatalf("%v dim %d: out[%d] = %v, want %v", c.shape, c.dim, i, got, w)
				}
				continue
			}
			if math.IsInf(w, 0) || math.IsInf(got, 0) {
				if w != got {
					t.Fatalf("%v dim %d: out[%d] = %v, want %v", c.shape, c.dim, i, got, w)
				}
				continue
			}
			lse := float64(x.F32[i]) - w
			if d := math.Abs(got - w); d > 2*ulp32(float32(math.Max(math.Abs(float64(x.F32[i])), math.Abs(lse))))+1e-6*math.Abs(w) {
				t.Fatalf("%v dim %d: out[%d] = %v, want %v", c.shape, c.dim, i, got, w)
			}
		}
	}
}

func TestLogSoftmaxScalarAndBadShape(t *testing.T) {
	out := NewArray(Float32)
	LogSoftmax(out, FromFloat32([]float32{3}), 0)
	if out.F32[0] != 0 {
		t.Errorf("log-softmax of one element = %v, want 0", out.F32[0])
	}
	defer func() {
		if recover() == nil {
			t.Error("LogSoftmax accepted out [3] for x [4]")
		}
	}()
	LogSoftmax(NewArray(Float32, 3), NewArray(Float32, 4), -1)
}
