// Package fxgentest helps the tests of a model compiled by fxgen: it
// compares the compiled Forward with the model's own (eager) Forward on
// random inputs, compares tensors with a tolerance and a readable report,
// and loads input and output fixtures that PyTorch saved as safetensors.
//
// fxgen writes a test of this kind beside each generated file
// (<name>_fx_test.go), so that a generated file that no longer matches its
// model, because Forward changed and go generate was not run again, fails
// the package's go test:
//
//	func TestMLPCompiledMatchesEager(t *testing.T) {
//		m := NewMLP()
//		fxgentest.MatchesEager(t, "x=f32[N,784]", m.Forward, NewMLPCompiled(m).Forward)
//	}
//
// A test against PyTorch loads the inputs and outputs a script saved with
// safetensors.torch.save_file and compares by name:
//
//	f := fxgentest.ReadFixture(t, "testdata/torch_io.safetensors")
//	fxgentest.AllClose(t, "out", m.Forward(f.Tensor(t, "x")), f.Tensor(t, "out"), fxgentest.Tolerance{Rel: 1e-4, Abs: 1e-5})
//
// The package imports only fxgen packages that need no third-party module,
// so a model's module needs nothing more in its go.mod for it.
package fxgentest
