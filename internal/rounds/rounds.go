// Package rounds summarises side-by-side benchmarks that time two systems
// in the same rounds: the median of each side and the median of the
// per-round ratios, which a machine whose speed drifts between rounds
// moves much less than a ratio of medians.
package rounds

import "slices"

// Median returns the median of x without reordering it (0 for no values).
func Median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	x = slices.Sorted(slices.Values(x))
	n := len(x)
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}

// MedianRatio returns the median over rounds r of x[r]/y[r]; x and y hold
// one value per round.
func MedianRatio(x, y []float64) float64 {
	return Median(Ratios(x, y))
}

// Ratios returns x[r]/y[r] for every round r, whose smallest and largest
// show how far the machine's drift moved a ratio.
func Ratios(x, y []float64) []float64 {
	q := make([]float64, len(x))
	for r := range x {
		q[r] = x[r] / y[r]
	}
	return q
}
