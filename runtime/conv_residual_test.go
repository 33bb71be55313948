// This file tests the residual convolution beyond checkConvAct's cases.

package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestConv2dResidualChunks checks Conv2dResidualPrepared against the
// unfused ops, bit for bit (a NaN in the residual included), with every
// activation, on 1, 2 and 3 workers: over a batch of small images
// computed in chunks (two images and one), and a batch of images too
// large to chunk (the residual added after them all, over the workers).
func TestConv2dResidualChunks(t *testing.T) { forEachISA(t, testConv2dResidualChunks) }

func testConv2dResidualChunks(t *testing.T) {
	splitSmallWork(t)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(41, 42))
	const n, c = 3, 64
	for _, tc := range []struct{ hw, chunk int }{{32, 2}, {48, 0}} {
		hw := tc.hw
		if chunk := convResidualChunk / (4 * c * hw * hw); chunk != tc.chunk {
			t.Fatalf("%d×%d: %d images a chunk, want %d", hw, hw, chunk, tc.chunk)
		}
		x, b, res := randArray(r, n, c, hw, hw), randArray(r, c), randArray(r, n, c, hw, hw)
		res.F32[5] = float32(math.NaN())
		f := PrepareConv2d(randArray(r, c, c, 3, 3), []int{1}, []int{1}, 1)
		for act := Activation(ActNone); act <= ActSiLU; act++ {
			want := NewArray(Float32, n, c, hw, hw)
			Conv2dPrepared(want, x, f, b, []int{1}, []int{1}, 1)
			sum := NewArray(Float32, n, c, hw, hw)
			Add(sum, want, res)
			want = actRef(sum, int(act))
			what := fmt.Sprintf("%d×%d act %d", hw, hw, act)
			got := convOnWorkers(t, what, []int{n, c, hw, hw}, func(_ int, out *Array) {
				Conv2dResidualPrepared(out, x, f, b, res, []int{1}, []int{1}, 1, int(act))
			})
			if i := sameBits(got.F32, want.F32); i >= 0 {
				t.Fatalf("%s: element %d is %v, unfused %v", what, i, got.F32[i], want.F32[i])
			}
		}
	}
}

// TestConv2dResidualPanics checks the residual's checks: its shape, and
// no memory shared with the output.
func TestConv2dResidualPanics(t *testing.T) {
	x, w := NewArray(Float32, 1, 2, 4, 4), NewArray(Float32, 3, 2, 3, 3)
	out := NewArray(Float32, 1, 3, 2, 2)
	for name, f := range map[string]func(){
		"residual shape":  func() { Conv2dResidual(out, x, w, nil, NewArray(Float32, 1, 3, 4), []int{1}, []int{0}, 1, 0) },
		"residual is out": func() { Conv2dResidual(out, x, w, nil, out, []int{1}, []int{0}, 1, 0) },
		"act":             func() { Conv2dResidual(out, x, w, nil, NewArray(Float32, 1, 3, 2, 2), []int{1}, []int{0}, 1, 9) },
		"nil filters": func() {
			Conv2dResidualPrepared(out, x, nil, nil, NewArray(Float32, 1, 3, 2, 2), []int{1}, []int{0}, 1, 0)
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestConv2dResidualDirect checks residual convolutions that the direct
// kernels compute, the residual added (and the ReLU applied) in their
// epilogue, against the unfused ops bit for bit, with every activation
// (those past ReLU are added after the kernels), on 1–3 workers: channels
// that fill the kernels' blocks and channels that end in a shifted block,
// rows of 16 pixels and more and rows of fewer (two rows a vector), partial
// column blocks, stride 2, and a NaN and infinities in the residual.
func TestConv2dResidualDirect(t *testing.T) { forEachISA(t, testConv2dResidualDirect) }

func testConv2dResidualDirect(t *testing.T) {
	splitSmallWork(t)
	defer SetWorkers(0)
	r := rand.New(rand.NewPCG(51, 52))
	for _, tc := range []struct{ n, c, o, hw, k, s, p int }{
		{2, 12, 16, 32, 3, 1, 1},
		{1, 16, 13, 19, 3, 1, 1},
		{3, 8, 24, 9, 3, 1, 1},
		{2, 16, 32, 21, 3, 2, 1},
		{1, 3, 16, 23, 7, 2, 3},
	} {
		oh := (tc.hw+2*tc.p-tc.k)/tc.s + 1
		x, b := randArray(r, tc.n, tc.c, tc.hw, tc.hw), randArray(r, tc.o)
		res := randArray(r, tc.n, tc.o, oh, oh)
		res.F32[3] = float32(math.NaN())
		res.F32[len(res.F32)/2] = float32(math.Inf(1))
		res.F32[len(res.F32)-1] = float32(math.Inf(-1))
		stride, padding := []int{tc.s}, []int{tc.p}
		f := PrepareConv2d(randArray(r, tc.o, tc.c, tc.k, tc.k), stride, padding, 1)
		if CurrentISA() >= ISAAVX2 {
			j := convJob{g: convGeom{n: tc.n, c: tc.c, h: tc.hw, w: tc.hw, o: tc.o, kh: tc.k, kw: tc.k,
				sh: tc.s, sw: tc.s, ph: tc.p, pw: tc.p, oh: oh, ow: oh, p: oh * oh}, groups: 1, filters: f}
			if path := j.path(tc.n); path != pathDirect {
				t.Fatalf("%+v: path %d, want the direct kernels", tc, path)
			}
		}
		shape := []int{tc.n, tc.o, oh, oh}
		for act := Activation(ActNone); act <= ActSiLU; act++ {
			want := NewArray(Float32, shape...)
			Conv2dPrepared(want, x, f, b, stride, padding, 1)
			sum := NewArray(Float32, shape...)
			Add(sum, want, res)
			want = actRef(sum, int(act))
			what := fmt.Sprintf("%+v act %d", tc, act)
			got := convOnWorkers(t, what, shape, func(_ int, out *Array) {
				Conv2dResidualPrepared(out, x, f, b, res, stride, padding, 1, int(act))
			})
			if i := sameBits(got.F32, want.F32); i >= 0 {
				t.Fatalf("%s: element %d is %v, unfused %v", what, i, got.F32[i], want.F32[i])
			}
		}
	}
}
