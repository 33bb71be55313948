// This file defines Main, the body of every generated tracing driver.

package driver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fxgen/fxgen/emit"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/passes"
	"github.com/fxgen/fxgen/tracer"
)

// Config says what Main traces and where it writes the results. The
// command fills it in; every path is absolute.
type Config struct {
	// Package is the Go package name of the generated file.
	Package string
	// PackagePath is the import path of that package.
	PackagePath string
	// Type is the model's type name, e.g. "MLP".
	Type string
	// Command is the canonical fxgen arguments, recorded in the generated
	// file's header.
	Command string

	// Inputs are the tensor parameters' specs, e.g. "x=f32[N,784]", in
	// Forward's parameter order.
	Inputs []string
	// Concrete binds Forward's non-tensor parameters, in Forward's
	// parameter order.
	Concrete []Arg
	// Leaves are module paths or type names to keep as leaves.
	Leaves []string
	// Passes is the pass pipeline run between tracing and emitting: ""
	// for passes.Default, "none" for none, or a comma-separated list of
	// pass names (see passes.Parse).
	Passes string
	// DumpAfter names a pass after which the graph is printed to
	// DumpFile (or standard error when DumpFile is "").
	DumpAfter string
	DumpFile  string

	// OutFile receives the generated Go source.
	OutFile string
	// TableFile, if set, receives the graph's table (print_tabular).
	TableFile string
	// DotFile, if set, receives the graph in Graphviz DOT.
	DotFile string
	// ErrorFile, if set, receives the failure as JSON (an Error) instead of
	// stderr, so that the command can re-print it.
	ErrorFile string
}

// Arg is a value bound to one of Forward's non-tensor parameters.
type Arg struct {
	Name  string
	Value any
}

// Error is the JSON form of a failure written to Config.ErrorFile. File and
// Line are set for a trace error; File is absolute.
type Error struct {
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Msg  string `json:"msg"`
}

// Main traces root, runs the pass pipeline, emits the compiled Go file and
// writes the files named by cfg. It returns only on success; on failure it reports the error and
// exits with status 1.
func Main(root any, cfg Config) {
	if err := Run(root, cfg); err != nil {
		if rerr := report(os.Stderr, cfg.ErrorFile, err); rerr != nil {
			fmt.Fprintln(os.Stderr, err)
			fmt.Fprintln(os.Stderr, "fxgen driver:", rerr)
		}
		os.Exit(1)
	}
}

// Run is Main without the exit: it traces root, runs the pipeline, emits
// and writes the files named by cfg, and returns the first error. A trace error is returned as a
// *tracer.TraceError, also when the model panicked with one.
func Run(root any, cfg Config) (err error) {
	defer func() {
		// Trace recovers its own errors at its boundary; this catches one
		// that escaped it so that it is still reported with its position.
		switch r := recover().(type) {
		case nil:
		case *tracer.TraceError:
			err = r
		case tracer.TraceError:
			err = &r
		default:
			panic(r)
		}
	}()
	inputs := make([]tracer.Input, len(cfg.Inputs))
	for i, spec := range cfg.Inputs {
		if inputs[i], err = tracer.ParseInput(spec); err != nil {
			return err
		}
	}
	var opts []tracer.Option
	for _, a := range cfg.Concrete {
		opts = append(opts, tracer.Concrete(a.Name, a.Value))
	}
	if len(cfg.Leaves) > 0 {
		opts = append(opts, tracer.Leaf(cfg.Leaves...))
	}
	pipeline := passes.Default
	if cfg.Passes != "" {
		if pipeline, err = passes.Parse(cfg.Passes); err != nil {
			return err
		}
	}
	g, err := tracer.Trace(root, inputs, opts...)
	if err != nil {
		return err
	}
	// The table and the DOT show the traced graph, as torch.fx would.
	if cfg.TableFile != "" {
		if err := os.WriteFile(cfg.TableFile, []byte(g.Tabular()), 0o644); err != nil {
			return err
		}
	}
	if cfg.DotFile != "" {
		dot, err := dotOf(g)
		if err != nil {
			return err
		}
		if err := os.WriteFile(cfg.DotFile, []byte(dot), 0o644); err != nil {
			return err
		}
	}
	if err := Optimize(g, pipeline, cfg.DumpAfter, cfg.DumpFile); err != nil {
		return err
	}
	src, err := emit.Generate(g, emit.Config{Package: cfg.Package, PackagePath: cfg.PackagePath, Type: cfg.Type, Command: cfg.Command})
	if err != nil {
		return err
	}
	return os.WriteFile(cfg.OutFile, src, 0o644)
}

// Optimize runs pipeline on g with a lint after every pass, printing the
// graph after the pass dumpAfter (if not "") to dumpFile, or to standard
// error when dumpFile is "".
func Optimize(g *ir.Graph, pipeline []*passes.Pass, dumpAfter, dumpFile string) error {
	opts := passes.Options{Debug: true, DumpAfter: dumpAfter}
	if dumpAfter != "" && dumpFile != "" {
		f, err := os.Create(dumpFile)
		if err != nil {
			return err
		}
		defer f.Close()
		opts.Dump = f
	}
	return passes.Run(g, pipeline, opts)
}

// dotOf returns g in Graphviz DOT, if this version of ir can print it.
func dotOf(g *ir.Graph) (string, error) {
	d, ok := any(g).(interface{ DOT() string })
	if !ok {
		return "", errors.New("this version of ir cannot print DOT")
	}
	return d.DOT(), nil
}

// report writes err to errorFile as JSON, or to w when errorFile is "".
// A *tracer.TraceError prints as FILE:LINE: tracer: MSG.
func report(w io.Writer, errorFile string, err error) error {
	if errorFile == "" {
		_, werr := fmt.Fprintln(w, err)
		return werr
	}
	e := Error{Msg: err.Error()}
	var te *tracer.TraceError
	if errors.As(err, &te) && te.File != "" {
		e = Error{File: te.File, Line: te.Line, Msg: te.Msg}
	}
	data, jerr := json.Marshal(e)
	if jerr != nil {
		return jerr
	}
	return os.WriteFile(errorFile, data, 0o644)
}
