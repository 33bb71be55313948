package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMatmulTransB checks MatmulTransB against Matmul of the transposed
// operand and against a float64 loop, with broadcast batch dimensions,
// m = 1 and sizes off the tile sizes, on every tier.
func TestMatmulTransB(t *testing.T) { forEachISA(t, testMatmulTransB) }

func testMatmulTransB(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, c := range []struct {
		ba, bb  []int
		m, k, n int
	}{
		{nil, nil, 1, 5, 3},
		{[]int{2}, []int{2}, 7, 13, 9},
		{[]int{3, 1}, []int{1, 2}, 4, 64, 33},
		{[]int{2, 4}, []int{2, 4}, 128, 64, 128},
		{[]int{1}, []int{3}, 1, 17, 40},
	} {
		a := randArray(r, append(append([]int{}, c.ba...), c.m, c.k)...)
		b := randArray(r, append(append([]int{}, c.bb...), c.n, c.k)...)
		a.F32[0] = float32(math.NaN())
		batch, err := BroadcastShapes(c.ba, c.bb)
		if err != nil {
			t.Fatal(err)
		}
		outShape := append(append([]int{}, batch...), c.m, c.n)
		got, want := NewArray(Float32, outShape...), NewArray(Float32, outShape...)
		MatmulTransB(got, a, b)
		bt := NewArray(Float32, append(append([]int{}, c.bb...), c.k, c.n)...)
		Transpose(bt, b, -2, -1)
		Matmul(want, a, bt)
		for i := range want.F32 {
			g, w := float64(got.F32[i]), float64(want.F32[i])
			if !(math.IsNaN(g) && math.IsNaN(w)) && math.Abs(g-w) > 1e-5*float64(c.k) {
				t.Fatalf("%+v: element %d: got %v, Matmul of the transpose %v", c, i, g, w)
			}
		}
		// One batch item against the loop.
		for i := 0; i < c.m; i++ {
			for j := 0; j < c.n; j++ {
				s := 0.0
				for p := 0; p < c.k; p++ {
					s += float64(a.F32[i*c.k+p]) * float64(b.F32[j*c.k+p])
				}
				g := float64(got.F32[i*c.n+j])
				if !(math.IsNaN(g) && math.IsNaN(s)) && math.Abs(g-s) > 1e-5*float64(c.k) {
					t.Fatalf("%+v: out[0, %d, %d] = %v, want %v", c, i, j, g, s)
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Errorf("MatmulTransB with mismatched inner dims did not panic")
		}
	}()
	MatmulTransB(NewArray(Float32, 2, 2), NewArray(Float32, 2, 3), NewArray(Float32, 2, 4))
}
