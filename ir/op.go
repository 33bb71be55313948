// This file defines Op, one entry of the op vocabulary, and its registry.

package ir

import (
	"fmt"
	"reflect"
	goruntime "runtime"
	"sort"
	"strings"

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

// Op is one entry of the op vocabulary: everything the eager tensor, the
// tracer, shape inference, the interpreter and the emitter know of an op.
//
// The kernel is a function of package runtime whose parameters are, in
// order, one *runtime.Array per result, one per operand ([]*runtime.Array
// for a list operand) and one per attribute that is not ShapeOnly, with the
// attribute's Go type. An op whose number of results depends on its
// attributes (split, chunk) takes them all as one leading []*runtime.Array
// parameter instead. The emitter calls it by name; eager execution calls
// it through reflection. An op with a nil Kernel (getitem) is handled by
// the interpreter and the emitter themselves.
type Op struct {
	Name     string
	Doc      string
	Operands []Operand
	Attrs    []Attr
	// Infer returns the result types, or an error that explains the
	// mismatch without naming the op (the caller prefixes it).
	Infer  func(s *Sig) ([]Type, error)
	Kernel any
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

	kernel reflect.Value
	// listResults is set when the kernel takes its results as one
	// []*runtime.Array.
	listResults bool
}

var opTable = map[string]*Op{}

// RegisterOp adds op to the vocabulary. It panics if the name is taken or
// the kernel's signature does not follow the calling convention.
func RegisterOp(op *Op) {
	if _, dup := opTable[op.Name]; dup {
		panic("ir: RegisterOp: duplicate op " + op.Name)
	}
	if op.Kernel != nil {
		if err := op.checkKernel(); err != nil {
			panic("ir: RegisterOp: " + op.Name + ": " + err.Error())
		}
		op.kernel = reflect.ValueOf(op.Kernel)
	}
	if err := op.CheckPrepared(); err != nil {
		panic("ir: RegisterOp: " + op.Name + ": " + err.Error())
	}
	opTable[op.Name] = op
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

// KernelAttrs returns the attributes passed to the kernel, in order.
func (op *Op) KernelAttrs() []Attr {
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

var (
	arrayPtrType  = reflect.TypeFor[*runtime.Array]()
	arraySliceTyp = reflect.TypeFor[[]*runtime.Array]()
)

// checkKernel verifies the kernel against the calling convention, with one
// result per result of Infer on a fresh sig; the result count is taken from
// the kernel (leading *Array parameters beyond the operands).
func (op *Op) checkKernel() error {
	t := reflect.TypeOf(op.Kernel)
	if t.Kind() != reflect.Func || t.NumOut() != 0 {
		return fmt.Errorf("kernel %T is not a func without results", op.Kernel)
	}
	var want []reflect.Type
	for _, o := range op.Operands {
		if o.Kind == ListOperand {
			want = append(want, arraySliceTyp)
		} else {
			want = append(want, arrayPtrType)
		}
	}
	for _, a := range op.KernelAttrs() {
		want = append(want, attrGoTypes[a.Kind])
	}
	if t.NumIn() == len(want)+1 && t.NumIn() > 0 && t.In(0) == arraySliceTyp {
		for i, w := range want {
			if t.In(i+1) != w {
				return fmt.Errorf("kernel %v: parameter %d is %v, want %v", t, i+1, t.In(i+1), w)
			}
		}
		op.listResults = true
		return nil
	}
	results := t.NumIn() - len(want)
	if results < 1 {
		return fmt.Errorf("kernel %v has too few parameters", t)
	}
	for i := 0; i < t.NumIn(); i++ {
		w := arrayPtrType
		if i >= results {
			w = want[i-results]
		}
		if t.In(i) != w {
			return fmt.Errorf("kernel %v: parameter %d is %v, want %v", t, i, t.In(i), w)
		}
	}
	return nil
}

// KernelResults returns the number of results the kernel writes, or -1
// when it takes them as one slice (see ListResults).
func (op *Op) KernelResults() int {
	if op.Kernel == nil {
		return 0
	}
	if op.listResults {
		return -1
	}
	return reflect.TypeOf(op.Kernel).NumIn() - len(op.Operands) - len(op.KernelAttrs())
}

// ListResults reports whether the kernel takes its results as one leading
// []*runtime.Array, for ops whose number of results varies (split, chunk).
func (op *Op) ListResults() bool { return op.listResults }

// Kwarg is one named attribute value of a call.
type Kwarg struct {
	Name  string
	Value any
}

// ArgType is the static view of one operand of a call.
type ArgType struct {
	Type   Type   // a tensor or number operand
	List   []Type // a list operand
	Tuple  []Type // a tuple operand
	Absent bool   // an optional operand given as nil
	Number bool   // a number literal
	// Sizes holds, for a list operand, the static value of each element
	// that is a size: an int literal, a 0-d int64 array, or a node of a
	// graph computed from sizes (see SizeValue); nil for the others.
	Sizes []*Dim
}

// Sig is the static view of one call of an op: operand types and
// attributes. Infer rules read it.
type Sig struct {
	Op     *Op
	Args   []ArgType
	Kwargs []Kwarg
}

// Value returns the attribute's value (its default when not given).
func (s *Sig) Value(name string) any {
	for _, kw := range s.Kwargs {
		if kw.Name == name {
			return kw.Value
		}
	}
	a, ok := s.Op.attr(name)
	if !ok {
		panic("ir: op " + s.Op.Name + " has no attribute " + name)
	}
	return a.Default
}

// Int returns an IntAttr attribute.
func (s *Sig) Int(name string) int { return s.Value(name).(int) }

// Float returns a FloatAttr attribute.
func (s *Sig) Float(name string) float64 { return s.Value(name).(float64) }

// Bool returns a BoolAttr attribute.
func (s *Sig) Bool(name string) bool { return s.Value(name).(bool) }

// Ints returns an IntsAttr attribute.
func (s *Sig) Ints(name string) []int { return s.Value(name).([]int) }

// DType returns a DTypeAttr attribute.
func (s *Sig) DType(name string) DType { return s.Value(name).(DType) }

// NormalizeKwargs checks kwargs against the op's attributes, converts
// values to their kind's Go type (an int for an IntsAttr becomes a list,
// an int for a FloatAttr a float64) and reports missing required ones.
func (op *Op) NormalizeKwargs(kwargs []Kwarg) ([]Kwarg, error) {
	out := make([]Kwarg, 0, len(kwargs))
	seen := map[string]bool{}
	for _, kw := range kwargs {
		a, ok := op.attr(kw.Name)
		if !ok {
			return nil, fmt.Errorf("unknown attribute %q (have %s)", kw.Name, op.attrNames())
		}
		if seen[kw.Name] {
			return nil, fmt.Errorf("attribute %q given twice", kw.Name)
		}
		seen[kw.Name] = true
		v, err := convertAttr(a, kw.Value)
		if err != nil {
			return nil, err
		}
		out = append(out, Kwarg{kw.Name, v})
	}
	for _, a := range op.Attrs {
		if a.Default == nil && !seen[a.Name] {
			return nil, fmt.Errorf("missing required attribute %q", a.Name)
		}
	}
	return out, nil
}

func (op *Op) attrNames() string {
	var names []string
	for _, a := range op.Attrs {
		names = append(names, a.Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func convertAttr(a Attr, v any) (any, error) {
	switch a.Kind {
	case IntAttr:
		if i, ok := v.(int); ok {
			return i, nil
		}
	case FloatAttr:
		switch x := v.(type) {
		case float64:
			return x, nil
		case float32:
			return float64(x), nil
		case int:
			return float64(x), nil
		}
	case BoolAttr:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case IntsAttr:
		switch x := v.(type) {
		case []int:
			return append([]int{}, x...), nil
		case int:
			return []int{x}, nil
		}
	case DTypeAttr:
		if d, ok := v.(DType); ok {
			return d, nil
		}
	}
	return nil, fmt.Errorf("attribute %q: got %T (%v), want %v", a.Name, v, v, attrGoTypes[a.Kind])
}

// IsNumber reports whether v is a number literal operand.
func IsNumber(v any) bool {
	switch v.(type) {
	case float64, int:
		return true
	}
	return false
}

// NumberType returns the 0-d type of a number literal: f32 for a float,
// i64 for an int.
func NumberType(v any) Type {
	if _, ok := v.(int); ok {
		return Type{DType: Int64, Shape: Shape{}}
	}
	return Type{DType: Float32, Shape: Shape{}}
}

// NumberArray returns the 0-d array of a number literal.
func NumberArray(v any) *runtime.Array {
	switch x := v.(type) {
	case int:
		return runtime.Int64Scalar(int64(x))
	case float64:
		return runtime.Float32Scalar(float32(x))
	}
	panic(fmt.Sprintf("ir: NumberArray: %T is not a number", v))
}

// InferTypes checks a call's operands and attributes and returns its result
// types; errors are prefixed with the op's name.
func (op *Op) InferTypes(args []ArgType, kwargs []Kwarg) ([]Type, error) {
	if len(args) != len(op.Operands) {
		return nil, fmt.Errorf("%s: got %d operands, want %d (%s)", op.Name, len(args), len(op.Operands), op.operandNames())
	}
	for i, o := range op.Operands {
		a := args[i]
		bad := ""
		switch o.Kind {
		case TensorOperand:
			if a.Absent || a.Number || a.List != nil || a.Tuple != nil {
				bad = "a tensor"
			}
		case NumberOperand:
			if a.Absent || a.List != nil || a.Tuple != nil {
				bad = "a tensor or a number"
			}
		case OptionalOperand:
			if a.Number || a.List != nil || a.Tuple != nil {
				bad = "a tensor or nil"
			}
		case ListOperand:
			if a.List == nil {
				bad = "a list of tensors"
			}
		case TupleOperand:
			if a.Tuple == nil {
				bad = "a node with several results"
			}
		}
		if bad != "" {
			return nil, fmt.Errorf("%s: operand %s must be %s", op.Name, o.Name, bad)
		}
	}
	types, err := op.Infer(&Sig{Op: op, Args: args, Kwargs: kwargs})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", op.Name, err)
	}
	return types, nil
}

func (op *Op) operandNames() string {
	var names []string
	for _, o := range op.Operands {
		names = append(names, o.Name)
	}
	return strings.Join(names, ", ")
}

// Eval runs op eagerly. Each arg is a *runtime.Array, a []*runtime.Array
// for a list operand, nil for an absent optional operand, or a number
// literal; kwargs must be normalized.
func (op *Op) Eval(args []any, kwargs []Kwarg) ([]*runtime.Array, error) {
	if op.Kernel == nil && op.Func == nil {
		return nil, fmt.Errorf("%s: no kernel", op.Name)
	}
	ats := make([]ArgType, len(args))
	for i, a := range args {
		switch x := a.(type) {
		case *runtime.Array:
			if x == nil {
				ats[i].Absent = true
			} else {
				ats[i].Type = TypeOf(x)
			}
		case []*runtime.Array:
			ats[i].List = make([]Type, len(x))
			ats[i].Sizes = make([]*Dim, len(x))
			for j, e := range x {
				ats[i].List[j] = TypeOf(e)
				if e.DType == Int64 && len(e.Shape) == 0 {
					ats[i].Sizes[j] = &Dim{Coef: int(e.I64[0])}
				}
			}
		case nil:
			ats[i].Absent = true
		default:
			if !IsNumber(a) {
				return nil, fmt.Errorf("%s: operand %d: unsupported value %T", op.Name, i, a)
			}
			ats[i].Number = true
			ats[i].Type = NumberType(a)
		}
	}
	types, err := op.InferTypes(ats, kwargs)
	if err != nil {
		return nil, err
	}
	outs := make([]*runtime.Array, len(types))
	for i, t := range types {
		dims, ok := t.Shape.Ints()
		if !ok {
			return nil, fmt.Errorf("%s: result %d has symbolic shape %v on concrete inputs", op.Name, i, t.Shape)
		}
		outs[i] = runtime.NewArray(t.DType, dims...)
	}
	if op.Kernel == nil {
		res, err := op.Func(args, kwargs)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", op.Name, err)
		}
		if len(res) != len(outs) {
			return nil, fmt.Errorf("%s: returned %d results, want %d", op.Name, len(res), len(outs))
		}
		for i, r := range res {
			if !TypeOf(r).Equal(TypeOf(outs[i])) {
				return nil, fmt.Errorf("%s: result %d is %v, its type rule says %v", op.Name, i, TypeOf(r), TypeOf(outs[i]))
			}
		}
		return res, nil
	}
	op.CallKernel(outs, args, kwargs)
	return outs, nil
}

// CallKernel calls the kernel with results, operands (number literals are
// turned into 0-d arrays) and the kernel attributes of kwargs.
func (op *Op) CallKernel(outs []*runtime.Array, args []any, kwargs []Kwarg) {
	s := Sig{Op: op, Kwargs: kwargs}
	in := make([]reflect.Value, 0, len(outs)+len(args)+len(op.Attrs))
	if op.listResults {
		in = append(in, reflect.ValueOf(outs))
	} else {
		for _, o := range outs {
			in = append(in, reflect.ValueOf(o))
		}
	}
	for i, a := range args {
		switch {
		case a == nil:
			in = append(in, reflect.Zero(arrayPtrType))
		case IsNumber(a):
			in = append(in, reflect.ValueOf(NumberArray(a)))
		case op.Operands[i].Kind == ListOperand:
			in = append(in, reflect.ValueOf(a.([]*runtime.Array)))
		default:
			in = append(in, reflect.ValueOf(a.(*runtime.Array)))
		}
	}
	for _, a := range op.KernelAttrs() {
		in = append(in, reflect.ValueOf(s.Value(a.Name)))
	}
	op.kernel.Call(in)
}

// Prepared declares that operand Operand of an op can be prepared once by
// the runtime function Prepare, a func(*runtime.Array) P, into a value of
// type P (a pointer type, such as *runtime.PackedB) that Kernel, an
// alternative kernel, takes in that operand's place; every other parameter
// of Kernel is the op kernel's. Generated code uses it when the operand
// depends on no input (a parameter, or work hoisted from parameters): the
// compiled module's constructor calls Prepare and Forward calls Kernel,
// which must compute what the op's kernel computes. Eager execution and the
// interpreter keep calling the op's kernel.
type Prepared struct {
	Operand int
	Prepare any
	Kernel  any
}

// CheckPrepared verifies op.Prepared against the op's kernel: Operand is a
// tensor operand, Prepare is a func(*runtime.Array) P of a pointer type P
// other than *runtime.Array, and Kernel has the op kernel's parameters but
// P for that operand. It returns nil when op.Prepared is nil.
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
	if pt == nil || pt.Kind() != reflect.Func || pt.NumIn() != 1 || pt.In(0) != arrayPtrType || pt.NumOut() != 1 ||
		pt.Out(0).Kind() != reflect.Pointer || pt.Out(0) == arrayPtrType {
		return fmt.Errorf("prepare function %T, want func(*runtime.Array) P for a pointer type P", pr.Prepare)
	}
	prepared := pt.Out(0)
	kt, at := reflect.TypeOf(op.Kernel), reflect.TypeOf(pr.Kernel)
	if at == nil || at.Kind() != reflect.Func || at.NumOut() != 0 || at.NumIn() != kt.NumIn() {
		return fmt.Errorf("prepared kernel %T, want the parameters of %v with %v for operand %d", pr.Kernel, kt, prepared, pr.Operand)
	}
	at0 := op.KernelResults() + pr.Operand
	for i := 0; i < kt.NumIn(); i++ {
		want := kt.In(i)
		if i == at0 {
			want = prepared
		}
		if at.In(i) != want {
			return fmt.Errorf("prepared kernel %v: parameter %d is %v, want %v", at, i, at.In(i), want)
		}
	}
	return nil
}

// PreparedNames returns the package paths and names of the prepare
// function and the prepared kernel of op, which must have Prepared.
func (op *Op) PreparedNames() (preparePkg, prepare, kernelPkg, kernel string) {
	preparePkg, prepare = funcName(op.Prepared.Prepare)
	kernelPkg, kernel = funcName(op.Prepared.Kernel)
	return
}

func funcName(fn any) (pkg, name string) {
	full := goruntime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
	i := strings.LastIndexByte(full, '.')
	return full[:i], full[i+1:]
}
