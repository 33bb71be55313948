package bad

import "github.com/fxgen/fxgen/tensor"

// TestOnly is a model declared in a test file.
type TestOnly struct{} // want: test file

// Forward returns x.
func (m *TestOnly) Forward(x *tensor.Tensor) *tensor.Tensor { return x }
