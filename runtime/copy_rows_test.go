package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCopyRows checks copyRows on every tier against a copy per row, bit
// for bit (NaN payloads included): rows of 1 to 40 floats (under a vector,
// whole vectors and a last vector that overlaps), 1 to 4 rows, strides
// past the row, and guard values around every row that must stay.
func TestCopyRows(t *testing.T) { forEachISA(t, testCopyRows) }

func testCopyRows(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	const guard = -777
	for n := 1; n <= 40; n++ {
		for rows := 1; rows <= 4; rows++ {
			srcStride, dstStride := n+r.IntN(5), n+1+r.IntN(9)
			src := make([]float32, rows*srcStride)
			for i := range src {
				src[i] = math.Float32frombits(r.Uint32())
			}
			got := make([]float32, rows*dstStride+3)
			for i := range got {
				got[i] = guard
			}
			want := append([]float32(nil), got...)
			copyRows(got[1:], dstStride, src, srcStride, rows, n)
			for row := range rows {
				copy(want[1+row*dstStride:1+row*dstStride+n], src[row*srcStride:])
			}
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("n %d, rows %d, strides %d/%d: element %d is %#x, want %#x", n, rows, dstStride, srcStride, i, math.Float32bits(got[i]), math.Float32bits(want[i]))
				}
			}
		}
	}
}
