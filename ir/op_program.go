// This file defines Program, the compiled form of an op whose program
// attribute is an elementwise program (fused_elementwise, attention).

package ir

import (
	"fmt"
	"reflect"

	"github.com/fxgen/fxgen/runtime"
)

// Program describes how compiled code calls an op with a program
// attribute (the int code of a runtime.ElementwiseProgram): the
// constructor decodes the program once, and Forward calls Kernel with the
// op kernel's arguments but the *runtime.ElementwiseProgram in place of
// the program attribute. Inputs returns how many inputs the program of a
// call with args reads.
type Program struct {
	Kernel any
	Inputs func(args []Arg) int
}

var programType = reflect.TypeOf((*runtime.ElementwiseProgram)(nil))

// CheckProgram verifies op.Program against the op's kernel: the op has a
// program attribute of ints, and Program.Kernel has the kernel's
// parameters but *runtime.ElementwiseProgram for that attribute. It
// returns nil when op.Program is nil.
func (op *Op) CheckProgram() error {
	pr := op.Program
	if pr == nil {
		return nil
	}
	if op.Kernel == nil || pr.Inputs == nil {
		return fmt.Errorf("program: the op needs a kernel and Program.Inputs")
	}
	at := op.ProgramAttr()
	if at < 0 {
		return fmt.Errorf("program: the op has no ints attribute named program")
	}
	kt := reflect.TypeOf(op.Kernel)
	return kernelVariant("program kernel", pr.Kernel, kt, kt.NumIn()-len(op.KernelAttrs())+at, programType)
}

// ProgramAttr returns the index among the kernel's attributes of the
// program attribute, or -1.
func (op *Op) ProgramAttr() int {
	for i, a := range op.KernelAttrs() {
		if a.Name == "program" && a.Kind == IntsAttr {
			return i
		}
	}
	return -1
}

// ProgramKernelName returns the package path and name of the kernel
// compiled code calls for op, which must have Program.
func (op *Op) ProgramKernelName() (pkg, name string) { return funcName(op.Program.Kernel) }
