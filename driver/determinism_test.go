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
