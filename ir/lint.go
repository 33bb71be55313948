// This file defines Lint, the checker of a graph's invariants.

package ir

import (
	"errors"
	"fmt"
	"sort"
)

// lintIssue is one problem Lint found, at the position of the node it names.
type lintIssue struct {
	pos int
	msg string
}

// Lint checks the graph's invariants and returns nil when they all hold:
//
//   - the node list is well linked and every node belongs to g;
//   - node names are unique, and placeholder targets are unique;
//   - placeholders come before every other node;
//   - there is at most one output node and it is the last node;
//   - every node among a node's args belongs to g and is defined before it;
//   - users are exact: each user of a node uses it, and each use is listed;
//   - targets exist: an op of the vocabulary for call_function and
//     call_method, a module of g.Modules for call_module, a parameter of
//     g.Params for get_attr;
//   - the types inferred again from the vocabulary equal the stored Types.
//
// Each error names the node, the problem and the fix, such as
//
//	node relu_1: arg fc2 is defined after its use; move fc2 before relu_1
//
// Several errors are sorted by node position and joined with errors.Join.
func (g *Graph) Lint() error {
	var issues []lintIssue
	report := func(pos int, format string, args ...any) {
		issues = append(issues, lintIssue{pos, fmt.Sprintf(format, args...)})
	}

	// The list itself: walk it defensively so a broken link cannot loop.
	var nodes []*Node
	index := map[*Node]int{}
	for n := g.root.next; n != &g.root; n = n.next {
		if n == nil {
			report(len(nodes), "graph: node list is broken after node %d; build graphs only with CreateNode and EraseNode", len(nodes))
			break
		}
		if _, dup := index[n]; dup {
			report(len(nodes), "graph: node list loops back to node %s; build graphs only with CreateNode and EraseNode", n.Name)
			break
		}
		if n.next != nil && n.next.prev != n {
			report(len(nodes), "node %s: its successor does not link back to it; build graphs only with CreateNode and EraseNode", n.Name)
		}
		index[n] = len(nodes)
		nodes = append(nodes, n)
	}
	if len(nodes) != g.len && len(issues) == 0 {
		report(len(nodes), "graph: records %d nodes but holds %d; build graphs only with CreateNode and EraseNode", g.len, len(nodes))
	}

	names := map[string]*Node{}
	targets := map[string]*Node{}
	var firstNonPlaceholder, output *Node
	for i, n := range nodes {
		if n.graph != g {
			report(i, "node %s: belongs to another graph; add it with NodeCopy instead of linking it", n.Name)
		}
		if n.Name == "" {
			report(i, "node #%d (%s %s): has no name; create nodes with CreateNode", i, n.Op, n.Target)
		} else if prev, dup := names[n.Name]; dup {
			report(i, "node %s: name already used by node #%d (%s %s); give one of them another name", n.Name, index[prev], prev.Op, prev.Target)
		} else {
			names[n.Name] = n
		}
		if n.Op > Output {
			report(i, "node %s: invalid opcode %d; use one of the six opcodes", n.Name, n.Op)
			continue
		}

		switch n.Op {
		case Placeholder:
			if firstNonPlaceholder != nil {
				report(i, "node %s: placeholder comes after %s %s; move it before %s", n.Name, firstNonPlaceholder.Op, firstNonPlaceholder.Name, firstNonPlaceholder.Name)
			}
			if prev, dup := targets[n.Target]; dup {
				report(i, "node %s: placeholder %q already declared by node %s; rename one input", n.Name, n.Target, prev.Name)
			} else {
				targets[n.Target] = n
			}
			if len(n.args) != 0 {
				report(i, "node %s: placeholder has %d args, want none; remove them", n.Name, len(n.args))
			}
		case Output:
			if output != nil {
				report(i, "node %s: second output node (the first is %s); keep one output node", n.Name, output.Name)
			} else {
				output = n
			}
			if i != len(nodes)-1 {
				report(i, "node %s: output is followed by %s; move the output to the end", n.Name, nodes[i+1].Name)
			}
			if len(n.args) != 1 {
				report(i, "node %s: output has %d args, want one (a node or a list)", n.Name, len(n.args))
			}
		}
		if n.Op != Placeholder && firstNonPlaceholder == nil {
			firstNonPlaceholder = n
		}

		// Args: each node defined earlier in this graph, and listing n as a user.
		argsOK := true
		forEachNode(n.args, func(m *Node) {
			j, in := index[m]
			switch {
			case m.graph != g || !in:
				argsOK = false
				report(i, "node %s: arg %s is not a node of this graph (erased, or of another graph); replace it with ReplaceInput", n.Name, m.Name)
			case m == n:
				argsOK = false
				report(i, "node %s: uses itself as an arg; replace it with ReplaceInput", n.Name)
			case j > i:
				argsOK = false
				report(i, "node %s: arg %s is defined after its use; move %s before %s", n.Name, m.Name, m.Name, n.Name)
			case m.Op == Output:
				argsOK = false
				report(i, "node %s: uses the output node %s as an arg; use the value it returns instead", n.Name, m.Name)
			}
		})
		for _, m := range n.Inputs() {
			if !containsNode(m.users, n) {
				report(i, "node %s: uses %s but is not among %s's users; change args only with SetArgs or ReplaceInput", n.Name, m.Name, m.Name)
			}
		}

		// Users: each listed once, in this graph, really using n.
		seen := map[*Node]bool{}
		for _, u := range n.users {
			switch {
			case seen[u]:
				report(i, "node %s: user %s is listed twice; change args only with SetArgs or ReplaceInput", n.Name, u.Name)
			case u.graph != g || !inGraph(index, u):
				report(i, "node %s: user %s is not a node of this graph; erase users with EraseNode", n.Name, u.Name)
			case !containsNode(u.Inputs(), n):
				report(i, "node %s: lists %s as a user but %s does not use it; change args only with SetArgs or ReplaceInput", n.Name, u.Name, u.Name)
			}
			seen[u] = true
		}

		// Target and types.
		if n.Op == Output {
			continue
		}
		targetOK := true
		switch n.Op {
		case CallFunction, CallMethod:
			if LookupOp(n.Target) == nil {
				targetOK = false
				report(i, "node %s: %s of unknown op %q; use an op of the vocabulary (see Ops)", n.Name, n.Op, n.Target)
			}
		case CallModule:
			if g.Modules[n.Target] == nil {
				targetOK = false
				report(i, "node %s: call_module of unknown module %q; add it to Graph.Modules (have %s)", n.Name, n.Target, keysOf(g.Modules))
			}
		case GetAttr:
			if g.Params[n.Target] == nil {
				targetOK = false
				report(i, "node %s: get_attr of unknown parameter %q; add it to Graph.Params (have %s)", n.Name, n.Target, keysOf(g.Params))
			}
		}
		if !argsOK || !targetOK {
			continue
		}
		types, err := g.lintInfer(n)
		switch {
		case err != nil:
			report(i, "node %s: %v; fix its args or kwargs", n.Name, err)
		case !typesEqual(types, n.Types):
			report(i, "node %s: stored type %s, inferred %s; re-infer it with SetArgs", n.Name, formatTypes(n.Types), formatTypes(types))
		}
	}

	if len(issues) == 0 {
		return nil
	}
	sort.SliceStable(issues, func(a, b int) bool { return issues[a].pos < issues[b].pos })
	errs := make([]error, len(issues))
	for i, is := range issues {
		errs[i] = errors.New(is.msg)
	}
	return errors.Join(errs...)
}

// lintInfer infers n's types again; a type rule that panics on a broken
// graph is reported as an error.
func (g *Graph) lintInfer(n *Node) (types []Type, err error) {
	defer func() {
		if r := recover(); r != nil {
			types, err = nil, fmt.Errorf("type rule panicked: %v", r)
		}
	}()
	_, types, err = g.infer(n.Op, n.Target, n.args, n.kwargs, n.Types)
	return types, err
}

func containsNode(list []*Node, n *Node) bool {
	for _, m := range list {
		if m == n {
			return true
		}
	}
	return false
}

func typesEqual(a, b []Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

func inGraph(index map[*Node]int, n *Node) bool {
	_, ok := index[n]
	return ok
}
