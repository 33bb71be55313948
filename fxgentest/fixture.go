// This file loads tensors that PyTorch saved in safetensors files.

package fxgentest

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// Fixture is a safetensors file of named tensors, such as the inputs and
// outputs of a PyTorch model saved by safetensors.torch.save_file, and the
// file's metadata.
type Fixture struct {
	Path    string
	Tensors map[string]*tensor.Tensor
	Meta    map[string]string
}

// LoadFixture reads the safetensors file at path.
func LoadFixture(path string) (*Fixture, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("fxgentest: %v", err)
	}
	tensors, meta, err := nn.DecodeSafetensors(data)
	if err != nil {
		return nil, fmt.Errorf("fxgentest: %s: %v", path, err)
	}
	return &Fixture{Path: path, Tensors: tensors, Meta: meta}, nil
}

// ReadFixture is LoadFixture that fails the test on error.
func ReadFixture(t testing.TB, path string) *Fixture {
	t.Helper()
	f, err := LoadFixture(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Tensor returns the fixture's tensor named name, failing the test, with
// the names the file has, when there is none.
func (f *Fixture) Tensor(t testing.TB, name string) *tensor.Tensor {
	t.Helper()
	x, ok := f.Tensors[name]
	if !ok {
		names := make([]string, 0, len(f.Tensors))
		for n := range f.Tensors {
			names = append(names, n)
		}
		sort.Strings(names)
		t.Fatalf("%s has no tensor %q; it has %s", f.Path, name, strings.Join(names, ", "))
	}
	return x
}
