// This file discovers the qualified names of modules and parameters by
// walking the root model with reflection.

package tracer

import (
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"github.com/fxgen/fxgen/tensor"
)

// paramInfo is where a parameter tensor lives in the model.
type paramInfo struct {
	name   string // qualified name, fc1.weight
	goPath string // Go selector path from the root, Fc1.Weight ("" if not reachable by selectors)
}

// moduleInfo is where a module (any struct reached through a pointer or an
// addressable field) lives in the model.
type moduleInfo struct {
	path     string
	goPath   string
	typeName string
}

// walked holds what one walk of the root found.
type walked struct {
	params  map[*tensor.Tensor]paramInfo
	byPath  map[string]*tensor.Tensor
	modules map[any]moduleInfo
}

var tensorPtrType = reflect.TypeFor[*tensor.Tensor]()

// walk visits the exported fields, slices and arrays below root, naming
// each by its `fx:"name"` tag or its field name in snake_case, and slice
// elements by their index, as PyTorch's state-dict names do.
func walk(root reflect.Value) *walked {
	w := &walked{params: map[*tensor.Tensor]paramInfo{}, byPath: map[string]*tensor.Tensor{}, modules: map[any]moduleInfo{}}
	w.visit(root, "", "", true)
	return w
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (w *walked) visit(v reflect.Value, path, goPath string, goOK bool) {
	if !goOK {
		goPath = ""
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type() == tensorPtrType {
			t := v.Interface().(*tensor.Tensor)
			if _, seen := w.params[t]; !seen {
				w.params[t] = paramInfo{name: path, goPath: goPath}
				w.byPath[path] = t
			}
			return
		}
		if v.Elem().Kind() != reflect.Struct {
			return
		}
		if _, seen := w.modules[v.Interface()]; seen {
			return
		}
		w.visit(v.Elem(), path, goPath, goOK)
	case reflect.Interface:
		if !v.IsNil() {
			w.visit(v.Elem(), path, "", false)
		}
	case reflect.Struct:
		if v.CanAddr() {
			key := v.Addr().Interface()
			if _, seen := w.modules[key]; seen {
				return
			}
			w.modules[key] = moduleInfo{path: path, goPath: goPath, typeName: v.Type().Name()}
		}
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name := f.Tag.Get("fx")
			if name == "-" {
				continue
			}
			if name == "" {
				name = SnakeCase(f.Name)
			}
			sel := f.Name
			if goPath != "" {
				sel = goPath + "." + f.Name
			}
			w.visit(v.Field(i), joinPath(path, name), sel, goOK)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			idx := strconv.Itoa(i)
			w.visit(v.Index(i), joinPath(path, idx), goPath+"["+idx+"]", goOK && goPath != "")
		}
	}
}

// SnakeCase returns the default qualified-name segment of a Go field name:
// Fc1 → fc1, TokEmb → tok_emb, QKV → qkv, HTTPServer → http_server.
func SnakeCase(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && nextLower {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
