// This file holds the registry of module types that Walk looks inside
// when a model holds a module only as a method value (Out: fc.Forward).

package nn

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/fxgen/fxgen/tensor"
)

// moduleTypes maps a module type's qualified name ("example.com/m.Block")
// to its pointer type.
var moduleTypes sync.Map

// RegisterModule makes the module type T, a pointer to a struct such as
// *Block, known to Walk, StateDict and LoadStateDict when a model holds
// such a module only as a method value (Out: block.Forward): Go cannot
// name the type of a method value's receiver, so Walk finds it by the
// name the method value carries. Types that the walk meets in fields
// anywhere in the same model, and the modules of this package, need no
// registration. Register in an init function:
//
//	func init() { nn.RegisterModule[*Block]() }
func RegisterModule[T any]() {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || t.Elem().Name() == "" {
		panic("nn.RegisterModule: " + t.String() + " is not a pointer to a named struct type")
	}
	registerType(t)
}

// registerType records t, a pointer to a named struct type.
func registerType(t reflect.Type) {
	moduleTypes.LoadOrStore(t.Elem().PkgPath()+"."+t.Elem().Name(), t)
}

// ownModules are this package's modules that hold tensors (a test checks
// the list), registered at init.
var ownModules = []any{&Linear{}, &Conv2d{}, &Conv1d{}, &BatchNorm2d{}, &BatchNorm1d{}, &LayerNorm{}, &Embedding{}, &EmbeddingBag{}}

func init() {
	for _, m := range ownModules {
		registerType(reflect.TypeOf(m))
	}
}

// receiverModule returns the module bound in the method value f (a
// pointer to its struct) when f is a method value of a pointer receiver
// of a registered type or of one in met (the types the walk met in
// fields); known is false when f is such a method value of a type Walk
// cannot look inside, named in typeName.
func receiverModule(f reflect.Value, met map[string]reflect.Type) (module reflect.Value, typeName string, known bool) {
	p, typeName, ok := tensor.MethodValueReceiverType(f.Interface())
	if !ok {
		return reflect.Value{}, "", true // a function or closure: no module
	}
	t, ok := met[typeName]
	if !ok {
		rt, ok := moduleTypes.Load(typeName)
		if !ok {
			return reflect.Value{}, typeName, false
		}
		t = rt.(reflect.Type)
	}
	return reflect.NewAt(t.Elem(), unsafe.Pointer(p)), typeName, true
}
