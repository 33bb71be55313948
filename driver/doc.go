// Package driver is support for the programs fxgen generates; it is not for
// direct use.
//
// For each run, cmd/fxgen writes a tiny throwaway program into a temporary
// directory, builds it in the model's module (where it appears through a
// build overlay), runs it and removes it. That program imports the model package, builds the model
// with its constructor expression and hands it to Main:
//
//	func main() {
//		m := fxgenmodel.NewMLP()
//		fxgendriver.Main(m, fxgendriver.Config{
//			Inputs:    []string{"x=f32[N,784]"},
//			GraphFile: "/tmp/.fxgen-driver-123-456/graph.json",
//		})
//	}
//
// Main traces the model twice with tracer.Trace, refuses two traces that
// differ, and writes the traced graph as
// JSON (ir.Graph.MarshalJSONWithConstants); the command decodes it, runs
// the passes and the emitter, and decides what reaches the user's source
// tree. So the driver, which is built inside the user's module, imports
// only fxgen packages that need no third-party module (tracer, tensor, ir,
// runtime), and a module needs nothing in its go.mod but the fxgen tool
// line. On failure Main reports the error (a trace error as FILE:LINE:
// tracer: MSG) and exits with status 1.
package driver
