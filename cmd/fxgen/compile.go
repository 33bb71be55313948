// This file turns the graph the driver traced into the outputs: the table
// and DOT of the traced graph, the pass pipeline, and the generated Go.

package main

import (
	"fmt"

	"github.com/fxgen/fxgen/emit"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/passes"
)

// outputs are what one fxgen run produces, in memory until the whole run
// has succeeded.
type outputs struct {
	Go    []byte // the generated file
	Graph []byte // the graph file: the optimised graph for review (emit.GraphFile)
	Table string // the traced graph as a table, with -print
	Dot   string // the traced graph in DOT, with -dot
}

// compileGraph decodes the driver's graph and produces the outputs o asks
// for: the table and DOT show the traced graph, before any pass, as
// torch.fx would; the passes then run (with a lint after each) and the
// emitter writes the compiled model.
func compileGraph(data []byte, m *model, o *options) (*outputs, error) {
	g, err := ir.UnmarshalGraph(data)
	if err != nil {
		return nil, fmt.Errorf("reading the traced graph: %v", err)
	}
	var out outputs
	if o.Print {
		out.Table = g.Tabular()
	}
	if o.Dot != "" {
		out.Dot = g.DOT()
	}
	pipeline := passes.Default
	if o.Passes != "" {
		if pipeline, err = passes.Parse(o.Passes); err != nil {
			return nil, err
		}
	}
	popts := passes.Options{Debug: true, DumpAfter: o.DumpAfter}
	res, err := passes.Run(g, pipeline, popts)
	if err != nil {
		return nil, err
	}
	p := res.Plan()
	out.Go, err = emit.Generate(g, emit.Config{Package: m.Pkg.Name, PackagePath: m.Pkg.PkgPath, Type: o.Type, Command: o.command(), Plan: p})
	if err != nil {
		return nil, err
	}
	out.Graph = emit.GraphFile(g, p, m.Pkg.Name+"."+o.Type)
	return &out, nil
}
