// This file holds MethodReceiver, which lets the tracer and generated code
// reach a module that a model holds only as a method value (Out:
// fc.Forward).

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
// Out: fc.Forward. It panics when f is not such a method value.
func MethodReceiver[T any](f any) T {
	rt := reflect.TypeFor[T]()
	p, method, ok := methodValue(f)
	if !ok || rt.Kind() != reflect.Pointer || !strings.HasPrefix(method, rt.Elem().PkgPath()+".(*"+rt.Elem().Name()+").") {
		panic(fmt.Sprintf("tensor: MethodReceiver[%v]: %T is not a method value of a %v", rt, f, rt))
	}
	var r T
	*(*unsafe.Pointer)(unsafe.Pointer(&r)) = p
	return r
}

// MethodValueReceiver returns the address of the receiver bound in f when
// f is a method value of a pointer receiver. It is for package tracer,
// which matches it with the modules it meets.
func MethodValueReceiver(f any) (uintptr, bool) {
	p, _, ok := methodValue(f)
	return uintptr(p), ok
}

// MethodValueReceiverType returns the receiver bound in f, when f is a
// method value of a pointer receiver of a named, non-generic type, with
// that type's qualified name ("example.com/m.Block" for a method value
// b.Forward of a *Block). It is for package nn, which walks the modules
// a model holds only as method values.
func MethodValueReceiverType(f any) (recv unsafe.Pointer, typeName string, ok bool) {
	p, method, ok := methodValue(f)
	if !ok {
		return nil, "", false
	}
	// method is "example.com/m.(*Block).Forward-fm".
	i := strings.Index(method, ".(*")
	j := strings.Index(method, ").")
	if i < 0 || j < i || strings.ContainsAny(method[i+3:j], "[]") {
		return nil, "", false
	}
	return p, method[:i] + "." + method[i+3:j], true
}

// methodValue returns the receiver and the method's name when f is a
// method value of a pointer receiver. The Go compiler builds such a value
// as a closure whose code is the method's "-fm" wrapper and whose one
// captured word is the receiver; that layout has not changed since method
// values were introduced. A func value in an interface is the pointer to
// its closure.
func methodValue(f any) (recv unsafe.Pointer, method string, ok bool) {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Func || v.IsNil() {
		return nil, "", false
	}
	fn := runtime.FuncForPC(v.Pointer())
	if fn == nil {
		return nil, "", false
	}
	name := fn.Name()
	if !strings.HasSuffix(name, "-fm") || !strings.Contains(name, ".(*") {
		return nil, "", false
	}
	closure := (*[2]unsafe.Pointer)(unsafe.Pointer(&f))[1]
	if closure == nil {
		return nil, "", false
	}
	return *(*unsafe.Pointer)(unsafe.Add(closure, unsafe.Sizeof(uintptr(0)))), name, true
}
