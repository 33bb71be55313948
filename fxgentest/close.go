// This file compares tensors within a tolerance and reports how they
// differ.

package fxgentest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// Tolerance bounds how far a float32 element got may be from want:
//
//	|got - want| ≤ Abs·scale + Rel·|want|
//
// where scale is 1, or max(1, max|want|) over the whole tensor when Scale
// is set, so that the bound follows the magnitude of the result rather
// than of each element (the right measure for deep models, whose small
// outputs carry the rounding of large intermediates). NaN matches NaN and
// an infinity the same infinity. Elements of other dtypes must be equal.
type Tolerance struct {
	Rel, Abs float64
	Scale    bool
}

// String prints the bound, as the reports show it.
func (tol Tolerance) String() string {
	abs := fmt.Sprintf("%g", tol.Abs)
	if tol.Scale {
		abs += "·max(1, max|want|)"
	}
	return fmt.Sprintf("|got-want| ≤ %s + %g·|want|", abs, tol.Rel)
}

// Report says how got differs from want; Compare makes it.
type Report struct {
	// Err is set when got and want cannot be compared element by element:
	// their dtypes or shapes differ.
	Err string
	// Shape is the shape both tensors have.
	Shape []int
	// Mismatches counts the elements outside the tolerance, of Elements.
	Mismatches, Elements int
	// MaxAbs is the greatest |got - want|, at the index MaxAbsAt (one
	// coordinate per dim); MaxRel the greatest |got - want| / |want|, at
	// MaxRelAt. First is the first element outside the tolerance.
	MaxAbs, MaxRel     float64
	MaxAbsAt, MaxRelAt []int
	First              []int
	// Got and Want are the values at MaxAbsAt, and at First when there are
	// mismatches.
	GotAtMaxAbs, WantAtMaxAbs float64
	GotAtFirst, WantAtFirst   float64
	Tolerance                 Tolerance
}

// OK reports whether got matched want.
func (r *Report) OK() bool { return r.Err == "" && r.Mismatches == 0 }

// String prints the report: one line when got matches, else the count of
// mismatches and where the greatest errors are.
func (r *Report) String() string {
	if r.Err != "" {
		return r.Err
	}
	var b strings.Builder
	if r.OK() {
		fmt.Fprintf(&b, "all %d elements within %v", r.Elements, r.Tolerance)
	} else {
		fmt.Fprintf(&b, "%d of %d elements (%.3g%%) differ beyond %v; first at %v: got %v, want %v",
			r.Mismatches, r.Elements, 100*float64(r.Mismatches)/float64(max(r.Elements, 1)), r.Tolerance, r.First, r.GotAtFirst, r.WantAtFirst)
	}
	if r.Elements > 0 {
		fmt.Fprintf(&b, "\n\tgreatest absolute error %.3g at %v (got %v, want %v)", r.MaxAbs, r.MaxAbsAt, r.GotAtMaxAbs, r.WantAtMaxAbs)
		fmt.Fprintf(&b, "\n\tgreatest relative error %.3g at %v", r.MaxRel, r.MaxRelAt)
	}
	return b.String()
}

// Compare compares got with want under tol and reports the differences.
func Compare(got, want *tensor.Tensor, tol Tolerance) *Report {
	r := &Report{Tolerance: tol}
	if got == nil || want == nil {
		r.Err = fmt.Sprintf("got %v, want %v", describe(got), describe(want))
		return r
	}
	g, w := got.Array(), want.Array()
	if g.DType != w.DType || !slices.Equal(g.Shape, w.Shape) {
		r.Err = fmt.Sprintf("got %v%v, want %v%v", g.DType, g.Shape, w.DType, w.Shape)
		return r
	}
	r.Shape, r.Elements = w.Shape, w.Len()
	exact := w.DType != runtime.Float32
	bound := tol.Abs
	if tol.Scale {
		bound *= max(1, MaxAbs(want))
	}
	maxAbs, maxRel, first := -1, -1, -1
	for i := range r.Elements {
		a, b := g.At(i), w.At(i)
		var d float64
		switch {
		case a == b, math.IsNaN(a) && math.IsNaN(b):
		case math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0):
			d = math.Inf(1)
		default:
			d = math.Abs(a - b)
		}
		rel := d / math.Abs(b)
		if d == 0 {
			rel = 0
		}
		if maxAbs < 0 || d > r.MaxAbs {
			r.MaxAbs, maxAbs = d, i
		}
		if maxRel < 0 || rel > r.MaxRel {
			r.MaxRel, maxRel = rel, i
		}
		if d > 0 && (exact || math.IsInf(d, 0) || !(d <= bound+tol.Rel*math.Abs(b))) {
			r.Mismatches++
			if first < 0 {
				first = i
			}
		}
	}
	if maxAbs >= 0 {
		r.MaxAbsAt, r.MaxRelAt = index(w.Shape, maxAbs), index(w.Shape, maxRel)
		r.GotAtMaxAbs, r.WantAtMaxAbs = g.At(maxAbs), w.At(maxAbs)
	}
	if first >= 0 {
		r.First = index(w.Shape, first)
		r.GotAtFirst, r.WantAtFirst = g.At(first), w.At(first)
	}
	return r
}

func describe(t *tensor.Tensor) string {
	if t == nil {
		return "nil"
	}
	a := t.Array()
	return fmt.Sprintf("%v%v", a.DType, a.Shape)
}

// index converts a flat row-major offset to coordinates.
func index(shape []int, flat int) []int {
	at := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] > 0 {
			at[d] = flat % shape[d]
			flat /= shape[d]
		}
	}
	return at
}

// MaxAbs returns the greatest magnitude of t's elements (0 for an empty
// tensor).
func MaxAbs(t *tensor.Tensor) float64 {
	a := t.Array()
	m := 0.0
	for i := range a.Len() {
		m = math.Max(m, math.Abs(a.At(i)))
	}
	return m
}

// AllClose compares got with want under tol and fails the test with the
// report, prefixed by name, when they differ; when they match, it logs the
// report (shown by go test -v). It returns whether they matched.
func AllClose(t testing.TB, name string, got, want *tensor.Tensor, tol Tolerance) bool {
	t.Helper()
	r := Compare(got, want, tol)
	if !r.OK() {
		t.Errorf("%s: %v", name, r)
	} else {
		t.Logf("%s: %v", name, r)
	}
	return r.OK()
}
