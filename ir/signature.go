// This file defines Signature, the Go signature of the traced Forward.

package ir

// Signature is the Go signature of the Forward a graph was traced from, so
// that generated code can keep it.
type Signature struct {
	// Params are Forward's parameters in order.
	Params []SigParam
	// Results is the number of *tensor.Tensor results.
	Results int
}

// SigParam is one parameter of Forward: a tensor (a placeholder of the same
// name) or a concrete value bound at trace time.
type SigParam struct {
	Name string
	// GoType is the parameter's Go type as written, e.g. "*tensor.Tensor",
	// "bool".
	GoType string
	// Tensor is true for a *tensor.Tensor parameter.
	Tensor bool
	// Concrete is the value bound to a non-tensor parameter.
	Concrete any
}
