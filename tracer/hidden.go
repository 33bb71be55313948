// This file finds the tensors a model holds where the state dict does not
// look (unexported fields), so that the trace refuses them instead of
// baking their values in.

package tracer

import (
	"reflect"
	"strconv"
	"unsafe"

	"github.com/fxgen/fxgen/tensor"
)

// hiddenTensors returns every tensor reachable from root through fields
// (exported or not), pointers, interfaces, slices, arrays and maps that
// params does not name, each with a Go-like path to it (e.g.
// blocks[0].gain) for the error message.
func hiddenTensors(root any, params map[*tensor.Tensor]bool) map[*tensor.Tensor]string {
	h := &hider{out: map[*tensor.Tensor]string{}, params: params, seen: map[uintptr]bool{}}
	h.visit(reflect.ValueOf(root), "", 0)
	return h.out
}

type hider struct {
	out    map[*tensor.Tensor]string
	params map[*tensor.Tensor]bool
	seen   map[uintptr]bool
}

// maxHiddenDepth bounds the walk through deeply nested values.
const maxHiddenDepth = 64

func (h *hider) visit(v reflect.Value, path string, depth int) {
	if !v.IsValid() || depth > maxHiddenDepth {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type() == tensorPtrType {
			// v may come from an unexported field, whose value reflect
			// does not hand out; its address is enough.
			t := (*tensor.Tensor)(unsafe.Pointer(v.Pointer()))
			if _, ok := h.out[t]; !ok && !h.params[t] {
				h.out[t] = path
			}
			return
		}
		if h.seen[v.Pointer()] {
			return
		}
		h.seen[v.Pointer()] = true
		h.visit(v.Elem(), path, depth+1)
	case reflect.Interface:
		if !v.IsNil() {
			h.visit(v.Elem(), path, depth+1)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			name := t.Field(i).Name
			if path != "" {
				name = path + "." + name
			}
			h.visit(v.Field(i), name, depth+1)
		}
	case reflect.Slice, reflect.Array:
		if scalar(v.Type().Elem()) {
			return
		}
		if v.Kind() == reflect.Slice {
			if v.IsNil() || h.seen[v.Pointer()] && v.Len() > 0 {
				return
			}
			if v.Len() > 0 {
				h.seen[v.Pointer()] = true
			}
		}
		for i := 0; i < v.Len(); i++ {
			h.visit(v.Index(i), path+"["+strconv.Itoa(i)+"]", depth+1)
		}
	case reflect.Map:
		if v.IsNil() || scalar(v.Type().Elem()) || h.seen[v.Pointer()] {
			return
		}
		h.seen[v.Pointer()] = true
		it := v.MapRange()
		for it.Next() {
			h.visit(it.Value(), path+"[…]", depth+1)
		}
	}
}

// scalar reports whether values of type t hold no pointers to follow.
func scalar(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return true
	}
	return false
}
