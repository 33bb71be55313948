// This file defines Op, one entry of the op table, and the schema of its
// operands, attributes and Go and module forms.

package ir

import (
	"reflect"

	"github.com/fxgen/fxgen/runtime"
)

// OperandKind says what one operand of an op accepts.
type OperandKind uint8

// The operand kinds.
const (
	// TensorOperand is a tensor.
	TensorOperand OperandKind = iota
	// NumberOperand is a tensor or a number literal (float64 or int), which
	// behaves as a 0-d tensor: f32 for a float, i64 for an int.
	NumberOperand
	// OptionalOperand is a tensor or nil.
	OptionalOperand
	// ListOperand is a list of tensors ([]Arg of nodes).
	ListOperand
	// TupleOperand is a node with several results.
	TupleOperand
)

// Operand declares one operand of an op.
type Operand struct {
	Name string
	Kind OperandKind
}

// AttrKind is the Go type of an attribute's value.
type AttrKind uint8

// The attribute kinds and the Go types of their values.
const (
	IntAttr   AttrKind = iota // int
	FloatAttr                 // float64
	BoolAttr                  // bool
	IntsAttr                  // []int
	DTypeAttr                 // DType
)

var attrGoTypes = [...]reflect.Type{
	IntAttr:   reflect.TypeFor[int](),
	FloatAttr: reflect.TypeFor[float64](),
	BoolAttr:  reflect.TypeFor[bool](),
	IntsAttr:  reflect.TypeFor[[]int](),
	DTypeAttr: reflect.TypeFor[DType](),
}

// Attr declares one attribute of an op. An attribute with a nil Default is
// required. A ShapeOnly attribute decides the result type and is not passed
// to the kernel.
type Attr struct {
	Name      string
	Kind      AttrKind
	Default   any
	ShapeOnly bool
}

// Op is one entry of the op table: everything the eager tensor, the
// tracer, shape inference, the interpreter, the emitter and the generated
// Go and docs know of an op. The table is the Op values declared in the
// ops_*.go files, one family a file; `go generate ./ir` writes from it the
// op name constants and kernel calls of this package, the methods and
// functions of package tensor, the leaf modules of package nn and the
// reference docs/ops.md (see internal/gen/opgen).
//
// The kernel is a function of package runtime whose parameters are, in
// order, one *runtime.Array per result, one per operand ([]*runtime.Array
// for a list operand) and one per attribute that is not ShapeOnly, with the
// attribute's Go type. An op whose number of results depends on its
// attributes (split, chunk) takes them all as one leading []*runtime.Array
// parameter instead. A kernel handles every dtype the op's Infer accepts
// (it switches on its operands' dtype). The emitter calls it by name;
// eager execution calls it through a generated typed call
// (op_kernelcalls_gen.go), without reflection. An op with a nil Kernel
// (getitem) is handled by the interpreter and the emitter themselves.
type Op struct {
	Name string
	// Torch is the PyTorch spelling of the op, such as "torch.relu",
	// for the reference docs; "" for an op of fxgen's own (fused ops).
	Torch    string
	Doc      string
	Operands []Operand
	Attrs    []Attr
	// Infer returns the result types, or an error that explains the
	// mismatch without naming the op (the caller prefixes it).
	Infer  func(s *Sig) ([]Type, error)
	Kernel any
	// Fusion says how passes may fuse the op (see FusionClass).
	Fusion FusionClass
	// Epilogue is the fused GEMM and convolution epilogue computing the op
	// (runtime.Activation: ActReLU, ActGELU, ActReLU6, ActSiLU) for an op of class
	// FuseEpilogue.
	Epilogue int
	// Reshape is set for an op whose result holds its one tensor
	// operand's elements in the same order (reshape, view, flatten,
	// unsqueeze, squeeze): on a dense array it only changes the shape, so
	// the memory plan may make it a view and it costs no arithmetic.
	Reshape bool
	// PerSample is set for an op that computes each index of its
	// result's first dimension from that index of its input-dependent
	// operands' first dimension alone, the same whatever the other
	// indices hold (convolutions, pooling, batch norm in eval mode, linear
	// layers), as pointwise ops and reshapes that keep the first
	// dimension do too: a graph of such ops over a batch may run a slice
	// of the batch at a time (plan.BatchChunk).
	PerSample bool
	// Go is the op's Go spelling in package tensor.
	Go GoForm
	// Module is the op's standard leaf module in package nn, if any; it
	// registers the ModuleKind of that name.
	Module *ModuleForm
	// Func runs an op that has no runtime kernel, such as a user function
	// wrapped with tracer.Wrap; args are as for Eval.
	Func func(args []any, kwargs []Kwarg) ([]*runtime.Array, error)
	// Wrapped is the user's Go function behind Func, which generated code
	// calls by name: a package-level func(...*tensor.Tensor) *tensor.Tensor.
	Wrapped any
	// GoFunc is the qualified name ("example.com/m.Norm") of the Go
	// function a wrapped op calls, for a graph decoded from JSON, where
	// Wrapped is nil; "" when the function cannot be called by name.
	GoFunc string
	// Prepared, if set, says that one operand can be prepared once, when
	// its value depends on no input, into a form an alternative kernel
	// takes instead (a linear layer's weight packed for the GEMM).
	Prepared *Prepared
	// Program, if set, says that the op's program attribute (the code of
	// a runtime.ElementwiseProgram) is built once by compiled code's
	// constructor, and what it then calls instead of Kernel.
	Program *Program

	// call calls Kernel: directly, or through reflection when reflective
	// is set (a kernel of a signature the table does not have).
	call       kernelCall
	reflective bool
	// kernelAttrs are the attributes passed to the kernel.
	kernelAttrs []Attr
	// listResults is set when the kernel takes its results as one
	// []*runtime.Array.
	listResults bool
}

// FusionClass says how the passes may fuse an op with its neighbours.
type FusionClass uint8

// The fusion classes.
const (
	// FuseNone is an op no fusion pass takes.
	FuseNone FusionClass = iota
	// FusePointwise is an elementwise op: each result element depends only
	// on the operands' elements at the same (broadcast) index, so a group
	// of them can run as one fused loop.
	FusePointwise
	// FuseEpilogue is a pointwise op of one tensor that the GEMM and
	// convolution kernels can also apply as their epilogue (Op.Epilogue).
	FuseEpilogue
)

// String returns the class's name as the reference docs show it.
func (c FusionClass) String() string {
	switch c {
	case FusePointwise:
		return "pointwise"
	case FuseEpilogue:
		return "epilogue"
	}
	return ""
}

// GoForm is an op's Go spelling in package tensor. The generator writes
// the method and the function (tensor/ops_gen.go) unless Hand is set: the
// op's tensor operands become *tensor.Tensor parameters (the first one the
// receiver of the method), its attributes parameters of their Go type in
// declaration order, the last []int one variadic when Variadic is set.
type GoForm struct {
	// Method and Function are the names of the Tensor method and of the
	// package function; "" for none.
	Method, Function string
	// Scalar names a method taking a float64 for the op's last operand, a
	// NumberOperand (AddScalar); ScalarFirst a function taking a float64
	// for the first operand (RSub for 1 - z).
	Scalar, ScalarFirst string
	// Returns says what the function returns, in terms of the operand
	// names, for the generated doc comments: "max(input, 0)".
	Returns string
	// Variadic makes the last attribute, an IntsAttr, variadic.
	Variadic bool
	// Hand is set when package tensor spells the op by hand (a signature
	// the generator cannot derive); the names still go to the docs.
	Hand bool
}

// ModuleForm is an op's standard leaf module in package nn: a call_module
// of kind Name runs the op with the node's args as its leading operands,
// the module's parameters (Params, in order) as the rest, and the
// module's attributes as the op's. The generator writes the module type
// (tensor/nn/modules_gen.go) unless Hand is set: a struct with one
// exported field per attribute, a constructor NewName taking them in
// order, and a Forward that calls the op's package function.
type ModuleForm struct {
	Name   string   // the module kind, and the Go type unless GoType says, e.g. "ReLU6"
	GoType string   // the Go type when it is not Name (GELU for kind GELUTanh)
	Torch  string   // the PyTorch module, e.g. "torch.nn.ReLU6"
	Params []string // parameter names, e.g. "weight", "bias"
	Hand   bool     // written by hand in package nn
}

// KernelAttrs returns the attributes passed to the kernel, in order.
func (op *Op) KernelAttrs() []Attr {
	if op.kernelAttrs != nil {
		return op.kernelAttrs
	}
	var out []Attr
	for _, a := range op.Attrs {
		if !a.ShapeOnly {
			out = append(out, a)
		}
	}
	return out
}

// attr returns the declaration of the attribute named name.
func (op *Op) attr(name string) (Attr, bool) {
	for _, a := range op.Attrs {
		if a.Name == name {
			return a, true
		}
	}
	return Attr{}, false
}
