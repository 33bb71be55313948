// This file defines Main, the body of every generated tracing driver.

package driver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fxgen/fxgen/passes"
	"github.com/fxgen/fxgen/tracer"
)

// Config says what Main traces and where it writes the results. The
// command fills it in; every path is absolute.
type Config struct {
	// Inputs are the tensor parameters' specs, e.g. "x=f32[N,784]", in
	// Forward's parameter order.
	Inputs []string
	// Concrete binds Forward's non-tensor parameters, in Forward's
	// parameter order.
	Concrete []Arg
	// Leaves are module paths or type names to keep as leaves.
	Leaves []string
	// Passes are the user's own passes (fxgen -pass), run in order on the
	// traced graph before it is written: here, in the user's module,
	// where their code is, and before fxgen's built-in pipeline, whose
	// last pass plans the memory of the graph as it will be emitted.
	Passes []*passes.Pass

	// GraphFile receives the traced graph as JSON, with its constants'
	// data.
	GraphFile string
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

// Main traces root and writes the graph to cfg.GraphFile. It returns only
// on success; on failure it reports the error and exits with status 1.
func Main(root any, cfg Config) {
	if err := Run(root, cfg); err != nil {
		if rerr := report(os.Stderr, cfg.ErrorFile, err); rerr != nil {
			fmt.Fprintln(os.Stderr, err)
			fmt.Fprintln(os.Stderr, "fxgen driver:", rerr)
		}
		os.Exit(1)
	}
}

// Run is Main without the exit: it traces root twice, applies the user's
// passes to each trace, checks that the two results are the same, writes
// the graph and returns the first error. A trace error is returned as a
// *tracer.TraceError, also when the model panicked with one; a pass's as a
// *passes.Error.
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
	// Trace twice: a Forward (or a pass) that does not give the same graph
	// twice would make the generated code depend on chance.
	var traces [2][]byte
	for i := range traces {
		g, err := tracer.Trace(root, inputs, opts...)
		if err != nil {
			return err
		}
		if len(cfg.Passes) > 0 {
			if _, err := passes.Run(g, cfg.Passes, passes.Options{Debug: true}); err != nil {
				return err
			}
		}
		if traces[i], err = g.MarshalJSONWithConstants(); err != nil {
			return err
		}
	}
	if err := compareTraces(traces[0], traces[1]); err != nil {
		return err
	}
	return os.WriteFile(cfg.GraphFile, traces[0], 0o644)
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
