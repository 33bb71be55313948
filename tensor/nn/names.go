// This file discovers the qualified names of modules and parameters by
// walking a model with reflection: the names of PyTorch's state dicts.

package nn

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strconv"

	"github.com/fxgen/fxgen/internal/snake"
	"github.com/fxgen/fxgen/tensor"
)

// Param is a parameter or buffer of a model: a *tensor.Tensor field.
type Param struct {
	Name   string // qualified name, e.g. layer1.0.conv1.weight
	GoPath string // Go selector path from the root, e.g. Layer1[0].Conv1.Weight ("" when not expressible)
	Tensor *tensor.Tensor
}

// Submodule is a struct of a model reached through a pointer or an
// addressable field: a module or a container of modules.
type Submodule struct {
	Name     string // qualified name ("" for the root)
	GoPath   string
	TypeName string // Go type name without package, e.g. BasicBlock
	Module   any    // a pointer to the struct
}

// Walk visits the exported fields, slices, arrays and maps below root (a
// pointer to a struct), naming each by its `fx:"name"` tag or its field
// name in snake_case, slice elements by their index and map entries by
// their key, in sorted key order, as PyTorch's state-dict names do (a
// ModuleDict's keys); a tag `fx:"-"` skips a field and `fx:",inline"` names a
// field's children as if they were the parent's (as nn.Sequential does).
// Behind an interface the Go path holds a type assertion written with the
// full package path, e.g. Layers[0].(*github.com/fxgen/fxgen/tensor/nn.Linear).Weight. A tensor reached twice keeps its
// first name. The order is the fields' order, so it is deterministic.
func Walk(root any) (params []Param, modules []Submodule) {
	w := walk(root)
	return w.params, w.modules
}

// walk walks root; when a method value's receiver type was unknown but
// the walk met that type in a field, it walks again knowing it. The types
// met are this walk's own, so what a walk finds never depends on models
// walked before.
func walk(root any) *walker {
	w := &walker{seenT: map[*tensor.Tensor]bool{}, seenM: map[any]bool{}, types: map[string]reflect.Type{}}
	w.visit(reflect.ValueOf(root), "", "", true)
	for _, f := range w.unknown {
		if _, met := w.types[f.GoPath]; met {
			w = &walker{seenT: map[*tensor.Tensor]bool{}, seenM: map[any]bool{}, types: w.types}
			w.visit(reflect.ValueOf(root), "", "", true)
			break
		}
	}
	return w
}

// NamedParameters returns the parameters and buffers of m by qualified name.
func NamedParameters(m any) []Param {
	params, _ := Walk(m)
	return params
}

type walker struct {
	params  []Param
	modules []Submodule
	funcs   []FuncField
	unknown []FuncField             // method values of types Walk cannot look inside (GoPath holds the type's name)
	types   map[string]reflect.Type // the module types met in fields, by qualified name
	seenT   map[*tensor.Tensor]bool
	seenM   map[any]bool
}

// FuncField is a non-nil func value stored in a model (a field, or an
// element of a slice or map): a method value such as fc2.Forward, a func
// field holding a function, or a closure.
type FuncField struct {
	Name   string // qualified name of the field, e.g. out
	GoPath string // Go selector path from the root, e.g. Out ("" when not expressible)
	Value  reflect.Value
}

// FuncFields returns the func values stored below root, in the order of
// Walk, so that a tracer can name the modules reached only through them.
func FuncFields(root any) []FuncField { return walk(root).funcs }

var tensorPtrType = reflect.TypeFor[*tensor.Tensor]()

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (w *walker) visit(v reflect.Value, path, goPath string, goOK bool) {
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
			if !w.seenT[t] {
				w.seenT[t] = true
				w.params = append(w.params, Param{Name: path, GoPath: goPath, Tensor: t})
			}
			return
		}
		if v.Elem().Kind() != reflect.Struct {
			return
		}
		if w.seenM[v.Interface()] {
			return
		}
		if t := v.Elem().Type(); t.Name() != "" {
			w.types[t.PkgPath()+"."+t.Name()] = v.Type()
		}
		w.visit(v.Elem(), path, goPath, goOK)
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		// The Go path goes on through a type assertion to the dynamic
		// type, written with its full package path: X.(*pkg/path.Type).
		e := v.Elem()
		t, star := e.Type(), ""
		if t.Kind() == reflect.Pointer {
			t, star = t.Elem(), "*"
		}
		if t.Name() == "" || t.PkgPath() == "" {
			w.visit(e, path, "", false)
			return
		}
		w.visit(e, path, goPath+".("+star+t.PkgPath()+"."+t.Name()+")", goOK)
	case reflect.Struct:
		if v.CanAddr() {
			key := v.Addr().Interface()
			if w.seenM[key] {
				return
			}
			w.seenM[key] = true
			w.modules = append(w.modules, Submodule{Name: path, GoPath: goPath, TypeName: v.Type().Name(), Module: key})
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
			child := joinPath(path, name)
			switch name {
			case "":
				child = joinPath(path, SnakeCase(f.Name))
			case ",inline":
				child = path
			}
			sel := f.Name
			if goPath != "" {
				sel = goPath + "." + f.Name
			}
			w.visit(v.Field(i), child, sel, goOK)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			idx := strconv.Itoa(i)
			w.visit(v.Index(i), joinPath(path, idx), goPath+"["+idx+"]", goOK && goPath != "")
		}
	case reflect.Map:
		// Entries in sorted key order.
		type entry struct {
			key string
			num float64 // the key's value when it is an integer
			k   reflect.Value
		}
		var entries []entry
		intKeys := false
		for _, k := range v.MapKeys() {
			switch k.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				intKeys = true
				entries = append(entries, entry{strconv.FormatInt(k.Int(), 10), float64(k.Int()), k})
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				intKeys = true
				entries = append(entries, entry{strconv.FormatUint(k.Uint(), 10), float64(k.Uint()), k})
			default:
				entries = append(entries, entry{fmt.Sprint(k.Interface()), 0, k})
			}
		}
		slices.SortFunc(entries, func(a, b entry) int {
			if c := cmp.Compare(a.num, b.num); intKeys && c != 0 {
				return c
			}
			return cmp.Compare(a.key, b.key)
		})
		for _, e := range entries {
			// Integer and string keys keep a Go path (M[3], M["enc"]).
			sel, ok := goPath+"["+e.key+"]", goOK && goPath != "" && intKeys
			if e.k.Kind() == reflect.String {
				sel, ok = goPath+"["+strconv.Quote(e.k.String())+"]", goOK && goPath != ""
			}
			w.visit(v.MapIndex(e.k), joinPath(path, e.key), sel, ok)
		}
	case reflect.Func:
		if v.IsNil() {
			return
		}
		w.funcs = append(w.funcs, FuncField{Name: path, GoPath: goPath, Value: v})
		// A method value's receiver is walked as a module named after the
		// field, reached in Go through tensor.MethodReceiver (written
		// Field.(receiver *pkg/path.Type)).
		m, typeName, known := receiverModule(v, w.types)
		switch {
		case !known:
			w.unknown = append(w.unknown, FuncField{Name: path, GoPath: typeName, Value: v})
		case m.IsValid():
			t := m.Type().Elem()
			w.visit(m, path, goPath+".(receiver *"+t.PkgPath()+"."+t.Name()+")", goOK && goPath != "")
		}
	}
}

// SnakeCase returns the default qualified-name segment of a Go field name:
// Fc1 → fc1, TokEmb → tok_emb, QKV → qkv, HTTPServer → http_server.
func SnakeCase(s string) string { return snake.Case(s) }
