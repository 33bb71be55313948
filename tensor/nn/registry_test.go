package nn_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// heldByMethod holds a Linear only as a method value.
type heldByMethod struct {
	FC1 *nn.Linear
	Out func(*tensor.Tensor) *tensor.Tensor
}

// hiddenBlock is a user module that no field of its model holds.
type hiddenBlock struct{ Proj *nn.Linear }

func (b *hiddenBlock) Forward(x *tensor.Tensor) *tensor.Tensor { return b.Proj.Forward(x) }

// laterBlock is met in a field after the method value that holds another
// one.
type laterBlock struct{ Proj *nn.Linear }

func (b *laterBlock) Forward(x *tensor.Tensor) *tensor.Tensor { return b.Proj.Forward(x) }

type methodFirst struct {
	Head func(*tensor.Tensor) *tensor.Tensor
	Body *laterBlock
}

func TestMethodValueParameters(t *testing.T) {
	fc2 := nn.NewLinear(3, 2)
	m := &heldByMethod{FC1: nn.NewLinear(4, 3), Out: fc2.Forward}
	if got, want := paramNames(m), "fc1.weightf32[3,4] fc1.biasf32[3] out.weightf32[2,3] out.biasf32[2]"; got != want {
		t.Fatalf("params: got %q, want %q", got, want)
	}
	sd := map[string]*tensor.Tensor{}
	for name, x := range nn.StateDict(&heldByMethod{FC1: nn.NewLinear(4, 3), Out: nn.NewLinear(3, 2).Forward}) {
		sd[name] = x
	}
	if err := nn.LoadStateDict(m, sd); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fc2.Weight.Float32s(), sd["out.weight"].Float32s()) {
		t.Error("the Linear behind the method value was not loaded")
	}
	// A method value met before the field that holds its type's module.
	if got, want := paramNames(&methodFirst{Head: (&laterBlock{nn.NewLinear(2, 2)}).Forward, Body: &laterBlock{nn.NewLinear(2, 2)}}),
		"head.proj.weightf32[2,2] head.proj.biasf32[2] body.proj.weightf32[2,2] body.proj.biasf32[2]"; got != want {
		t.Errorf("params: got %q, want %q", got, want)
	}
}

func TestMethodValueOfUnknownType(t *testing.T) {
	m := &heldByMethod{FC1: nn.NewLinear(4, 3), Out: (&hiddenBlock{nn.NewLinear(3, 2)}).Forward}
	err := nn.LoadStateDict(m, nn.StateDict(m))
	if err == nil || !strings.Contains(err.Error(), "out holds a method value of *github.com/fxgen/fxgen/tensor/nn_test.hiddenBlock") || !strings.Contains(err.Error(), "nn.RegisterModule[*nn_test.hiddenBlock]()") {
		t.Fatalf("load with a method value of an unregistered type: %v", err)
	}
	nn.RegisterModule[*hiddenBlock]()
	if got, want := paramNames(m), "fc1.weightf32[3,4] fc1.biasf32[3] out.proj.weightf32[2,3] out.proj.biasf32[2]"; got != want {
		t.Errorf("after RegisterModule, params: got %q, want %q", got, want)
	}
	if err := nn.LoadStateDict(m, nn.StateDict(m)); err != nil {
		t.Errorf("after RegisterModule: %v", err)
	}
}

// TestWalkIndependentOfHistory: a type met in one model's fields does not
// make a method value of it walkable in another model: what a walk finds
// depends on the model alone.
func TestWalkIndependentOfHistory(t *testing.T) {
	_ = paramNames(&methodFirst{Head: (&laterBlock{nn.NewLinear(2, 2)}).Forward, Body: &laterBlock{nn.NewLinear(2, 2)}})
	m := &heldByMethod{FC1: nn.NewLinear(4, 3), Out: (&laterBlock{nn.NewLinear(3, 2)}).Forward}
	if got, want := paramNames(m), "fc1.weightf32[3,4] fc1.biasf32[3]"; got != want {
		t.Errorf("params after walking another model: got %q, want %q", got, want)
	}
	if err := nn.LoadStateDict(m, nn.StateDict(m)); err == nil || !strings.Contains(err.Error(), "laterBlock") {
		t.Errorf("load: %v, want the unknown method value named", err)
	}
}
