// This file indexes the model's named parameters and modules for the trace.

package tracer

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// walked indexes what nn.Walk found in the root model, and the modules
// the trace met later behind method values. Held reads params from other
// goroutines, so the maps change only under mu.
type walked struct {
	mu        sync.RWMutex
	params    map[*tensor.Tensor]nn.Param
	byPath    map[string]*tensor.Tensor
	modules   map[any]nn.Submodule
	receivers map[uintptr]nn.FuncField  // method values' receivers → the field holding the method value
	hidden    map[*tensor.Tensor]string // tensors in unexported fields → their Go path; set once
}

func walk(root any) *walked {
	w := &walked{params: map[*tensor.Tensor]nn.Param{}, byPath: map[string]*tensor.Tensor{}, modules: map[any]nn.Submodule{}, receivers: map[uintptr]nn.FuncField{}}
	if root == nil {
		return w
	}
	params, modules := nn.Walk(root)
	w.add(params, modules)
	named := map[*tensor.Tensor]bool{}
	for _, p := range params {
		named[p.Tensor] = true
	}
	w.hidden = hiddenTensors(root, named)
	for _, f := range nn.FuncFields(root) {
		if p, ok := tensor.MethodValueReceiver(f.Value.Interface()); ok {
			if _, seen := w.receivers[p]; !seen {
				w.receivers[p] = f
			}
		}
	}
	return w
}

// add indexes params and modules; the first name of each wins.
func (w *walked) add(params []nn.Param, modules []nn.Submodule) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range params {
		if _, ok := w.params[p.Tensor]; ok {
			continue
		}
		if _, ok := w.byPath[p.Name]; ok {
			continue
		}
		w.params[p.Tensor] = p
		w.byPath[p.Name] = p.Tensor
	}
	for _, m := range modules {
		if _, ok := w.modules[m.Module]; !ok {
			w.modules[m.Module] = m
		}
	}
}

// param returns the parameter x, if the model holds it.
func (w *walked) param(x *tensor.Tensor) (nn.Param, bool) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	p, ok := w.params[x]
	return p, ok
}

// hiddenPath returns the Go path of x when the model holds it where the
// walk does not name it (an unexported field).
func (w *walked) hiddenPath(x *tensor.Tensor) (string, bool) {
	p, ok := w.hidden[x]
	return p, ok
}

// nameTaken reports whether a parameter or module of the model is named
// name or lives under it (name.…).
func (w *walked) nameTaken(name string) bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	for path := range w.byPath {
		if path == name || strings.HasPrefix(path, name+".") {
			return true
		}
	}
	for _, m := range w.modules {
		if m.Name == name || strings.HasPrefix(m.Name, name+".") {
			return true
		}
	}
	return false
}

// byName returns the parameter with the qualified name, or nil.
func (w *walked) byName(name string) *tensor.Tensor {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.byPath[name]
}

// module returns what the walk knows of module m. A module the walk did
// not reach but a method value stored in the model has as its receiver
// (Out: fc2.Forward) is indexed now, named after that field; its Go path
// goes through the method value with tensor.MethodReceiver, written
// Out.(receiver *pkg/path.Linear).
func (w *walked) module(m any) (nn.Submodule, bool) {
	w.mu.RLock()
	info, ok := w.modules[m]
	w.mu.RUnlock()
	if ok {
		return info, true
	}
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nn.Submodule{}, false
	}
	w.mu.RLock()
	field, ok := w.receivers[v.Pointer()]
	w.mu.RUnlock()
	if !ok {
		return nn.Submodule{}, false
	}
	name, goPath := field.Name, ""
	if t := v.Type().Elem(); field.GoPath != "" && t.Name() != "" && t.PkgPath() != "" {
		goPath = field.GoPath + ".(receiver *" + t.PkgPath() + "." + t.Name() + ")"
	}
	params, modules := nn.Walk(m)
	under := func(inner string) string {
		if inner == "" {
			return name
		}
		return joinPath(name, inner)
	}
	// Inner Go paths are relative to m; "" is m itself for the root module
	// and not expressible for anything else.
	goUnder := func(inner string, root bool) string {
		switch {
		case goPath == "" || inner == "" && !root:
			return ""
		case inner == "":
			return goPath
		}
		return goPath + "." + inner
	}
	for i := range params {
		params[i].Name, params[i].GoPath = under(params[i].Name), goUnder(params[i].GoPath, false)
	}
	for i := range modules {
		modules[i].Name, modules[i].GoPath = under(modules[i].Name), goUnder(modules[i].GoPath, modules[i].Name == "")
	}
	w.add(params, modules)
	w.mu.RLock()
	info, ok = w.modules[m]
	w.mu.RUnlock()
	return info, ok
}

// checkLeaves returns a TraceError for each of leaves (Leaf's module paths
// or type names) that names no module of the model, listing those that
// exist.
func (w *walked) checkLeaves(leaves []string) error {
	w.mu.RLock()
	defer w.mu.RUnlock()
	known := map[string]bool{}
	for _, m := range w.modules {
		if m.Name != "" {
			known[m.Name] = true
		}
		known[m.TypeName] = true
	}
	var bad []string
	for _, l := range leaves {
		if !known[l] {
			bad = append(bad, strconv.Quote(l))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	var paths, types []string
	seen := map[string]bool{}
	for _, m := range w.modules {
		if m.Name != "" {
			paths = append(paths, m.Name)
		}
		if !seen[m.TypeName] {
			seen[m.TypeName] = true
			types = append(types, m.TypeName)
		}
	}
	sort.Strings(paths)
	sort.Strings(types)
	return &TraceError{Msg: fmt.Sprintf("leaf %s names no module of the model; its module paths are %s and its module types %s",
		strings.Join(bad, ", "), orNone(paths), orNone(types))}
}

// orNone lists s, or says there is none; past 12 names it says how many
// more there are.
func orNone(s []string) string {
	switch {
	case len(s) == 0:
		return "(none)"
	case len(s) > 12:
		return strings.Join(s[:12], ", ") + fmt.Sprintf(" and %d more", len(s)-12)
	}
	return strings.Join(s, ", ")
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

var tensorPtrType = reflect.TypeFor[*tensor.Tensor]()
