// This file indexes the model's named parameters and modules for the trace.

package tracer

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// walked indexes what nn.Walk found in the root model.
type walked struct {
	params  map[*tensor.Tensor]nn.Param
	byPath  map[string]*tensor.Tensor
	modules map[any]nn.Submodule
}

func walk(root any) *walked {
	w := &walked{params: map[*tensor.Tensor]nn.Param{}, byPath: map[string]*tensor.Tensor{}, modules: map[any]nn.Submodule{}}
	if root == nil {
		return w
	}
	params, modules := nn.Walk(root)
	for _, p := range params {
		w.params[p.Tensor] = p
		w.byPath[p.Name] = p.Tensor
	}
	for _, m := range modules {
		w.modules[m.Module] = m
	}
	return w
}

// checkLeaves returns a TraceError for each of leaves (Leaf's module paths
// or type names) that names no module of the model, listing those that
// exist.
func (w *walked) checkLeaves(leaves []string) error {
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
