// Package clashimport declares a package-level runtime, which collides
// with the runtime package the generated file imports: the generated file
// would break the package, so fxgen must refuse to write it.
package clashimport

import "github.com/fxgen/fxgen/tensor"

// M is a model that traces fine.
type M struct{}

// NewM returns an M.
func NewM() *M { return &M{} }

// Forward returns relu(x).
func (m *M) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Relu() }

// runtime is the user's own name.
func runtime() {} // want: import clash
