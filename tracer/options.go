// This file defines the tracer's options: leaves and concrete arguments.

package tracer

import "github.com/fxgen/fxgen/ir"

// Options customise a trace. The zero value traces standard nn modules as
// leaves and user modules through.
type Options struct {
	// IsLeaf, if set, decides for each module called through
	// tensor.CallModule (standard nn modules and nn.Call) whether it is a
	// leaf; path is its qualified name, typeName its Go type without
	// package (e.g. "Block"), std reports a standard nn module.
	IsLeaf func(path, typeName string, std bool) bool
	// Leaves lists module paths or Go type names to keep as leaves.
	Leaves []string
	// Concrete are values for Forward's non-tensor parameters, in the order
	// those parameters appear.
	Concrete []ConcreteArg
	// Rules give the result types of leaf user modules by qualified name
	// or Go type name (see LeafRule and ResultTyper).
	Rules map[string]func(args ...ir.Type) ([]ir.Type, error)
}

// ConcreteArg binds a non-tensor parameter of Forward to a value.
type ConcreteArg struct {
	Name  string
	Value any
}

// Option changes Options.
type Option func(*Options)

// Concrete binds the next non-tensor parameter of Forward (named name, for
// messages and the generated signature) to value; bind them in the order
// Forward declares them.
func Concrete(name string, value any) Option {
	return func(o *Options) { o.Concrete = append(o.Concrete, ConcreteArg{name, value}) }
}

// Leaf keeps the modules with these qualified names or Go type names as
// leaves: one call_module node each, never traced through. A user
// module's result types come from its rule (LeafRule, ResultTyper) or an
// example run, and the compiled model calls its Forward, so a leaf may
// hold dynamic control flow. Call a leaf through nn.Call (or
// tensor.CallModule): calling its Forward directly is a TraceError.
func Leaf(pathsOrTypes ...string) Option {
	return func(o *Options) { o.Leaves = append(o.Leaves, pathsOrTypes...) }
}

// IsLeaf sets the function that decides which modules are leaves.
func IsLeaf(fn func(path, typeName string, std bool) bool) Option {
	return func(o *Options) { o.IsLeaf = fn }
}

func (o *Options) leaf(path, typeName string, std bool) bool {
	for _, l := range o.Leaves {
		if l == path || l == typeName {
			return true
		}
	}
	if o.IsLeaf != nil {
		return o.IsLeaf(path, typeName, std)
	}
	return std
}
