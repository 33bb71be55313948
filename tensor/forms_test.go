package tensor_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fxgen/fxgen/internal/conformance"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tracer"
)

// goForms are the generated Go forms of one op (forms_gen_test.go).
type goForms struct {
	Method, Function, Scalar, ScalarFirst any
}

// TestGeneratedForms calls every generated method and function on the
// conformance samples of its op, with the attributes in declaration order
// (defaults where the sample has none), and requires the result of
// tensor.Apply on the op; number samples check the scalar forms. It proves
// that each form calls its op with its attributes in the right places.
func TestGeneratedForms(t *testing.T) {
	checked := map[string]bool{}
	for _, s := range conformance.Samples() {
		forms, ok := generatedForms[s.Op]
		if !ok {
			continue
		}
		op := ir.LookupOp(s.Op)
		r := rand.New(rand.NewPCG(1, 2))
		var ins []*tensor.Tensor
		for _, a := range s.RandomInputs(r, 2) {
			ins = append(ins, tensor.FromArray(a))
		}
		var tensors []reflect.Value
		var number any
		numberFirst := false
		args := make([]any, len(s.Args))
		for i, a := range s.Args {
			switch x := a.(type) {
			case conformance.Input:
				args[i] = ins[x]
				tensors = append(tensors, reflect.ValueOf(ins[x]))
			case []conformance.Input:
				var list []*tensor.Tensor
				for _, k := range x {
					list = append(list, ins[k])
				}
				args[i] = list
				tensors = append(tensors, reflect.ValueOf(list))
			case nil:
				args[i] = (*tensor.Tensor)(nil)
				tensors = append(tensors, reflect.ValueOf((*tensor.Tensor)(nil)))
			default:
				args[i], number, numberFirst = a, a, i == 0
			}
		}
		want := tensor.Apply(ir.CallFunction, s.Op, args, s.Kwargs...)[0]
		var attrs []reflect.Value
		for _, a := range op.Attrs {
			v := a.Default
			for _, kw := range s.Kwargs {
				if kw.Name == a.Name {
					v = kw.Value
				}
			}
			attrs = append(attrs, reflect.ValueOf(v))
		}
		check := func(form string, fn any, in []reflect.Value) {
			f := reflect.ValueOf(fn)
			call := f.Call
			if f.Type().IsVariadic() {
				call = f.CallSlice
			}
			got := call(in)[0].Interface().(*tensor.Tensor)
			if !sameTensor(got, want) {
				t.Errorf("%s: %s: got %v, want %v", s.Name, form, got, want)
			}
			checked[s.Op+" "+form] = true
		}
		if number == nil {
			in := append(append([]reflect.Value{}, tensors...), attrs...)
			if forms.Function != nil {
				check("function", forms.Function, in)
			}
			if forms.Method != nil {
				check("method", forms.Method, in)
			}
			continue
		}
		f, ok := number.(float64)
		if !ok {
			continue // the scalar forms take float64
		}
		if numberFirst && forms.ScalarFirst != nil {
			check("scalar-first function", forms.ScalarFirst, []reflect.Value{reflect.ValueOf(f), tensors[0]})
		}
		if !numberFirst && forms.Scalar != nil {
			check("scalar method", forms.Scalar, []reflect.Value{tensors[0], reflect.ValueOf(f)})
		}
	}
	for name, forms := range generatedForms {
		for form, fn := range map[string]any{"function": forms.Function, "method": forms.Method, "scalar method": forms.Scalar, "scalar-first function": forms.ScalarFirst} {
			if fn != nil && !checked[name+" "+form] {
				t.Errorf("op %s: no conformance sample checks its %s", name, form)
			}
		}
	}
}

func sameTensor(a, b *tensor.Tensor) bool {
	if a.Type().String() != b.Type().String() {
		return false
	}
	x, y := a.Array(), b.Array()
	for i := 0; i < x.Len(); i++ {
		if u, v := x.At(i), y.At(i); u != v && !(math.IsNaN(u) && math.IsNaN(v)) {
			return false
		}
	}
	return true
}

// TestRSubTraces checks that 1 - z written tensor.RSub(1, z) records
// sub(1.0, z), as torch.fx records 1 - z.
func TestRSubTraces(t *testing.T) {
	g, err := tracer.Trace(&rsub{}, tracer.MustParseInputs("z=f32[N,3]"))
	if err != nil {
		t.Fatal(err)
	}
	subs := g.FindNodes(ir.CallFunction, ir.OpSub)
	if len(subs) != 1 || subs[0].Args()[0] != 1.0 {
		t.Errorf("traced to\n%v\nwant sub(1.0, z)", g)
	}
}

type rsub struct{}

func (*rsub) Forward(z *tensor.Tensor) *tensor.Tensor { return tensor.RSub(1, z) }
