// This file holds the op registry: RegisterOp, LookupOp, Ops and the Go
// names of an op's functions.

package ir

import (
	"reflect"
	goruntime "runtime"
	"sort"
	"strings"
)

var opTable = map[string]*Op{}

// RegisterOp adds op to the vocabulary, and the ModuleKind of its module
// form if it has one. It panics if the name is taken or the kernel's
// signature does not follow the calling convention. The ops of the table
// register themselves; RegisterOp is for ops added outside package ir.
// Eager execution calls a kernel directly when its signature is one the
// table has (op_kernelcalls_gen.go), else through reflection.
func RegisterOp(op *Op) {
	if _, dup := opTable[op.Name]; dup {
		panic("ir: RegisterOp: duplicate op " + op.Name)
	}
	if op.Kernel != nil {
		if err := op.checkKernel(); err != nil {
			panic("ir: RegisterOp: " + op.Name + ": " + err.Error())
		}
		op.kernelAttrs = op.KernelAttrs()
		if op.kernelAttrs == nil {
			op.kernelAttrs = []Attr{}
		}
		op.call = kernelCaller(op.Kernel)
		if op.call == nil {
			op.call = reflectCaller(op.Kernel)
			op.reflective = true
		}
	}
	if err := op.CheckPrepared(); err != nil {
		panic("ir: RegisterOp: " + op.Name + ": " + err.Error())
	}
	if err := op.CheckProgram(); err != nil {
		panic("ir: RegisterOp: " + op.Name + ": " + err.Error())
	}
	opTable[op.Name] = op
	if m := op.Module; m != nil {
		RegisterModuleKind(&ModuleKind{Name: m.Name, Op: op.Name, Params: m.Params})
	}
}

// registerTable registers the ops of one family of the table.
func registerTable(ops []*Op) {
	for _, op := range ops {
		RegisterOp(op)
	}
}

// LookupOp returns the op named name, or nil.
func LookupOp(name string) *Op { return opTable[name] }

// Ops returns every op of the vocabulary, sorted by name.
func Ops() []*Op {
	out := make([]*Op, 0, len(opTable))
	for _, op := range opTable {
		out = append(out, op)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// KernelName returns the kernel's qualified Go name, such as
// "github.com/fxgen/fxgen/runtime.Relu", split into package path and name.
func (op *Op) KernelName() (pkg, name string) {
	if op.Kernel == nil {
		return "", ""
	}
	full := goruntime.FuncForPC(reflect.ValueOf(op.Kernel).Pointer()).Name()
	i := strings.LastIndexByte(full, '.')
	return full[:i], full[i+1:]
}

// WrappedName returns the package path and name of the Go function a
// wrapped op calls; ok is false when it is not a named package-level
// function (a closure or a method), which generated code cannot call.
func (op *Op) WrappedName() (pkg, name string, ok bool) {
	full := op.GoFunc
	if op.Wrapped != nil {
		full = goruntime.FuncForPC(reflect.ValueOf(op.Wrapped).Pointer()).Name()
	}
	if full == "" {
		return "", "", false
	}
	slash := strings.LastIndexByte(full, '/')
	dot := strings.IndexByte(full[slash+1:], '.')
	if dot < 0 {
		return "", "", false
	}
	pkg, name = full[:slash+1+dot], full[slash+1+dot+1:]
	return pkg, name, !strings.ContainsAny(name, ".()")
}

func funcName(fn any) (pkg, name string) {
	full := goruntime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
	i := strings.LastIndexByte(full, '.')
	return full[:i], full[i+1:]
}
