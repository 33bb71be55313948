// This file holds array versions and Snapshot, which let a compiled model
// notice that a parameter it computed from has changed since.

package runtime

import "fmt"

// Version returns a's version: a counter that MarkChanged advances. Loads
// of weights into a model (nn.LoadStateDict, nn.LoadSafetensors) advance
// the version of every array they write.
func (a *Array) Version() uint64 { return a.version.Load() }

// MarkChanged advances a's version. Call it after writing a parameter's
// elements directly (through its F32 slice, or a tensor's Float32s), so
// that compiled models that computed from the old values notice.
func (a *Array) MarkChanged() { a.version.Add(1) }

// Snapshot records the versions of the parameters a compiled model's
// constructor computed from (packed weights, folded batch norms, other
// parameter-only work), so that Forward can refuse to mix them with newer
// values. The zero value records nothing.
type Snapshot struct {
	names    []string
	arrays   []*Array
	versions []uint64
}

// Record remembers a's current version under the parameter name name.
func (s *Snapshot) Record(name string, a *Array) {
	s.names = append(s.names, name)
	s.arrays = append(s.arrays, a)
	s.versions = append(s.versions, a.Version())
}

// Check panics, naming fn, the parameter and the constructor ctor, when a
// recorded parameter has changed since Record: the compiled model would
// otherwise mix what it computed from the old values with the new ones.
func (s *Snapshot) Check(fn, ctor string) {
	for i, a := range s.arrays {
		if a.Version() != s.versions[i] {
			panic(fmt.Sprintf("%s: parameter %s changed after %s computed from it (packed weights, folded batch norms); build the compiled model again after loading weights", fn, s.names[i], ctor))
		}
	}
}
