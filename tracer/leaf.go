// This file holds opaque leaves: user modules kept as one call_module node
// whose Forward is never traced. Their result types come from a declared
// rule, or from running Forward eagerly on example inputs, and a leaf's
// Forward called without nn.Call is an error.

package tracer

import (
	"fmt"
	"reflect"
	goruntime "runtime"
	"sort"
	"strings"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// ResultTyper is implemented by a user module that declares the result
// types of its Forward from the types of its tensor arguments, the rule
// the trace uses when the module is a leaf (dims may be symbolic, N). A
// leaf without a rule (here or LeafRule) has its types found by running
// its Forward eagerly on example inputs of zeros.
type ResultTyper interface {
	ResultTypes(args ...ir.Type) ([]ir.Type, error)
}

// LeafRule keeps the modules with this qualified name or Go type name as
// leaves, as Leaf does, with result types given by rule from the types of
// the tensor arguments.
func LeafRule(pathOrType string, rule func(args ...ir.Type) ([]ir.Type, error)) Option {
	return func(o *Options) {
		o.Leaves = append(o.Leaves, pathOrType)
		if o.Rules == nil {
			o.Rules = map[string]func(args ...ir.Type) ([]ir.Type, error){}
		}
		o.Rules[pathOrType] = rule
	}
}

// leafTypes returns the result types of the opaque leaf m called on args:
// from its LeafRule, its ResultTypes method, or an example run.
func (t *tracer) leafTypes(m any, path, typeName string, forward func([]*tensor.Tensor) []*tensor.Tensor, args []*tensor.Tensor) ([]ir.Type, error) {
	in := make([]ir.Type, len(args))
	for i, a := range args {
		in[i] = a.Type()
	}
	rule := t.opts.Rules[path]
	if rule == nil {
		rule = t.opts.Rules[typeName]
	}
	if rule == nil {
		if r, ok := m.(ResultTyper); ok {
			rule = r.ResultTypes
		}
	}
	if rule != nil {
		types, err := rule(in...)
		if err != nil {
			return nil, fmt.Errorf("result rule: %v", err)
		}
		return types, nil
	}
	return exampleTypes(forward, in)
}

// exampleSizes are the values given to each symbol of the argument types
// in the two example runs: symbol i is exampleSizes[2i] then
// exampleSizes[2i+1], so that a result dim c·S is told apart from a
// constant and from c'·S' by its two values.
var exampleSizes = []int{11, 13, 17, 19, 23, 29, 31, 37}

// exampleTypes runs forward eagerly, off the tracing goroutine (so that
// nothing is recorded), twice on zeros of the argument types with each
// symbol given two different sizes, and reads the result types back:
// a result dim that differs between the runs is c·S for the symbol S
// whose sizes explain both values.
func exampleTypes(forward func([]*tensor.Tensor) []*tensor.Tensor, in []ir.Type) ([]ir.Type, error) {
	var syms []string
	seen := map[string]bool{}
	for _, t := range in {
		for _, d := range t.Shape {
			if !d.IsConst() && !seen[d.Sym] {
				seen[d.Sym] = true
				syms = append(syms, d.Sym)
			}
		}
	}
	sort.Strings(syms)
	if 2*len(syms) > len(exampleSizes) {
		return nil, fmt.Errorf("%d symbols in the argument types; give the module a result rule (tracer.ResultTyper or tracer.LeafRule)", len(syms))
	}
	var runs [2][][]int
	for r := range runs {
		vals := map[string]int{}
		for i, s := range syms {
			vals[s] = exampleSizes[2*i+r]
		}
		shapes, err := exampleRun(forward, in, vals)
		if err != nil {
			return nil, fmt.Errorf("running Forward on example inputs to find its result types: %v; give the module a result rule (tracer.ResultTyper or tracer.LeafRule)", err)
		}
		runs[r] = shapes.shapes
		if r == 1 {
			return solveTypes(shapes.dtypes, runs, syms)
		}
	}
	panic("unreachable")
}

type exampleResult struct {
	dtypes []ir.DType
	shapes [][]int
}

// exampleRun runs forward on a new goroutine on zeros of the types in
// with the symbols' values.
func exampleRun(forward func([]*tensor.Tensor) []*tensor.Tensor, in []ir.Type, vals map[string]int) (res exampleResult, err error) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		args := make([]*tensor.Tensor, len(in))
		for i, t := range in {
			dims, ok := t.Shape.Eval(vals)
			if !ok {
				panic(fmt.Sprintf("argument %d: type %v", i, t))
			}
			args[i] = tensor.FromArray(runtime.NewArray(t.DType, dims...))
		}
		for _, r := range forward(args) {
			res.dtypes = append(res.dtypes, r.DType())
			res.shapes = append(res.shapes, r.Shape())
		}
	}()
	<-done
	return res, err
}

// solveTypes turns the result shapes of the two runs into types.
func solveTypes(dtypes []ir.DType, runs [2][][]int, syms []string) ([]ir.Type, error) {
	if len(runs[0]) != len(runs[1]) {
		return nil, fmt.Errorf("the example runs gave %d and %d results", len(runs[0]), len(runs[1]))
	}
	out := make([]ir.Type, len(dtypes))
	for i, a := range runs[0] {
		b := runs[1][i]
		if len(a) != len(b) {
			return nil, fmt.Errorf("result %d has rank %d, then %d, in the example runs", i, len(a), len(b))
		}
		shape := make(ir.Shape, len(a))
		for j := range a {
			if a[j] == b[j] {
				shape[j] = ir.Const(a[j])
				continue
			}
			found := false
			for k, s := range syms {
				pa, pb := exampleSizes[2*k], exampleSizes[2*k+1]
				if a[j]%pa == 0 && b[j]%pb == 0 && a[j]/pa == b[j]/pb {
					shape[j], found = ir.Dim{Coef: a[j] / pa, Sym: s}, true
					break
				}
			}
			if !found {
				return nil, fmt.Errorf("result %d: dim %d is %d, then %d, in the example runs: not a constant multiple of a symbol; give the module a result rule (tracer.ResultTyper or tracer.LeafRule)", i, j, a[j], b[j])
			}
		}
		out[i] = ir.Type{DType: dtypes[i], Shape: shape}
	}
	return out, nil
}

// leafOnlyTypes returns the Go types (package path + "." + name) of the
// user modules whose every instance in the model is a leaf, each with one
// of their paths: a Forward of such a type met on the stack of a recorded
// op was called directly instead of through nn.Call.
func (t *tracer) leafOnlyTypes() map[string]string {
	t.w.mu.RLock()
	defer t.w.mu.RUnlock()
	out := map[string]string{}
	mixed := map[string]bool{}
	for _, m := range t.w.modules {
		rt := reflect.TypeOf(m.Module)
		if rt.Kind() == reflect.Pointer {
			rt = rt.Elem()
		}
		if rt.PkgPath() == "" || fxgenPackages[rt.PkgPath()] {
			continue
		}
		key := rt.PkgPath() + "." + rt.Name()
		if m.Name == "" || !t.opts.leaf(m.Name, m.TypeName, false) {
			mixed[key] = true
			continue
		}
		if p, ok := out[key]; !ok || m.Name < p {
			out[key] = m.Name
		}
	}
	for k := range mixed {
		delete(out, k)
	}
	return out
}

// checkDirectLeafCall fails the trace when an op is recorded inside the
// Forward of a leaf module, which only happens when that Forward was
// called directly (m.Sub.Forward(x)) rather than through nn.Call: the
// module would silently be traced through.
func (t *tracer) checkDirectLeafCall() {
	if len(t.leafOnly) == 0 {
		return
	}
	pcs := make([]uintptr, 64)
	n := goruntime.Callers(3, pcs)
	frames := goruntime.CallersFrames(pcs[:n])
	inLeaf := ""
	for {
		f, more := frames.Next()
		key, isForward := forwardReceiver(f.Function)
		if inLeaf != "" && f.File != "" && f.File != "<autogenerated>" && key != inLeaf {
			path := t.leafOnly[inLeaf]
			panic(&TraceError{File: f.File, Line: f.Line, Msg: fmt.Sprintf(
				"module %s (%s) is a leaf, but its Forward is called directly, which would trace through it: "+
					"call it through nn.Call (nn.Call(m.Sub, x)), or tensor.CallModule for several tensors, so that it is one call_module node", path, inLeaf)})
		}
		if _, leaf := t.leafOnly[key]; inLeaf == "" && isForward && leaf {
			inLeaf = key
		}
		if !more {
			return
		}
	}
}

// forwardReceiver returns "pkgpath.Type" when the qualified function
// name is the Forward method of Type, or a function literal inside it.
func forwardReceiver(name string) (string, bool) {
	pkg := funcPackage(name)
	rest := name[len(pkg):]
	if !strings.HasPrefix(rest, ".") {
		return "", false
	}
	parts := strings.Split(rest[1:], ".")
	if len(parts) < 2 || parts[1] != "Forward" {
		return "", false
	}
	recv := strings.TrimSuffix(strings.TrimPrefix(parts[0], "(*"), ")")
	return pkg + "." + recv, true
}
