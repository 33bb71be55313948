// This file shows saving and loading a model's weights in safetensors.

package nn_test

import (
	"bytes"
	"fmt"

	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// Net is a small model: its state-dict names are fc.weight and fc.bias.
type Net struct{ Fc *nn.Linear }

func ExampleLoadSafetensors() {
	trained := &Net{Fc: nn.NewLinear(2, 1)}
	copy(trained.Fc.Weight.Float32s(), []float32{0.5, -1})
	copy(trained.Fc.Bias.Float32s(), []float32{2})

	// Save as PyTorch would with safetensors.torch.save_file(model.state_dict()).
	var file bytes.Buffer
	if err := nn.SaveSafetensors(&file, trained); err != nil {
		fmt.Println(err)
		return
	}

	// Load into a freshly initialised model, strictly: every name must match.
	m := &Net{Fc: nn.NewLinear(2, 1)}
	if err := nn.LoadSafetensors(bytes.NewReader(file.Bytes()), m); err != nil {
		fmt.Println(err)
		return
	}
	y := m.Fc.Forward(tensor.FromFloat32([]float32{4, 1}, 1, 2))
	fmt.Println(y.Float32s())

	// A model with other names is refused, naming what does not match.
	type Other struct{ Head *nn.Linear }
	err := nn.LoadSafetensors(bytes.NewReader(file.Bytes()), &Other{Head: nn.NewLinear(2, 1)})
	fmt.Println(err)
	// Output:
	// [3]
	// nn: load: missing head.weight (f32[1,2] in the model)
	// nn: load: missing head.bias (f32[1] in the model)
	// nn: load: unexpected fc.bias (not in the model)
	// nn: load: unexpected fc.weight (not in the model)
}
