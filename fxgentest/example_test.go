package fxgentest_test

import (
	"fmt"
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/internal/seeds"
	"github.com/fxgen/fxgen/tensor"
)

// A model package's test compares the compiled model with the model on
// random inputs. fxgen writes such a test beside each generated file.
func ExampleMatchesEager() {
	testStack := func(t *testing.T) {
		m := seeds.NewStack()
		fxgentest.MatchesEager(t, "x=f32[N,3]", m.Forward, seeds.NewStackCompiled(m).Forward,
			fxgentest.WithSizes(1, 5), fxgentest.WithTolerance(fxgentest.Tolerance{Rel: 1e-6, Abs: 1e-6}))
	}
	_ = testStack
}

func ExampleCompare() {
	want := tensor.FromFloat32([]float32{1, 2, 3, 4}, 2, 2)
	got := tensor.FromFloat32([]float32{1, 2, 3.01, 4.0001}, 2, 2)
	fmt.Println(fxgentest.Compare(got, want, fxgentest.Tolerance{Rel: 1e-3}))
	// Output:
	// 1 of 4 elements (25%) differ beyond |got-want| ≤ 0 + 0.001·|want|; first at [1 0]: got 3.009999990463257, want 3
	// 	greatest absolute error 0.01 at [1 0] (got 3.009999990463257, want 3)
	// 	greatest relative error 0.00333 at [1 0]
}

// A test against PyTorch reads what a script saved with
// safetensors.torch.save_file({"x": x, "out": model(x)}, path).
func ExampleLoadFixture() {
	f, err := fxgentest.LoadFixture("../example_models/mlp/testdata/torch_io.safetensors")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Tensors["x"].Shape(), f.Tensors["out"].Shape(), f.Meta["torch_version"])
	// Output: [2 784] [2 10] 1.13.0a0
}

func ExampleRandomInputs() {
	specs, err := fxgentest.ParseSpecs("dense=f32[N,13] sparse=i64[N,8]")
	if err != nil {
		fmt.Println(err)
		return
	}
	in, err := fxgentest.RandomInputs(specs, 4, 1000, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, x := range in {
		fmt.Println(specs[i].Name, x.DType(), x.Shape())
	}
	// Output:
	// dense f32 [4 13]
	// sparse i64 [4 8]
}
