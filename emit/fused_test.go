package emit_test

import (
	"strings"
	"testing"

	"github.com/fxgen/fxgen/passes"
	"github.com/fxgen/fxgen/tensor"
)

// gates is elementwise arithmetic of an LSTM cell with a scaled, masked
// score: two fused groups.
type gates struct{ Mask *tensor.Tensor }

func (m *gates) Forward(x *tensor.Tensor) *tensor.Tensor {
	y := tensor.Mul(tensor.Sigmoid(x), tensor.Tanh(x))
	return y.DivScalar(8).MaskedFill(m.Mask, -1e30).Relu()
}

func TestFusedElementwiseCode(t *testing.T) {
	src, _ := generate(t, &gates{Mask: tensor.FromBool([]bool{true, false, true, false}, 4)}, passes.Default, "x=f32[N,4]")
	ctor := section(src, "func NewModelCompiled")
	fwd := section(src, "func (c *ModelCompiled) Forward")
	if got := strings.Count(ctor, "runtime.NewElementwiseProgram("); got != 1 {
		t.Errorf("constructor builds %d programs, want 1 (the whole chain):\n%s", got, ctor)
	}
	for _, want := range []string{"{Op: runtime.ElemSigmoid, A: 0}", "{Op: runtime.ElemMul, A: 2, B: 3}", "{Op: runtime.ElemDivScalar, A: 4, C: 8.0}",
		"{Op: runtime.ElemMaskedFill, A: 5, B: 1, C: -1.0000000150474662e+30}", "// fused_test.go:16: r3 = tanh(x)", "// fused_test.go:16: r4 = mul(r2, r3)", "// fused_test.go:17: relu = relu(r6)"} {
		if !strings.Contains(ctor, want) {
			t.Errorf("the program lacks %q:\n%s", want, ctor)
		}
	}
	if !strings.Contains(fwd, "runtime.RunElementwiseProgram(relu, []*runtime.Array{xArr, c.mask}, c.relu_program, false)") || strings.Contains(fwd, "runtime.Sigmoid(") {
		t.Errorf("Forward does not run the one program:\n%s", fwd)
	}
	if got := strings.Count(fwd, "// fused_test.go:"); got != 7 {
		t.Errorf("Forward has %d source comments, want 7 (the group and its 6 ops):\n%s", got, fwd)
	}
}
