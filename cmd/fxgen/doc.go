// This file is fxgen's manual.

// Fxgen captures a Go model's Forward as a graph, torch.fx style, and writes
// it out as straight-line Go code that calls the fxgen runtime directly.
//
// It is meant to be run by go generate. Given a model package
//
//	package mlp
//
//	//go:generate go tool fxgen -type MLP -input "x=f32[N,784]"
//
//	type MLP struct{ FC1, FC2 *nn.Linear }
//
//	func NewMLP() *MLP { ... }
//
//	func (m *MLP) Forward(x *tensor.Tensor) *tensor.Tensor {
//		return m.FC2.Forward(m.FC1.Forward(x).Relu())
//	}
//
// running "go generate" in that directory writes mlp_fx.go, holding the
// type MLPCompiled, its constructor and a Forward with the same signature as
// the model's; beside it mlp_fx_test.go, a test that compares MLPCompiled
// with MLP on random inputs (with package fxgentest), so that go test
// fails when Forward changed and go generate was not run again; and
// mlp_fx.graph, the graph file: the optimised graph as short, stable text,
// one line per node (name, opcode, target, inputs, type, source position)
// and then totals (nodes, parameters, FLOPs and workspace bytes at every
// symbolic size 1), so that a pull request shows what a model change did
// to the computation. Check all three in. (For "go tool fxgen" the model's
// go.mod needs the line
// "tool github.com/fxgen/fxgen/cmd/fxgen"; "go run
// github.com/fxgen/fxgen/cmd/fxgen" works too.)
//
// Usage:
//
//	fxgen -type T -input name=dtype[dims] [flags] [package]
//
// The flags are:
//
//	-type T
//		the model type; required. T or *T must have a method Forward whose
//		parameters are *tensor.Tensor (or are bound with -concrete) and
//		whose results are one or more *tensor.Tensor.
//	-input "name=dtype[dims]"
//		the type of one tensor parameter of Forward, e.g. x=f32[N,784] or
//		tokens=i64[N,128]. A dim is an integer, a symbol such as N or k*N.
//		Repeatable, and one value may hold several specs separated by
//		spaces: -input "x=f32[N,3,32,32] mask=bool[N]". Every tensor
//		parameter needs exactly one -input.
//	-concrete name=value
//		bind the non-tensor parameter name of Forward to value for the
//		trace; repeatable. The value is converted to the parameter's Go type
//		(bool, integer, float or string kinds). Branches on such a value run
//		as plain Go while tracing.
//	-leaf path
//		keep a module as one call_module node instead of tracing through
//		it; repeatable. path is a module path (layer1.0.conv1) or a Go type
//		name (Block).
//	-new EXPR
//		the Go expression that builds the model, evaluated in the model
//		package's scope, e.g. -new "NewMLP(784, 10)"; the default is NewT(),
//		which must take no arguments. It must yield a T or *T. It may use
//		the package's exported names and the packages imported by the file
//		that declares T.
//	-output FILE
//		the file to write; default <snake_case(T)>_fx.go in the package
//		directory. Words of T begin at a capital after a lower-case letter
//		and at the last capital of a run followed by lower case; a lone
//		capital joins its neighbour, so acronyms stay whole: MLP: mlp_fx.go,
//		ResNet18: res_net18_fx.go, ViT: vit_fx.go, UNetMini:
//		unet_mini_fx.go, MobileNetV2: mobile_net_v2_fx.go. A relative FILE
//		is relative to the current directory. It must be a .go file (not
//		_test.go) in the package directory. The graph file is FILE with
//		.graph for .go.
//	-test=false
//		do not write the test beside the output (FILE without .go, plus
//		_test.go: mlp_fx_test.go), which is written by default. It compares
//		the compiled model with the model on random inputs of the -input
//		specs, the symbols set to 2 and integers in [0, 2) (see
//		fxgentest.MatchesEager), and begins with the generated-code
//		header. With -test=false an existing one is left alone.
//	-print
//		print the graph as a table to standard output: the traced graph,
//		before any pass, comparable with torch.fx's print_tabular. Nothing
//		is written but the -dot file, if asked for.
//	-dot FILE
//		also write the graph in Graphviz DOT to FILE.
//	-check
//		write nothing; report whether the outputs (the generated file, its
//		test and the graph file) are up to date. If one is missing or
//		differs from what fxgen would write, print a unified diff from the
//		file on disk to the generated one (patch -p1 applies it in the
//		directory fxgen ran in) and exit with status 3. The environment
//		variable FXGEN_CHECK=1 turns -check on for every run, so that
//
//			FXGEN_CHECK=1 go generate ./...
//
//		checks every directive of a module without writing anything, on a
//		read-only checkout too (see the README's CI recipe).
//	-passes list
//		the graph passes run between tracing and emitting: a comma-separated
//		list of pass names run in that order, "none", or "default" (the
//		default: lower-modules, cse, fold-batchnorm, fuse-activation,
//		fuse-residual, channels-last, fuse-depthwise-separable,
//		fuse-elementwise, fold-transpose, fuse-attention, dce, plan-memory;
//		see package passes). A list other than the default is
//		recorded in the generated file's header.
//	-dump-after NAME
//		print the graph to standard error after the pass NAME, which must
//		be in the pipeline.
//	-pass importpath.Name
//		run a pass of the user's own: Name is an exported variable of type
//		*passes.Pass (github.com/fxgen/fxgen/passes) in the package
//		importpath of the user's module, e.g. -pass
//		example.com/m/mypasses.Fold; repeatable, run in the order given.
//		The driver, built in the user's module where the user's code is,
//		runs these passes on the traced graph (twice, on the two traces,
//		which must then agree), before the built-in pipeline: the graph
//		reaches fxgen as data, while the built-in passes' results (the
//		memory plan, which must come last) reach the emitter as values, so
//		the user's passes see the graph as traced (call_module nodes, as
//		torch.fx does) and the built-in passes optimise what they made.
//		Recorded in the generated file's header.
//	-timeout DURATION
//		end the driver (constructing and tracing the model) after
//		DURATION, default 3m, and report where the model's goroutine was.
//		The go build of the driver before it has no time limit (a cold
//		build of a large module may take minutes); an interrupt or a
//		killed go generate stops it.
//	-v
//		when the driver crashes or times out, print its whole output (the
//		raw Go traces) after the one-line summary.
//	-version
//		print fxgen's version and exit. Generated files name it in their
//		first line, "// Code generated by fxgen v0.1.0. DO NOT EDIT.": the
//		version of the fxgen module the command was built from when that
//		is a release, else the version of this source tree (as for a
//		build from a local checkout), so that the same model gives the
//		same bytes whatever the build.
//
// The package is the current directory under go generate; otherwise it is
// the single package matched by the optional argument, "." by default.
//
// Fxgen first loads and type-checks the package and checks the directive
// against the model: the type, Forward's signature, the inputs, the
// concrete values and the constructor. Problems are reported at their
// source position, like the Go compiler's errors:
//
//	model.go:31:16: fxgen: Forward parameter train has type bool: bind it with -concrete train=VALUE
//
// Each -input dim is a size n ≥ 0, a symbol S or c*S with c ≥ 1; zero or
// negative coefficients and sizes that overflow an int are refused up
// front with exit status 2.
//
// It then writes a small driver program into a hidden directory
// .fxgen-driver-<pid>-* of the system's temporary directory and builds it
// in the model's module, where it appears only through a build overlay:
// nothing is written in the package, so -check works on a read-only
// checkout. The driver builds the model, traces Forward twice with symbolic
// tensors (two traces that differ, for instance from ranging over a map,
// are an error at the first differing node) and hands the graph back as
// JSON; fxgen itself runs the passes and emits the compiled code. The
// driver imports only fxgen packages that need no third-party module, so
// the model's module needs nothing in its go.mod but the tool line, and go
// mod tidy keeps it that way. A model whose Forward turns a symbolic value
// into a Go value (dynamic control flow such as if x.Sum().Item() > 0)
// fails here, with the model's file and line:
//
//	model.go:42: tracer: ...
//
// The driver is supervised: it runs in its own process group, dies with
// fxgen (on Linux, even when fxgen is killed with SIGKILL), is ended at
// -timeout, and a panic, fatal error (such as a stack overflow) or os.Exit
// in model code, in any goroutine, is reported as one message at the
// model's first frame:
//
//	model.go:17: fxgen: the model panicked in NewMLP: bad width
//
// The driver directory is removed in every case, also when the trace fails
// or fxgen is interrupted; one left by a killed fxgen is removed by a later
// run once its owner process is gone. Fxgen stops when go generate is
// killed. The build blanks the package's files that carry the header
// "// Code generated by fxgen vX.Y.Z. DO NOT EDIT." of any version (also after a merge conflict
// at its top; with a build overlay, merged with any -overlay in GOFLAGS),
// so that a stale or broken generated file never stops it from being
// regenerated.
//
// Before writing, fxgen checks that the names the generated file declares
// are free in the package (else it reports the clashing declaration) and
// type-checks the package with the new file; code that would not compile
// is never written.
//
// The outputs are written atomically (each to a temporary file in the same
// directory, then renamed once all are written); the same model always
// gives the same bytes. Fxgen refuses to overwrite an existing file that does
// not begin with the generated-code header (the graph file has it too). When anything fails no file is
// changed; -dot is written last, only when everything else succeeded.
//
// Exit status: 0 on success (and, with -check, when the files are up to
// date); 3 when -check finds a file stale; 2 for a malformed command line
// (an unknown flag, a missing -type, a malformed -input, -concrete or
// -new, too many arguments, a bad FXGEN_CHECK), with a message naming the
// flag; 1 for every other failure: the package does not load, the
// directive does not fit the model, the trace fails or a file cannot be
// written.
package main
