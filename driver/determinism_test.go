// This file tests that Run refuses a Forward that does not trace the same
// way twice. Before the check, Run traced once and wrote whichever graph
// that trace gave (TestRunNondeterministic fails on that code: no error).

package driver

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tracer"
)

// flipFlop adds a ReLU on every other trace: package-level state, as a
// counter or a map's iteration order would be.
type flipFlop struct{ calls int }

var flipFlopLine int

func (m *flipFlop) Forward(x *tensor.Tensor) *tensor.Tensor {
	m.calls++
	y := x.MulScalar(2)
	if m.calls%2 == 0 {
		_, _, flipFlopLine, _ = runtime.Caller(0)
		y = y.Relu() // flipFlopLine+1
	}
	return y.Neg()
}

func TestRunNondeterministic(t *testing.T) {
	cfg := Config{Inputs: []string{"x=f32[N,4]"}, GraphFile: filepath.Join(t.TempDir(), "graph.json")}
	err := Run(&flipFlop{}, cfg)
	var te *tracer.TraceError
	if !errors.As(err, &te) {
		t.Fatalf("Run on a flip-flopping Forward: %v, want a *tracer.TraceError", err)
	}
	_, file, _, _ := runtime.Caller(0)
	if !strings.Contains(te.Msg, "does not trace the same way twice: node 2 is") || te.File != filepath.Base(file) {
		t.Errorf("trace error %v, want the first differing node (2) in %s", te, file)
	}
}

func TestCompareTracesSame(t *testing.T) {
	doc := []byte(`{"nodes":[{"op":"placeholder","name":"x","target":"x"}]}`)
	if err := compareTraces(doc, doc); err != nil {
		t.Errorf("compareTraces of equal documents: %v", err)
	}
	longer := []byte(`{"nodes":[{"op":"placeholder","name":"x","target":"x"},{"op":"output","name":"output","target":"output","pos":{"file":"m.go","line":7}}]}`)
	err := compareTraces(doc, longer)
	var te *tracer.TraceError
	if !errors.As(err, &te) || te.File != "m.go" || te.Line != 7 || !strings.Contains(te.Msg, "node 1 is missing in the first trace") {
		t.Errorf("compareTraces of a prefix: %v, want node 1 missing at m.go:7", err)
	}
}

// mapOrder adds one scaled copy of x per map entry, in map order: the
// ranging-over-a-map case of the issue.
type mapOrder struct{ scales map[string]float64 }

func (m *mapOrder) Forward(x *tensor.Tensor) *tensor.Tensor {
	y := x
	for _, s := range m.scales {
		y = y.Add(x.MulScalar(s))
	}
	return y
}

func TestRunMapOrder(t *testing.T) {
	scales := map[string]float64{}
	for i := range 16 {
		scales[string(rune('a'+i))] = float64(i + 2)
	}
	// Two traces see the same order with a probability of at most about
	// 1/8; ten runs all missing it is below 1e-9.
	for range 10 {
		cfg := Config{Inputs: []string{"x=f32[N,4]"}, GraphFile: filepath.Join(t.TempDir(), "graph.json")}
		err := Run(&mapOrder{scales: scales}, cfg)
		if err == nil {
			continue
		}
		var te *tracer.TraceError
		if !errors.As(err, &te) || !strings.Contains(te.Msg, "does not trace the same way twice: node ") || !strings.Contains(te.Msg, "Ranging over a map") {
			t.Fatalf("Run on a map-ordered Forward: %v, want the determinism error", err)
		}
		return
	}
	t.Fatal("ten runs over a map-ordered Forward were all accepted")
}
