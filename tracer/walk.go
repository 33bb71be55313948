// This file indexes the model's named parameters and modules for the trace.

package tracer

import (
	"reflect"

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

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

var tensorPtrType = reflect.TypeFor[*tensor.Tensor]()
