// This file holds prepared operands: an operand an alternative kernel takes
// in a form prepared once (a packed weight).

package ir

import (
	"fmt"
	"reflect"
)

// Prepared declares that operand Operand of an op can be prepared once by
// the runtime function Prepare, a func(*runtime.Array, attrs...) P, into a
// value of type P (a pointer type, such as *runtime.PackedB) that Kernel,
// an alternative kernel, takes in that operand's place; every other
// parameter of Kernel is the op kernel's. Prepare's parameters after the
// operand are the first of the kernel's attribute parameters (none for a
// packed linear weight; stride, padding and groups for convolution
// filters, whose layout depends on them). Generated code uses it when the
// operand depends on no input (a parameter, or work hoisted from
// parameters): the compiled module's constructor calls Prepare and Forward
// calls Kernel, which must compute what the op's kernel computes. Eager
// execution and the interpreter keep calling the op's kernel.
type Prepared struct {
	Operand int
	Prepare any
	Kernel  any
}

// CheckPrepared verifies op.Prepared against the op's kernel: Operand is a
// tensor operand, Prepare is a func(*runtime.Array, attrs...) P of a
// pointer type P other than *runtime.Array whose attrs are the first of
// the kernel's attribute parameters, and Kernel has the op kernel's
// parameters but P for that operand. It returns nil when op.Prepared is
// nil.
func (op *Op) CheckPrepared() error {
	pr := op.Prepared
	if pr == nil {
		return nil
	}
	if op.Kernel == nil || op.listResults {
		return fmt.Errorf("prepared operand: the op needs a kernel with one parameter per result")
	}
	if pr.Operand < 0 || pr.Operand >= len(op.Operands) || op.Operands[pr.Operand].Kind != TensorOperand {
		return fmt.Errorf("prepared operand %d is not a tensor operand", pr.Operand)
	}
	pt := reflect.TypeOf(pr.Prepare)
	if pt == nil || pt.Kind() != reflect.Func || pt.NumIn() < 1 || pt.In(0) != arrayPtrType || pt.NumOut() != 1 ||
		pt.Out(0).Kind() != reflect.Pointer || pt.Out(0) == arrayPtrType {
		return fmt.Errorf("prepare function %T, want func(*runtime.Array, attrs...) P for a pointer type P", pr.Prepare)
	}
	prepared := pt.Out(0)
	kt := reflect.TypeOf(op.Kernel)
	firstAttr := kt.NumIn() - len(op.KernelAttrs())
	if pt.NumIn()-1 > len(op.KernelAttrs()) {
		return fmt.Errorf("prepare function %T takes %d attributes, the kernel %d", pr.Prepare, pt.NumIn()-1, len(op.KernelAttrs()))
	}
	for i := 1; i < pt.NumIn(); i++ {
		if want := kt.In(firstAttr + i - 1); pt.In(i) != want {
			return fmt.Errorf("prepare function %T: parameter %d is %v, want the kernel's attribute parameter %v", pr.Prepare, i, pt.In(i), want)
		}
	}
	return kernelVariant("prepared kernel", pr.Kernel, kt, op.KernelResults()+pr.Operand, prepared)
}

// kernelVariant checks that fn is a func of kt's parameters but the
// type with in place of parameter i (a prepared kernel's, a program
// kernel's); what names it in the error.
func kernelVariant(what string, fn any, kt reflect.Type, i int, with reflect.Type) error {
	ft := reflect.TypeOf(fn)
	if ft == nil || ft.Kind() != reflect.Func || ft.NumOut() != 0 || ft.NumIn() != kt.NumIn() {
		return fmt.Errorf("%s %T, want the parameters of %v with %v for parameter %d", what, fn, kt, with, i)
	}
	for p := 0; p < kt.NumIn(); p++ {
		want := kt.In(p)
		if p == i {
			want = with
		}
		if ft.In(p) != want {
			return fmt.Errorf("%s %v: parameter %d is %v, want %v", what, ft, p, ft.In(p), want)
		}
	}
	return nil
}

// PrepareAttrs returns how many of the kernel's attributes, from the
// first, the prepare function of op (which must have Prepared) takes
// after the operand.
func (op *Op) PrepareAttrs() int { return reflect.TypeOf(op.Prepared.Prepare).NumIn() - 1 }

// PreparedNames returns the package paths and names of the prepare
// function and the prepared kernel of op, which must have Prepared.
func (op *Op) PreparedNames() (preparePkg, prepare, kernelPkg, kernel string) {
	preparePkg, prepare = funcName(op.Prepared.Prepare)
	kernelPkg, kernel = funcName(op.Prepared.Kernel)
	return
}
