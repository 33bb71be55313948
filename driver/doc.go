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
//			Inputs:    []string{"x=f32[N,784]"},
//			GraphFile: "/path/to/mlp/.fxgen-driver-123/graph.json",
//		})
//	}
//
// Main traces the model with tracer.Trace and writes the traced graph as
// JSON (ir.Graph.MarshalJSONWithConstants); the command decodes it, runs
// the passes and the emitter, and decides what reaches the user's source
// tree. So the driver, which is built inside the user's module, imports
// only fxgen packages that need no third-party module (tracer, tensor, ir,
// runtime), and a module needs nothing in its go.mod but the fxgen tool
// line. On failure Main reports the error (a trace error as FILE:LINE:
// tracer: MSG) and exits with status 1.
package driver
