// This file defines the subgraph rewriter: find a pattern, inline a replacement.

package ir

import (
	"fmt"
	"reflect"
)

// Match is one place where ReplacePattern found its pattern.
type Match struct {
	// Anchor is the node of the graph that matched the value the pattern
	// returns. It has been erased by the time ReplacePattern returns.
	Anchor *Node
	// NodesMap maps each node of the pattern reached from its output
	// (placeholders excluded) to the node of the graph it matched; those
	// graph nodes have been erased.
	NodesMap map[*Node]*Node
	// Inputs holds, for each placeholder of the pattern in order, what it
	// matched: a node of the graph or a literal value. (A placeholder that
	// the returned value does not depend on holds nil.)
	Inputs []Arg
	// Replacements are the nodes inlined from the replacement, in order;
	// the last one took over the anchor's users.
	Replacements []*Node
}

// ReplacePattern replaces every occurrence of pattern in g by replacement,
// in the manner of torch.fx's subgraph_rewriter.replace_pattern, and
// returns the matches in graph order.
//
// Pattern and replacement are graphs with the same number of placeholders
// and one output node that returns one node. The pattern matches at a node
// of g (the anchor) when, walking back from the node the pattern returns,
// each pattern node has the same opcode, target and kwargs (defaults
// included) as the graph node (call_function and call_method count as the
// same opcode, so a pattern written tensor.Relu(x) matches x.Relu()) and args of the same structure: literals
// equal (an int never equals a float64), lists of the same length, nodes
// matching. A pattern placeholder matches any node or literal, and the
// same one wherever it occurs. Every matched graph node but the anchor must
// be used only inside the match, since it is about to disappear.
//
// At each match the replacement's nodes are inlined before the anchor,
// with its i-th placeholder standing for what the pattern's i-th
// placeholder matched; the anchor's users then use the replacement's
// result, which must have the anchor's type, and the matched nodes are
// erased. Anchors are tried in graph order and matches do not overlap:
// nodes inlined by an earlier match are not matched again except as
// placeholders.
func ReplacePattern(g *Graph, pattern, replacement *Graph) ([]Match, error) {
	pout, err := patternOutput(pattern, "pattern")
	if err != nil {
		return nil, err
	}
	if pout.Op == Placeholder {
		return nil, fmt.Errorf("ir: ReplacePattern: the pattern returns its placeholder %s; return a computed node", pout.Name)
	}
	if _, err := patternOutput(replacement, "replacement"); err != nil {
		return nil, err
	}
	pphs, rphs := pattern.Placeholders(), replacement.Placeholders()
	if len(pphs) != len(rphs) {
		return nil, fmt.Errorf("ir: ReplacePattern: pattern has %d placeholders, replacement %d; want the same number", len(pphs), len(rphs))
	}

	var matches []Match
	inlined := map[*Node]bool{}
	for n := g.First(); n != nil; {
		next := n.Next()
		m := &matcher{pattern: pattern, nodes: map[*Node]*Node{}, claimed: map[*Node]bool{}, bound: map[*Node]Arg{}, inlined: inlined}
		if n.Op != Output && n.Op != Placeholder && !inlined[n] && m.matchNode(pout, n) && m.selfContained(n) {
			match, err := m.replace(g, n, pphs, replacement)
			if err != nil {
				return matches, err
			}
			for _, r := range match.Replacements {
				inlined[r] = true
			}
			matches = append(matches, match)
		}
		n = next
	}
	return matches, nil
}

// patternOutput returns the node a pattern or replacement graph returns.
func patternOutput(g *Graph, what string) (*Node, error) {
	outs := g.FindNodes(Output, "")
	if len(outs) != 1 {
		return nil, fmt.Errorf("ir: ReplacePattern: %s has %d output nodes, want one", what, len(outs))
	}
	if len(outs[0].args) != 1 {
		return nil, fmt.Errorf("ir: ReplacePattern: %s output has %d args, want one", what, len(outs[0].args))
	}
	r, ok := outs[0].args[0].(*Node)
	if !ok {
		return nil, fmt.Errorf("ir: ReplacePattern: %s returns %s, want one node", what, FormatArg(outs[0].args[0], "%"))
	}
	return r, nil
}

// matcher holds the state of one attempt to match a pattern at an anchor.
type matcher struct {
	pattern *Graph
	nodes   map[*Node]*Node // pattern node → graph node
	claimed map[*Node]bool  // graph nodes matched by pattern nodes
	bound   map[*Node]Arg   // pattern placeholder → graph node or literal
	inlined map[*Node]bool  // nodes of earlier replacements
}

// matchArg matches one pattern arg against one graph arg.
func (m *matcher) matchArg(p, a Arg) bool {
	switch x := p.(type) {
	case *Node:
		if x.Op == Placeholder {
			if b, ok := m.bound[x]; ok {
				return sameArg(b, a)
			}
			m.bound[x] = a
			return true
		}
		n, ok := a.(*Node)
		return ok && m.matchNode(x, n)
	case []Arg:
		l, ok := a.([]Arg)
		if !ok || len(l) != len(x) {
			return false
		}
		for i := range x {
			if !m.matchArg(x[i], l[i]) {
				return false
			}
		}
		return true
	}
	return sameArg(p, a)
}

// matchNode matches the non-placeholder pattern node p against node n.
func (m *matcher) matchNode(p, n *Node) bool {
	if prev, ok := m.nodes[p]; ok {
		return prev == n
	}
	if m.claimed[n] || m.inlined[n] || !sameOpcode(p.Op, n.Op) || p.Target != n.Target || len(p.args) != len(n.args) {
		return false
	}
	if !sameKwargs(p, n) {
		return false
	}
	if p.Op == CallModule {
		// The same target name is not enough if the graphs disagree on it.
		pm, nm := m.pattern.Modules[p.Target], n.graph.Modules[n.Target]
		if pm == nil || nm == nil || pm.Kind != nm.Kind {
			return false
		}
	}
	m.nodes[p] = n
	m.claimed[n] = true
	for i := range p.args {
		if !m.matchArg(p.args[i], n.args[i]) {
			return false
		}
	}
	return true
}

// sameOpcode reports whether a pattern node of opcode p matches a node of
// opcode n: call_function and call_method of an op of the vocabulary are
// one computation spelled two ways (tensor.Relu(x) and x.Relu()).
func sameOpcode(p, n Opcode) bool {
	isCall := func(o Opcode) bool { return o == CallFunction || o == CallMethod }
	return p == n || isCall(p) && isCall(n)
}

// selfContained reports whether every matched node but the anchor is used
// only by matched nodes, and no placeholder matched one of them (the
// replacement could not use it once erased).
func (m *matcher) selfContained(anchor *Node) bool {
	for _, b := range m.bound {
		if n, ok := b.(*Node); ok && m.claimed[n] {
			return false
		}
	}
	for _, n := range m.nodes {
		if n == anchor {
			continue
		}
		for _, u := range n.users {
			if !m.claimed[u] {
				return false
			}
		}
	}
	return true
}

// replace inlines replacement before anchor and erases the match.
func (m *matcher) replace(g *Graph, anchor *Node, pphs []*Node, replacement *Graph) (Match, error) {
	match := Match{Anchor: anchor, NodesMap: m.nodes, Inputs: make([]Arg, len(pphs))}
	for i, ph := range pphs {
		match.Inputs[i] = m.bound[ph]
	}
	env := map[*Node]Arg{}
	var result *Node
	var err error
	g.InsertingAt(Before(anchor), func() {
		rphs := replacement.Placeholders()
		for i, ph := range rphs {
			env[ph] = match.Inputs[i]
		}
		live := liveNodes(replacement)
		for _, r := range replacement.Nodes() {
			switch {
			case !live[r] || r.Op == Placeholder:
				continue
			case r.Op == Output:
				v := env[r.args[0].(*Node)]
				n, ok := v.(*Node)
				if !ok {
					err = fmt.Errorf("replacement returns %s, which is not a node here", FormatArg(v, "%"))
					return
				}
				result = n
				continue
			}
			args := substituteArgs(r.args, func(x *Node) Arg { return env[x] })
			var c *Node
			c, err = g.CreateNode(r.Op, r.Target, args, r.kwargs, r.Name)
			if err != nil {
				err = fmt.Errorf("inlining replacement node %s: %v", r.Name, err)
				return
			}
			c.Pos = anchor.Pos
			env[r] = c
			match.Replacements = append(match.Replacements, c)
		}
	})
	if err == nil && !typesEqual(result.Types, anchor.Types) {
		err = fmt.Errorf("replacement gives %s, the match %s", formatTypes(result.Types), formatTypes(anchor.Types))
	}
	if err != nil {
		for i := len(match.Replacements) - 1; i >= 0; i-- {
			g.EraseNode(match.Replacements[i])
		}
		return Match{}, fmt.Errorf("ir: ReplacePattern: at %s: %v", anchor.Name, err)
	}
	if _, err := anchor.ReplaceAllUsesWith(result, nil); err != nil {
		return Match{}, fmt.Errorf("ir: ReplacePattern: at %s: %v", anchor.Name, err)
	}
	// Erase the matched nodes from the anchor backwards: each is unused by
	// the time it is reached.
	left := len(m.claimed)
	for n := anchor; n != nil && left > 0; {
		prev := n.Prev()
		if m.claimed[n] {
			if err := g.EraseNode(n); err != nil {
				return match, fmt.Errorf("ir: ReplacePattern: at %s: %v", anchor.Name, err)
			}
			left--
		}
		n = prev
	}
	return match, nil
}

// sameArg reports whether two non-pattern args are the same: the same
// node, or equal literals of the same Go type.
func sameArg(a, b Arg) bool {
	if x, ok := a.(*Node); ok {
		y, ok := b.(*Node)
		return ok && x == y
	}
	if x, ok := a.([]Arg); ok {
		y, ok := b.([]Arg)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameArg(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// sameKwargs compares the kwargs of two nodes of the same opcode and
// target; for an op of the vocabulary, an omitted attribute equals its
// default.
func sameKwargs(p, n *Node) bool {
	op := LookupOp(p.Target)
	if op == nil || p.Op != CallFunction && p.Op != CallMethod {
		return reflect.DeepEqual(kwargMap(p.kwargs), kwargMap(n.kwargs))
	}
	ps, ns := &Sig{Op: op, Kwargs: p.kwargs}, &Sig{Op: op, Kwargs: n.kwargs}
	for _, a := range op.Attrs {
		if !reflect.DeepEqual(ps.Value(a.Name), ns.Value(a.Name)) {
			return false
		}
	}
	return true
}

func kwargMap(kws []Kwarg) map[string]any {
	out := map[string]any{}
	for _, kw := range kws {
		out[kw.Name] = kw.Value
	}
	return out
}

// liveNodes returns the nodes the output of g depends on, output included.
func liveNodes(g *Graph) map[*Node]bool {
	live := map[*Node]bool{}
	nodes := g.Nodes()
	for i := len(nodes) - 1; i >= 0; i-- {
		n := nodes[i]
		if n.Op == Output || live[n] {
			live[n] = true
			for _, in := range n.Inputs() {
				live[in] = true
			}
		}
	}
	return live
}
