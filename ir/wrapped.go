// This file holds wrapped ops (Go functions recorded as one call_function
// node) as a graph decoded from JSON knows them: by name, with the Go
// function generated code calls, and result types from the recorded nodes.

package ir

import (
	"fmt"
	"strings"
	"sync"
)

// IsWrapped reports whether op is a Go function wrapped with tracer.Wrap
// (or decoded from JSON as one): it has no runtime kernel, and generated
// code calls the function by name.
func (op *Op) IsWrapped() bool { return op.Kernel == nil && (op.Wrapped != nil || op.GoFunc != "") }

// recordedTypes is the Infer rule of a wrapped op decoded from JSON: the
// result types recorded for each list of argument types met so far.
type recordedTypes struct {
	mu      sync.Mutex
	results map[string][]Type
}

func argTypesKey(args []ArgType) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(formatTypes(a.List))
		b.WriteString(a.Type.String())
		b.WriteByte(';')
	}
	return b.String()
}

func (r *recordedTypes) record(args []ArgType, types []Type) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.results[argTypesKey(args)] = types
}

func (r *recordedTypes) infer(s *Sig) ([]Type, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t, ok := r.results[argTypesKey(s.Args)]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("the result type of this wrapped function for these arguments was not recorded by the trace")
}

// wrappedOps holds the ops that decoding JSON registered, by name.
var wrappedOps = struct {
	sync.Mutex
	rules map[string]*recordedTypes
}{rules: map[string]*recordedTypes{}}

// declareWrapped makes the wrapped op name known to this process, calling
// the Go function goFunc ("" when it cannot be called by name). An op of
// that name that is already registered is kept. It returns the recorded
// result types of the op when this decode registered it, else nil.
func declareWrapped(name, goFunc string) (*recordedTypes, error) {
	wrappedOps.Lock()
	defer wrappedOps.Unlock()
	if r := wrappedOps.rules[name]; r != nil {
		return r, nil
	}
	if op := LookupOp(name); op != nil {
		if !op.IsWrapped() {
			return nil, fmt.Errorf("wrapped function %s has the name of a built-in op", name)
		}
		return nil, nil
	}
	r := &recordedTypes{results: map[string][]Type{}}
	RegisterOp(&Op{
		Name:     name,
		Doc:      name + " is a Go function wrapped with tracer.Wrap, known from a decoded graph.",
		Operands: []Operand{{Name: "args", Kind: ListOperand}},
		Infer:    r.infer,
		GoFunc:   goFunc,
	})
	wrappedOps.rules[name] = r
	return r, nil
}
