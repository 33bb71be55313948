// Package driver is support for the programs fxgen generates; it is not for
// direct use.
//
// For each run, cmd/fxgen writes a tiny throwaway program into a hidden
// directory of the model's package, builds it in the model's module, runs it
// and removes it. That program imports the model package, builds the model
// with its constructor expression and hands it to Main:
//
//	func main() {
//		m := fxgenmodel.NewMLP()
//		fxgendriver.Main(m, fxgendriver.Config{
//			Package: "mlp",
//			Type:    "MLP",
//			Inputs:  []string{"x=f32[N,784]"},
//			OutFile: "/path/to/mlp/.fxgen-driver-123/out.go",
//		})
//	}
//
// Main traces the model with tracer.Trace, runs the pass pipeline
// (passes.Default unless Config.Passes says otherwise, linting between
// passes), emits the compiled Go file with emit.Generate and writes the
// files the command asked for; the graph table and DOT show the traced
// graph, before any pass. On failure it
// reports the error (a trace error as FILE:LINE: tracer: MSG) and exits with
// status 1; the command, not the driver, decides what reaches the user's
// source tree.
package driver
