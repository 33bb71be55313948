package ir

import (
	"testing"

	"github.com/fxgen/fxgen/runtime"
)

// TestTableKernelsAreCalledDirectly fails when an op of the table would be
// called through reflection: run go generate ./ir.
func TestTableKernelsAreCalledDirectly(t *testing.T) {
	for _, op := range Ops() {
		if op.Kernel != nil && op.reflective {
			t.Errorf("op %s: kernel %T has no generated call: run go generate ./ir", op.Name, op.Kernel)
		}
	}
}

// TestReflectiveFallback registers an op whose kernel signature the table
// lacks and runs it eagerly.
func TestReflectiveFallback(t *testing.T) {
	op := &Op{
		Name:     "test_scale_shift",
		Operands: []Operand{{"input", TensorOperand}},
		Attrs:    []Attr{{Name: "scale", Kind: FloatAttr}, {Name: "shift", Kind: BoolAttr, Default: false}, {Name: "by", Kind: IntsAttr, Default: []int{1}}},
		Infer:    unaryRule(Float32),
		Kernel: func(out, x *runtime.Array, scale float64, shift bool, by []int) {
			for i, v := range x.F32 {
				out.F32[i] = v*float32(scale) + float32(by[0])
			}
		},
	}
	RegisterOp(op)
	defer delete(opTable, op.Name)
	if !op.reflective {
		t.Fatalf("kernel %T has a generated call; pick a signature the table lacks", op.Kernel)
	}
	outs, err := op.Eval([]any{runtime.FromFloat32([]float32{1, 2}, 2)}, []Kwarg{{"scale", 3.0}, {"by", []int{10}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := outs[0].F32; got[0] != 13 || got[1] != 16 {
		t.Errorf("got %v, want [13 16]", got)
	}
}
