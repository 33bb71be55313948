package rounds

import (
	"fmt"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		in := append([]float64(nil), c.x...)
		if got := Median(c.x); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.x, got, c.want)
		}
		for i := range in {
			if in[i] != c.x[i] {
				t.Errorf("Median reordered its input: %v, was %v", c.x, in)
			}
		}
	}
}

func TestMedianRatioIsPerRound(t *testing.T) {
	// Per-round ratios 2, 1.2, 3: median 2, where the ratio of the
	// medians would be 12/10.
	x, y := []float64{10, 12, 30}, []float64{5, 10, 10}
	if got := MedianRatio(x, y); got != 2 {
		t.Errorf("MedianRatio = %v, want 2", got)
	}
}

func TestRatios(t *testing.T) {
	got := Ratios([]float64{10, 12, 30}, []float64{5, 10, 10})
	if len(got) != 3 || got[0] != 2 || got[1] != 1.2 || got[2] != 3 {
		t.Errorf("Ratios = %v, want [2 1.2 3]", got)
	}
}

func ExampleMedianRatio() {
	fxgen := []float64{10, 14, 11}   // ms per call, one value per round
	pytorch := []float64{15, 20, 16} // the same rounds
	fmt.Printf("%.2f\n", MedianRatio(pytorch, fxgen))
	// Output: 1.45
}
