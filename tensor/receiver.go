// This file holds MethodReceiver, which lets generated code reach a module
// that a model holds only as a method value (Out: fc.Forward).

package tensor

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"unsafe"
)

// MethodReceiver returns the receiver bound in f, a method value of a
// pointer receiver of type T (f = x.Forward with x a T), so that the
// compiled model reads the parameters of a module the model holds only as
// Out: fc.Forward. It panics when f is not such a method value. The Go
// compiler builds a method value as a closure whose code is the method's
// "-fm" wrapper and whose one captured word is the receiver.
func MethodReceiver[T any](f any) T {
	var zero T
	rt := reflect.TypeFor[T]()
	v := reflect.ValueOf(f)
	if rt.Kind() != reflect.Pointer || v.Kind() != reflect.Func || v.IsNil() {
		panic(fmt.Sprintf("tensor: MethodReceiver[%v] of %T: want a method value of a pointer receiver", rt, f))
	}
	fn := runtime.FuncForPC(v.Pointer())
	want := "(*" + rt.Elem().Name() + ")."
	if fn == nil || !strings.HasSuffix(fn.Name(), "-fm") || !strings.HasPrefix(fn.Name(), rt.Elem().PkgPath()+"."+want) {
		panic(fmt.Sprintf("tensor: MethodReceiver[%v]: %T is not a method value of a %v", rt, f, rt))
	}
	closure := (*[2]unsafe.Pointer)(unsafe.Pointer(&f))[1]
	*(*unsafe.Pointer)(unsafe.Pointer(&zero)) = *(*unsafe.Pointer)(unsafe.Add(closure, unsafe.Sizeof(uintptr(0))))
	return zero
}
