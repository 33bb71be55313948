// Package parity holds what the zoo's PyTorch parity tests add to
// fxgentest: the fixture of the package under test, loading or filling a
// model's weights as PyTorch's were, checking the state-dict names, and
// the parity tolerance.
//
// A model's fixtures live in example_models/<name>/testdata/:
// torch_io.safetensors holds the inputs and PyTorch's outputs by name and
// metadata (torch_version, weights, state_dict); torch_weights.safetensors
// holds PyTorch's weights when they are committed, otherwise both sides use
// the deterministic fill of testutil.FillStateDict.
package parity

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// Fixture is a torch_io.safetensors file: inputs and outputs by name, and
// the metadata the script recorded.
type Fixture struct{ *fxgentest.Fixture }

// Load reads testdata/torch_io.safetensors of the package under test.
func Load(t testing.TB) *Fixture {
	t.Helper()
	return &Fixture{fxgentest.ReadFixture(t, filepath.Join("testdata", "torch_io.safetensors"))}
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

// Tolerance is the tolerance of the parity tests: an absolute error of at
// most rel·max|want|.
func Tolerance(want *tensor.Tensor, rel float64) fxgentest.Tolerance {
	return fxgentest.Tolerance{Abs: rel * fxgentest.MaxAbs(want)}
}
