// This file defines leaf modules and parameters as a graph records them.

package ir

import (
	"fmt"
	"sort"

	"github.com/fxgen/fxgen/runtime"
)

// ModuleKind maps a standard leaf module type to the op that computes it:
// the node's args are the op's leading operands, the module's parameters
// (Params, in order) fill the rest, and its attributes are the op's.
type ModuleKind struct {
	Name   string   // the module type, e.g. "Linear"
	Op     string   // the op, e.g. "linear"
	Params []string // parameter names, e.g. "weight", "bias"
}

var moduleKinds = map[string]*ModuleKind{}

// RegisterModuleKind adds a leaf module kind; Check verifies it against the
// op vocabulary (registration order across files is free).
func RegisterModuleKind(k *ModuleKind) {
	if _, dup := moduleKinds[k.Name]; dup {
		panic("ir: RegisterModuleKind: duplicate " + k.Name)
	}
	moduleKinds[k.Name] = k
}

// Check reports whether the kind's op exists and its parameters fit the
// op's operands.
func (k *ModuleKind) Check() error {
	op := LookupOp(k.Op)
	if op == nil {
		return fmt.Errorf("module kind %s: unknown op %q", k.Name, k.Op)
	}
	if len(k.Params) >= len(op.Operands) && len(op.Operands) > 0 {
		return fmt.Errorf("module kind %s: %d params leave no operand of %s for the input", k.Name, len(k.Params), k.Op)
	}
	return nil
}

// LookupModuleKind returns the kind named name, or nil.
func LookupModuleKind(name string) *ModuleKind { return moduleKinds[name] }

// ModuleKinds returns every module kind, sorted by name.
func ModuleKinds() []*ModuleKind {
	out := make([]*ModuleKind, 0, len(moduleKinds))
	for _, k := range moduleKinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Module is a leaf module called by call_module nodes.
type Module struct {
	// Kind names a ModuleKind; empty for an opaque user module.
	Kind string
	// GoType is the module's Go type, for messages and printing.
	GoType string
	// Attrs are the op's attributes.
	Attrs []Kwarg
	// Params are the qualified names of the parameters, one per name of
	// the kind's Params; "" for an absent optional one (no bias).
	Params []string
	// GoPath is the Go selector path from the root to the module
	// (e.g. "Layers[0].Fc").
	GoPath string
	// Run computes an opaque module eagerly: args and results are
	// *runtime.Array. Set by the tracer; nil after a JSON round trip.
	Run func(args []*runtime.Array) ([]*runtime.Array, error)
	// Results are the result types of an opaque module.
	Results []Type
}

// Param is a parameter or buffer of the traced model.
type Param struct {
	Name   string // qualified name, e.g. "fc1.weight"
	Type   Type
	Value  *runtime.Array // the model's data (shared, not copied)
	GoPath string         // Go selector path from the root, e.g. "Fc1.Weight"
}

// moduleOp returns the op and full operand list of a call_module node.
func (g *Graph) moduleOp(target string) (*Module, *ModuleKind, *Op, error) {
	m := g.Modules[target]
	if m == nil {
		return nil, nil, nil, fmt.Errorf("no module %q in the graph", target)
	}
	if m.Kind == "" {
		return m, nil, nil, nil
	}
	k := LookupModuleKind(m.Kind)
	if k == nil {
		return nil, nil, nil, fmt.Errorf("module %q has unknown kind %q", target, m.Kind)
	}
	if err := k.Check(); err != nil {
		return nil, nil, nil, err
	}
	if len(m.Params) != len(k.Params) {
		return nil, nil, nil, fmt.Errorf("module %q has %d params, kind %s wants %d", target, len(m.Params), k.Name, len(k.Params))
	}
	return m, k, LookupOp(k.Op), nil
}
