package emit_test

import (
	"fmt"
	"strings"

	"github.com/fxgen/fxgen/emit"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

type Tiny struct{ Fc *nn.Linear }

func (m *Tiny) Forward(x *tensor.Tensor) *tensor.Tensor { return m.Fc.Forward(x).Relu() }

// Generate the compiled form of a traced model; here, its Forward.
func ExampleGenerate() {
	g, _ := tracer.Trace(&Tiny{Fc: nn.NewLinear(4, 3)}, tracer.MustParseInputs("x=f32[N,4]"))
	src, err := emit.Generate(g, emit.Config{Package: "tiny", Type: "Tiny"})
	if err != nil {
		fmt.Println(err)
		return
	}
	text := string(src)
	fmt.Print(text[strings.Index(text, "func (c *TinyCompiled) Forward"):])
	// Output:
	// func (c *TinyCompiled) Forward(x *tensor.Tensor) *tensor.Tensor {
	// 	c.snapshot.Check("TinyCompiled.Forward", "NewTinyCompiled")
	// 	xArr := x.Array()
	// 	runtime.CheckInput("TinyCompiled.Forward", "x", xArr, runtime.Float32, -1, 4)
	// 	N := xArr.Shape[0]
	// 	fr := c.frames.Get()
	// 	fr.reserve(N)
	// 	// example_test.go:15: fc = call_module fc(x)
	// 	runtime.LinearPacked(&fr.fc, xArr, c.fc_weight_prepared, c.fc_bias)
	// 	// example_test.go:15: relu = call_method relu(fc)
	// 	relu_tensor, relu := tensor.NewResult(runtime.Float32, N, 3)
	// 	runtime.Relu(relu, &fr.fc)
	// 	c.frames.Put(fr)
	// 	return relu_tensor
	// }
}
