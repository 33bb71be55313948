// This file holds the calls of an op: its kernel's calling convention,
// type inference of a call and eager evaluation.

package ir

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/fxgen/fxgen/runtime"
)

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
	return op.inferTypes(&Sig{Op: op, Args: args, Kwargs: kwargs})
}

// inferTypes is InferTypes of s.Args and s.Kwargs.
func (op *Op) inferTypes(s *Sig) ([]Type, error) {
	args := s.Args
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
	types, err := op.Infer(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", op.Name, err)
	}
	for _, t := range types {
		if !t.Shape.Countable() {
			return nil, fmt.Errorf("%s: result type %v has more elements than an int can count", op.Name, t)
		}
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
	sc := evalScratches.Get().(*evalScratch)
	defer sc.release()
	ats := sc.ats[:0]
	if len(args) > len(sc.ats) {
		ats = make([]ArgType, 0, len(args))
	}
	ats = ats[:len(args)]
	for i, a := range args {
		switch x := a.(type) {
		case *runtime.Array:
			if x == nil {
				ats[i].Absent = true
			} else {
				ats[i].Type = sc.typeOf(x)
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
	sc.sig = Sig{Op: op, Args: ats, Kwargs: kwargs}
	types, err := op.inferTypes(&sc.sig)
	if err != nil {
		return nil, err
	}
	outs := make([]*runtime.Array, len(types))
	for i, t := range types {
		dims := sc.ints[:0]
		for _, d := range t.Shape {
			if !d.IsConst() {
				return nil, fmt.Errorf("%s: result %d has symbolic shape %v on concrete inputs", op.Name, i, t.Shape)
			}
			dims = append(dims, d.Coef)
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
// turned into 0-d arrays) and the kernel attributes of kwargs. The call is
// direct, through the typed call go generate wrote for the kernel's
// signature (op_kernelcalls_gen.go), for every op of the table; only an op
// registered elsewhere with a signature the table lacks is called through
// reflection.
func (op *Op) CallKernel(outs []*runtime.Array, args []any, kwargs []Kwarg) {
	k := kernelArgsPool.Get().(*kernelArgs)
	defer k.release()
	k.arrays = k.arrayBuf[:0]
	if op.listResults {
		k.lists = append(k.lists, outs)
	} else {
		k.arrays = append(k.arrays, outs...)
	}
	for i, a := range args {
		switch x := a.(type) {
		case nil:
			k.arrays = append(k.arrays, nil)
		case *runtime.Array:
			k.arrays = append(k.arrays, x)
		case []*runtime.Array:
			if op.Operands[i].Kind == ListOperand {
				k.lists = append(k.lists, x)
			} else {
				panic(fmt.Sprintf("ir: op %s: operand %d is a list", op.Name, i))
			}
		default:
			k.arrays = append(k.arrays, NumberArray(a))
		}
	}
	if attrs := op.KernelAttrs(); len(attrs) > 0 {
		s := Sig{Op: op, Kwargs: kwargs}
		k.attrs = k.attrBuf[:0]
		for _, a := range attrs {
			k.attrs = append(k.attrs, s.Value(a.Name))
		}
	}
	op.call(k)
}

// kernelArgs are the arguments of one kernel call, by parameter type in
// parameter order: the typed call of a kernel signature takes its
// *runtime.Array parameters from arrays, its []*runtime.Array ones from
// lists and the rest from attrs.
type kernelArgs struct {
	arrays []*runtime.Array
	lists  [][]*runtime.Array
	attrs  []any

	arrayBuf [8]*runtime.Array
	attrBuf  [6]any
}

var kernelArgsPool = sync.Pool{New: func() any { return new(kernelArgs) }}

// release clears k and returns it to the pool.
func (k *kernelArgs) release() {
	*k = kernelArgs{}
	kernelArgsPool.Put(k)
}

// evalScratch is the scratch memory of one eager call's type inference,
// pooled so that a call allocates only its results and its type rule's
// slices.
type evalScratch struct {
	ats  [4]ArgType
	sig  Sig
	dims [16]Dim // the operands' shapes
	used int     // dims in use
	ints [8]int  // a result's sizes
}

// typeOf is TypeOf(a) with its shape in sc.dims while they last: the
// shapes of a call's types live only as long as the call.
func (sc *evalScratch) typeOf(a *runtime.Array) Type {
	n := len(a.Shape)
	if sc.used+n > len(sc.dims) {
		return TypeOf(a)
	}
	shape := Shape(sc.dims[sc.used : sc.used+n : sc.used+n])
	sc.used += n
	for i, d := range a.Shape {
		shape[i] = Const(d)
	}
	return Type{DType: a.DType, Shape: shape}
}

var evalScratches = sync.Pool{New: func() any { return new(evalScratch) }}

// release clears sc and returns it to the pool.
func (sc *evalScratch) release() {
	*sc = evalScratch{}
	evalScratches.Put(sc)
}

// reflectCaller calls kernel k through reflection: the fallback for a
// kernel whose signature no op of the table has.
func reflectCaller(k any) kernelCall {
	fn := reflect.ValueOf(k)
	t := fn.Type()
	return func(a *kernelArgs) {
		in := make([]reflect.Value, t.NumIn())
		na, nl, nx := 0, 0, 0
		for i := range in {
			switch t.In(i) {
			case arrayPtrType:
				in[i] = reflect.ValueOf(a.arrays[na])
				na++
			case arraySliceTyp:
				in[i] = reflect.ValueOf(a.lists[nl])
				nl++
			default:
				in[i] = reflect.ValueOf(a.attrs[nx])
				nx++
			}
		}
		fn.Call(in)
	}
}

// kernelCall calls one kernel with its arguments.
type kernelCall func(k *kernelArgs)
