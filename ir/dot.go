// This file renders a graph in the Graphviz DOT language.

package ir

import (
	"fmt"
	"strings"
)

// DOT returns the graph in the Graphviz DOT language, one vertex per node
// and one edge per distinct node arg, pointing from the arg to its user.
// A vertex is labelled with the node's name, its opcode and target, and its
// type; placeholders, parameters and the output get their own shapes. The
// output is deterministic: vertices in node order, edges in arg order.
//
//	digraph G {
//		"x" [label="x\nplaceholder\nf32[N,4]", shape=ellipse];
//		"relu" [label="relu\ncall_function relu\nf32[N,4]", shape=box];
//		"x" -> "relu";
//		...
//	}
//
// Render it with `dot -Tsvg graph.dot > graph.svg`.
func (g *Graph) DOT() string {
	var b strings.Builder
	b.WriteString("digraph G {\n")
	b.WriteString("\trankdir=TB;\n")
	b.WriteString("\tnode [fontname=\"monospace\"];\n")
	for _, n := range g.Nodes() {
		label := []string{n.Name}
		switch n.Op {
		case Placeholder, Output:
			label = append(label, n.Op.String())
		default:
			label = append(label, n.Op.String()+" "+n.Target)
		}
		if len(n.kwargs) > 0 {
			label = append(label, formatKwargs(n.kwargs, ""))
		}
		if len(n.Types) > 0 {
			label = append(label, formatTypes(n.Types))
		}
		if p := n.Pos.String(); p != "" {
			label = append(label, p)
		}
		fmt.Fprintf(&b, "\t%s [label=%s, shape=%s];\n", dotQuote(n.Name), dotLabel(label), dotShape(n.Op))
	}
	for _, n := range g.Nodes() {
		for _, in := range n.Inputs() {
			fmt.Fprintf(&b, "\t%s -> %s;\n", dotQuote(in.Name), dotQuote(n.Name))
		}
	}
	b.WriteString("}\n")
	return b.String()
}

func dotShape(op Opcode) string {
	switch op {
	case Placeholder:
		return "ellipse"
	case GetAttr:
		return "note"
	case Output:
		return "doubleoctagon"
	}
	return "box"
}

// dotQuote returns s as a DOT quoted string.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// dotLabel returns the lines as one quoted DOT label, one line each.
func dotLabel(lines []string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ")
	for i, l := range lines {
		lines[i] = r.Replace(l)
	}
	return `"` + strings.Join(lines, `\n`) + `"`
}
