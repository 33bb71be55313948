// Package parity holds the helpers of the PyTorch parity tests: reading the
// fixtures that scripts/torch_reference.py writes, loading or filling a
// model's weights as PyTorch's were, and comparing outputs.
//
// A model's fixtures live in example_models/<name>/testdata/:
// torch_io.safetensors holds the inputs and PyTorch's outputs by name and
// metadata (torch_version, weights, state_dict); torch_weights.safetensors
// holds PyTorch's weights when they are committed, otherwise both sides use
// the deterministic fill of testutil.FillStateDict.
package parity

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// Fixture is a torch_io.safetensors file: inputs and outputs by name, and
// the metadata the script recorded.
type Fixture struct {
	Tensors map[string]*tensor.Tensor
	Meta    map[string]string
}

// Load reads testdata/torch_io.safetensors of the package under test.
func Load(t testing.TB) *Fixture {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "torch_io.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	tensors, meta, err := nn.DecodeSafetensors(data)
	if err != nil {
		t.Fatal(err)
	}
	return &Fixture{Tensors: tensors, Meta: meta}
}

// Tensor returns the fixture's tensor with the name, failing the test when
// there is none.
func (f *Fixture) Tensor(t testing.TB, name string) *tensor.Tensor {
	t.Helper()
	x, ok := f.Tensors[name]
	if !ok {
		t.Fatalf("torch_io.safetensors has no tensor %q", name)
	}
	return x
}

// Prepare gives m PyTorch's weights: it checks that m's state-dict names
// and shapes are exactly those of the PyTorch model, then loads
// testdata/torch_weights.safetensors strictly, or fills m with
// testutil.FillStateDict when the script filled the PyTorch model.
func (f *Fixture) Prepare(t testing.TB, m any) {
	t.Helper()
	f.CheckNames(t, m)
	switch w := f.Meta["weights"]; w {
	case "torch_weights.safetensors":
		r, err := os.Open(filepath.Join("testdata", w))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if err := nn.LoadSafetensors(r, m); err != nil {
			t.Fatalf("loading PyTorch's weights: %v", err)
		}
	case "internal/testutil.FillStateDict":
		testutil.FillStateDict(nn.StateDict(m))
	default:
		t.Fatalf("torch_io.safetensors: unknown weights %q", w)
	}
}

// CheckNames compares m's state-dict names and shapes with the PyTorch
// model's, recorded in the fixture's metadata, and reports every
// difference.
func (f *Fixture) CheckNames(t testing.TB, m any) {
	t.Helper()
	var want map[string][]int
	if err := json.Unmarshal([]byte(f.Meta["state_dict"]), &want); err != nil {
		t.Fatalf("torch_io.safetensors: metadata state_dict: %v", err)
	}
	got := map[string][]int{}
	for name, x := range nn.StateDict(m) {
		got[name] = x.Shape()
	}
	var names []string
	for name := range want {
		names = append(names, name)
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		g, inGo := got[name]
		w, inTorch := want[name]
		switch {
		case !inGo:
			t.Errorf("state dict: PyTorch has %s %v, the Go model has not", name, w)
		case !inTorch:
			t.Errorf("state dict: the Go model has %s %v, PyTorch has not", name, g)
		case !slices.Equal(g, w):
			t.Errorf("state dict: %s: got shape %v, PyTorch has %v", name, g, w)
		}
	}
}

// Compare checks got against PyTorch's want: float32 tensors within
// tol·max|want| in max abs error, other dtypes exactly. It logs the error
// and returns it (0 for exact dtypes).
func Compare(t testing.TB, label string, got, want *tensor.Tensor, tol float64) float64 {
	t.Helper()
	g, w := got.Array(), want.Array()
	if g.DType != w.DType || !slices.Equal(g.Shape, w.Shape) {
		t.Errorf("%s: got %v%v, want %v%v", label, g.DType, g.Shape, w.DType, w.Shape)
		return math.Inf(1)
	}
	if g.DType != runtime.Float32 {
		for i := 0; i < w.Len(); i++ {
			if g.At(i) != w.At(i) {
				t.Errorf("%s: element %d: got %v, want %v", label, i, g.At(i), w.At(i))
				return math.Inf(1)
			}
		}
		t.Logf("%s: exact", label)
		return 0
	}
	maxErr, maxWant, at := 0.0, 0.0, 0
	for i := range w.F32 {
		a, b := float64(g.F32[i]), float64(w.F32[i])
		maxWant = math.Max(maxWant, math.Abs(b))
		if d := math.Abs(a - b); d > maxErr || math.IsNaN(d) {
			maxErr, at = d, i
			if math.IsNaN(d) {
				break
			}
		}
	}
	msg := fmt.Sprintf("%s: max abs error %.3g at element %d (got %v, want %v), max|want| %.3g, relative %.3g", label, maxErr, at, g.F32[at], w.F32[at], maxWant, maxErr/maxWant)
	if !(maxErr <= tol*maxWant) {
		t.Errorf("%s; tolerance %g·max|want|", msg, tol)
	} else {
		t.Log(msg)
	}
	return maxErr
}
