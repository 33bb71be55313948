// This file tests Run and the error report on small in-process models.

package driver

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

type tiny struct{ FC *nn.Linear }

func (m *tiny) Forward(x *tensor.Tensor, double bool) *tensor.Tensor {
	y := m.FC.Forward(x).Relu()
	if double {
		y = y.MulScalar(2)
	}
	return y
}

type dynamic struct{}

// dynamicLine is the line of the Item call in dynamic.Forward.
var dynamicLine int

func (m *dynamic) Forward(x *tensor.Tensor) *tensor.Tensor {
	_, _, dynamicLine, _ = runtime.Caller(0)
	if x.Sum().Item() > 0 { // dynamicLine+1
		return x.Relu()
	}
	return x
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{
		Inputs:    []string{"x=f32[N,4]"},
		Concrete:  []Arg{{Name: "double", Value: true}},
		GraphFile: filepath.Join(dir, "graph.json"),
	}
	if err := Run(&tiny{FC: nn.NewLinear(4, 3)}, cfg); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(cfg.GraphFile)
	if err != nil {
		t.Fatal(err)
	}
	g, err := ir.UnmarshalGraph(data)
	if err != nil {
		t.Fatal(err)
	}
	table := g.Tabular()
	for _, want := range []string{"placeholder", "call_module", "mul"} {
		if !strings.Contains(table, want) {
			t.Errorf("graph lacks %q:\n%s", want, table)
		}
	}
	if p := g.Params["fc.weight"]; p == nil || p.Value != nil || p.GoPath != "FC.Weight" {
		t.Errorf("fc.weight decodes as %+v, want the parameter by Go path, without its data", p)
	}
}

func TestRunTraceError(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{
		Inputs:    []string{"x=f32[N,4]"},
		GraphFile: filepath.Join(dir, "graph.json"),
		ErrorFile: filepath.Join(dir, "error.json"),
	}
	err := Run(&dynamic{}, cfg)
	var te *tracer.TraceError
	if !errors.As(err, &te) {
		t.Fatalf("Run on dynamic control flow: got %v, want a *tracer.TraceError", err)
	}
	_, file, _, _ := runtime.Caller(0)
	if te.File != file || te.Line != dynamicLine+1 {
		t.Errorf("trace error at %s:%d, want %s:%d", te.File, te.Line, file, dynamicLine+1)
	}
	if _, err := os.Stat(cfg.GraphFile); !os.IsNotExist(err) {
		t.Errorf("Run wrote %s despite the error", cfg.GraphFile)
	}

	// The command reads the JSON report.
	if err := report(nil, cfg.ErrorFile, err); err != nil {
		t.Fatal(err)
	}
	data, rerr := os.ReadFile(cfg.ErrorFile)
	if rerr != nil {
		t.Fatal(rerr)
	}
	var e Error
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	if e.File != te.File || e.Line != te.Line || e.Msg != te.Msg {
		t.Errorf("report wrote %+v, want %+v", e, *te)
	}

	// Without an error file, the report is the compiler-style line.
	var b bytes.Buffer
	if err := report(&b, "", err); err != nil {
		t.Fatal(err)
	}
	if want := te.Error() + "\n"; b.String() != want || !strings.Contains(want, ": tracer: ") {
		t.Errorf("report printed %q, want %q", b.String(), want)
	}
}

func TestRunBadInput(t *testing.T) {
	err := Run(&dynamic{}, Config{Inputs: []string{"x=f32"}, GraphFile: filepath.Join(t.TempDir(), "graph.json")})
	if err == nil || !strings.Contains(err.Error(), "x=f32") {
		t.Errorf("Run with a bad input spec: got %v, want an error naming it", err)
	}
}
