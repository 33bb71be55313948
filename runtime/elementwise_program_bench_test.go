package runtime

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// BenchmarkElementwiseProgram compares a fused program with the same ops as
// separate kernel calls: an LSTM cell's gates ([N, 256] each) and
// attention's scale, mask and softmax ([8, 4, 128, 128]).
func BenchmarkElementwiseProgram(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 64, 1024} {
		g0, g1, g2, c := randArray(r, n, 256), randArray(r, n, 256), randArray(r, n, 256), randArray(r, n, 256)
		p := NewElementwiseProgram(4, []ElementwiseStep{
			{Op: ElemSigmoid, A: 0}, {Op: ElemSigmoid, A: 1}, {Op: ElemTanh, A: 2},
			{Op: ElemMul, A: 5, B: 3}, {Op: ElemMul, A: 4, B: 6}, {Op: ElemAdd, A: 7, B: 8},
		})
		out := NewArray(Float32, n, 256)
		ins := []*Array{g0, g1, g2, c}
		b.Run("lstm/fused/N="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(5 * 4 * out.Len()))
			for b.Loop() {
				p.Run(out, ins)
			}
		})
		t := [5]*Array{}
		for i := range t {
			t[i] = NewArray(Float32, n, 256)
		}
		b.Run("lstm/kernels/N="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(5 * 4 * out.Len()))
			for b.Loop() {
				Sigmoid(t[0], g0)
				Sigmoid(t[1], g1)
				Tanh(t[2], g2)
				Mul(t[3], t[1], c)
				Mul(t[4], t[0], t[2])
				Add(out, t[3], t[4])
			}
		})
	}
	x := randArray(r, 8, 4, 128, 128)
	mask := NewArray(Bool, 128, 128)
	for i := 0; i < 128; i++ {
		for k := i + 1; k < 128; k++ {
			mask.B[i*128+k] = true
		}
	}
	p := NewElementwiseProgram(2, []ElementwiseStep{{Op: ElemDivScalar, A: 0, C: 8}, {Op: ElemMaskedFill, A: 2, B: 1, C: float32(math.Inf(-1))}})
	out, t0, t1 := NewArray(Float32, x.Shape...), NewArray(Float32, x.Shape...), NewArray(Float32, x.Shape...)
	eight := Float32Scalar(8)
	b.Run("attention/fused-softmax", func(b *testing.B) {
		b.SetBytes(int64(2 * 4 * x.Len()))
		for b.Loop() {
			p.RunSoftmax(out, []*Array{x, mask})
		}
	})
	b.Run("attention/kernels", func(b *testing.B) {
		b.SetBytes(int64(2 * 4 * x.Len()))
		for b.Loop() {
			Div(t0, x, eight)
			MaskedFill(t1, t0, mask, math.Inf(-1))
			Softmax(out, t1, -1)
		}
	})
}
