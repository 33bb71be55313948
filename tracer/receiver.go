// This file finds the receiver of a method value stored in a model, so
// that a module reached only as Out: fc2.Forward is named and its
// parameters are graph values.

package tracer

import (
	"reflect"
	goruntime "runtime"
	"strings"
	"unsafe"
)

// methodReceiver returns the address of the receiver bound in f when f is a
// method value of a pointer receiver (x.Forward with x a *T). The Go
// compiler builds such a value as a closure whose code is the method's
// "-fm" wrapper and whose one captured word is the receiver; that layout
// has not changed since method values were introduced. Any other func
// (plain functions, closures, value receivers) reports false.
func methodReceiver(f reflect.Value) (uintptr, bool) {
	if f.Kind() != reflect.Func || f.IsNil() {
		return 0, false
	}
	fn := goruntime.FuncForPC(f.Pointer())
	if fn == nil {
		return 0, false
	}
	name := fn.Name()
	if !strings.HasSuffix(name, "-fm") || !strings.Contains(name, ".(*") {
		return 0, false
	}
	// A func value in an interface is the pointer to its closure.
	v := f.Interface()
	closure := (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1]
	if closure == nil {
		return 0, false
	}
	return uintptr(*(*unsafe.Pointer)(unsafe.Add(closure, unsafe.Sizeof(uintptr(0))))), true
}
