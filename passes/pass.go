// This file defines Pass, Options and Run, which applies a pipeline.

package passes

import (
	"fmt"
	"io"
	"os"

	"github.com/fxgen/fxgen/ir"
)

// Pass is one named graph rewrite. Run changes g in place; it returns an
// error when it cannot keep g valid (it should then leave g unchanged).
type Pass struct {
	Name string // lower-case words joined by -, e.g. "fold-batchnorm"
	Doc  string // one paragraph: what it rewrites and when
	Run  func(g *ir.Graph) error
}

// Options says how Run applies a pipeline.
type Options struct {
	// Debug lints the graph before the first pass and after every pass,
	// and fails with the name of the pass that broke it.
	Debug bool
	// DumpAfter names a pass after which the graph is printed (g.String())
	// to Dump; "" prints nothing. A name not in the pipeline is an error.
	DumpAfter string
	// Dump receives the printed graph; nil means os.Stderr.
	Dump io.Writer
}

// Error is a failure of one pass.
type Error struct {
	Pass string // the pass's name
	Err  error
}

func (e *Error) Error() string { return "passes: " + e.Pass + ": " + e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// Run applies the pipeline to g in order. The pipeline is checked first
// (Check): unknown or repeated passes and broken order constraints are
// errors. A pass's error or panic is returned as an *Error naming it.
func Run(g *ir.Graph, pipeline []*Pass, opts Options) error {
	if err := Check(pipeline); err != nil {
		return err
	}
	if opts.DumpAfter != "" && indexOf(pipeline, opts.DumpAfter) < 0 {
		return fmt.Errorf("passes: -dump-after %s: no such pass in the pipeline (have %s)", opts.DumpAfter, names(pipeline))
	}
	if opts.Debug {
		if err := g.Lint(); err != nil {
			return fmt.Errorf("passes: the graph is invalid before the first pass: %v", err)
		}
	}
	for _, p := range pipeline {
		if err := runOne(g, p); err != nil {
			return &Error{Pass: p.Name, Err: err}
		}
		if opts.Debug {
			if err := g.Lint(); err != nil {
				return &Error{Pass: p.Name, Err: fmt.Errorf("left an invalid graph: %v", err)}
			}
		}
		if p.Name == opts.DumpAfter {
			w := opts.Dump
			if w == nil {
				w = os.Stderr
			}
			if _, err := fmt.Fprintf(w, "# graph after %s\n%s\n", p.Name, g.String()); err != nil {
				return err
			}
		}
	}
	return nil
}

// runOne runs p, turning a panic into an error.
func runOne(g *ir.Graph, p *Pass) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return p.Run(g)
}
