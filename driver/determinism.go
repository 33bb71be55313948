// This file defines the determinism check: the driver traces the model
// twice, and two traces that differ mean that Forward depends on something
// other than its inputs and the model (map order, global state, time,
// randomness), so the generated code would depend on chance.

package driver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fxgen/fxgen/tracer"
)

// tracedNode is the part of a node's JSON the comparison reads.
type tracedNode struct {
	Op     string            `json:"op"`
	Name   string            `json:"name"`
	Target string            `json:"target"`
	Args   []json.RawMessage `json:"args"`
	Types  []string          `json:"types"`
	Pos    *struct {
		File string `json:"file"`
		Line int    `json:"line"`
	} `json:"pos"`
}

// describe prints n for a message: op target(args) at file:line.
func (n *tracedNode) describe() string {
	args := make([]string, len(n.Args))
	for i, a := range n.Args {
		args[i] = string(a)
	}
	s := fmt.Sprintf("%s %s %s(%s) %s", n.Op, n.Name, n.Target, strings.Join(args, ", "), strings.Join(n.Types, ", "))
	if n.Pos != nil {
		s += fmt.Sprintf(" at %s:%d", n.Pos.File, n.Pos.Line)
	}
	return s
}

// compareTraces returns nil when the two encoded graphs are equal, and
// otherwise a trace error at the first node that differs (in the first
// trace, or the second when the first has no node there).
func compareTraces(first, second []byte) error {
	if bytes.Equal(first, second) {
		return nil
	}
	var a, b struct{ Nodes []tracedNode }
	if err := json.Unmarshal(first, &a); err != nil {
		return err
	}
	if err := json.Unmarshal(second, &b); err != nil {
		return err
	}
	const advice = "; the generated code would depend on chance. Ranging over a map, package-level state, time or randomness in Forward or in what it calls are the usual causes: iterate in a fixed order (sort the keys) and keep state out of Forward"
	for i := 0; i < len(a.Nodes) || i < len(b.Nodes); i++ {
		var x, y *tracedNode
		if i < len(a.Nodes) {
			x = &a.Nodes[i]
		}
		if i < len(b.Nodes) {
			y = &b.Nodes[i]
		}
		if x != nil && y != nil {
			jx, _ := json.Marshal(x)
			jy, _ := json.Marshal(y)
			if bytes.Equal(jx, jy) {
				continue
			}
		}
		at := x
		if at == nil || at.Pos == nil && y != nil {
			at = y
		}
		e := &tracer.TraceError{Msg: fmt.Sprintf("Forward does not trace the same way twice: node %d is %s in the first trace and %s in the second%s", i, describeOrNone(x), describeOrNone(y), advice)}
		if at != nil && at.Pos != nil {
			e.File, e.Line = at.Pos.File, at.Pos.Line
		}
		return e
	}
	return &tracer.TraceError{Msg: "Forward does not trace the same way twice: the graphs have the same nodes but differ in their parameters, modules or constants" + advice}
}

func describeOrNone(n *tracedNode) string {
	if n == nil {
		return "missing"
	}
	return n.describe()
}
