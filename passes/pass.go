// This file defines Pass, Context, Options and Run, which applies a
// pipeline and collects the passes' results.

package passes

import (
	"fmt"
	"io"
	"os"
	"reflect"

	"github.com/fxgen/fxgen/ir"
)

// Pass is one named step of the pipeline, in the manner of go/analysis's
// Analyzer: a transformation, which changes the graph in place, or an
// analysis (Analysis set), which only reads it. Either may return a result
// of type ResultType, which later passes that list it in Requires read
// from Context.ResultOf, and which Run returns in Results.
type Pass struct {
	Name string // lower-case words joined by -, e.g. "fold-batchnorm"
	Doc  string // one paragraph: what it rewrites or computes, and when
	// Requires are the passes whose results Run reads. An analysis
	// required and not yet run (or invalidated by a transformation since)
	// runs first; a required transformation must come earlier in the
	// pipeline (Check).
	Requires []*Pass
	// ResultType is the type of the value Run returns; nil means Run
	// returns nil.
	ResultType reflect.Type
	// Analysis marks a pass that does not change the graph. Its result
	// holds until a transformation runs; a transformation's result (what
	// it made) holds for the rest of the pipeline.
	Analysis bool
	// Optional keeps the pass out of the default pipeline: it runs when
	// named, or when a pass requires it.
	Optional bool
	// Run applies the pass to c.Graph. It returns an error when it cannot
	// keep the graph valid (it should then leave it unchanged).
	Run func(c *Context) (any, error)
}

// Context is what a pass's Run sees: the graph and the results of the
// passes it requires.
type Context struct {
	Graph *ir.Graph
	// ResultOf holds the result of each pass in Requires.
	ResultOf map[*Pass]any
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

// Results are the results of the passes a Run applied, each as its pass
// last returned it, the analyses only while the graph is as they saw it.
type Results struct {
	g   *ir.Graph
	res map[*Pass]any
}

// Of returns the result of p, or nil when p did not run, returned nil, or
// is an analysis a later transformation invalidated.
func (r *Results) Of(p *Pass) any {
	if r == nil {
		return nil
	}
	return r.res[p]
}

// Run applies the pipeline to g in order and returns the passes' results.
// The pipeline is checked first (Check): unknown or repeated passes,
// broken order constraints and unmet requirements are errors. A pass's
// error or panic, or a result not of its ResultType, is returned as an
// *Error naming it.
func Run(g *ir.Graph, pipeline []*Pass, opts Options) (*Results, error) {
	if err := Check(pipeline); err != nil {
		return nil, err
	}
	if opts.DumpAfter != "" && indexOf(pipeline, opts.DumpAfter) < 0 {
		return nil, fmt.Errorf("passes: -dump-after %s: no such pass in the pipeline (have %s)", opts.DumpAfter, names(pipeline))
	}
	if opts.Debug {
		if err := g.Lint(); err != nil {
			return nil, fmt.Errorf("passes: the graph is invalid before the first pass: %v", err)
		}
	}
	r := &Results{g: g, res: map[*Pass]any{}}
	for _, p := range pipeline {
		if err := r.run(p, opts.Debug); err != nil {
			return nil, err
		}
		if p.Name == opts.DumpAfter {
			w := opts.Dump
			if w == nil {
				w = os.Stderr
			}
			if _, err := fmt.Fprintf(w, "# graph after %s\n%s\n", p.Name, g.String()); err != nil {
				return nil, err
			}
		}
	}
	return r, nil
}

// run runs p after the analyses it requires, records its result, and
// drops the analyses' results when p is a transformation.
func (r *Results) run(p *Pass, debug bool) error {
	c := &Context{Graph: r.g, ResultOf: map[*Pass]any{}}
	for _, q := range p.Requires {
		if _, ok := r.res[q]; !ok {
			if !q.Analysis {
				return &Error{Pass: p.Name, Err: fmt.Errorf("requires %s, which has not run", q.Name)}
			}
			if err := r.run(q, debug); err != nil {
				return err
			}
		}
		c.ResultOf[q] = r.res[q]
	}
	res, err := runOne(c, p)
	if err != nil {
		return &Error{Pass: p.Name, Err: err}
	}
	if err := checkResult(p, res); err != nil {
		return &Error{Pass: p.Name, Err: err}
	}
	if !p.Analysis {
		for q := range r.res {
			if q.Analysis {
				delete(r.res, q)
			}
		}
	}
	r.res[p] = res
	if debug {
		if err := r.g.Lint(); err != nil {
			return &Error{Pass: p.Name, Err: fmt.Errorf("left an invalid graph: %v", err)}
		}
	}
	return nil
}

// checkResult reports a result that is not of p's ResultType.
func checkResult(p *Pass, res any) error {
	switch {
	case p.ResultType == nil && res != nil:
		return fmt.Errorf("returned a %T but declares no ResultType", res)
	case p.ResultType != nil && res != nil && !reflect.TypeOf(res).AssignableTo(p.ResultType):
		return fmt.Errorf("returned a %T, want its ResultType %v", res, p.ResultType)
	}
	return nil
}

// runOne runs p, turning a panic into an error.
func runOne(c *Context, p *Pass) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return p.Run(c)
}
