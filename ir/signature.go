// This file defines Signature, the Go signature of the traced Forward,
// and the Go paths of the parameters the model holds in closures.

package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// Signature is the Go signature of the Forward a graph was traced from, so
// that generated code can keep it.
type Signature struct {
	// Params are Forward's parameters in order.
	Params []SigParam
	// Results is the number of *tensor.Tensor results.
	Results int
	// Captured is how many tensors the trace met that the model holds
	// where Go code cannot name them (in closures): parameters whose Go
	// path is "(captured K)", which the compiled model finds by tracing
	// Forward again (tracer.Captured).
	Captured int
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

// capturedPrefix starts the Go path of a captured parameter.
const capturedPrefix = "(captured "

// CapturedGoPath returns the Go path of the k-th tensor the trace met that
// the model holds where Go code cannot name it (see Signature.Captured).
func CapturedGoPath(k int) string { return fmt.Sprintf("%s%d)", capturedPrefix, k) }

// CapturedIndex returns k when goPath is CapturedGoPath(k).
func CapturedIndex(goPath string) (int, bool) {
	rest, ok := strings.CutPrefix(goPath, capturedPrefix)
	if !ok || !strings.HasSuffix(rest, ")") {
		return 0, false
	}
	k, err := strconv.Atoi(strings.TrimSuffix(rest, ")"))
	return k, err == nil && k >= 0 && CapturedGoPath(k) == goPath
}
