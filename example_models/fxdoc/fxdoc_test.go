package fxdoc

import (
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
)

// tolerance bounds |compiled - eager| relative to max(1, max|eager|): both
// run the same runtime kernels. Indices must match exactly.
const tolerance = 1e-6

func TestCompiledMatchesEager(t *testing.T) {
	m := NewFXDoc()
	c := NewFXDocCompiled(m)
	for _, n := range []int{1, 7} {
		x := testutil.RandFloat32(uint64(n), n, 5, 4)
		gv, gi := c.Forward(x)
		wv, wi := m.Forward(x)
		if err := testutil.Close(gv, wv, tolerance); err != nil {
			t.Errorf("N=%d values: %v", n, err)
		}
		if err := testutil.Close(gi, wi, 0); err != nil {
			t.Errorf("N=%d indices: %v", n, err)
		}
	}
}

func BenchmarkForward(b *testing.B) {
	m := NewFXDoc()
	c := NewFXDocCompiled(m)
	for _, n := range []int{1, 1024} {
		x := testutil.RandFloat32(1, n, 5, 4)
		testutil.BenchForward(b, n, 0, func() { m.Forward(x) }, func() { c.Forward(x) })
	}
}
