// This file prints graphs: the text form (one node per line) and the table.

package ir

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
)

// FormatArg prints one arg: a node as its name, a list in brackets, numbers
// as Go literals (floats always with a point).
func FormatArg(a Arg, nodePrefix string) string {
	switch x := a.(type) {
	case *Node:
		return nodePrefix + x.Name
	case []Arg:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = FormatArg(e, nodePrefix)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case []int:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = strconv.Itoa(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s
	case string:
		return strconv.Quote(x)
	case nil:
		return "nil"
	}
	return fmt.Sprint(a)
}

func formatArgs(args []Arg, prefix string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = FormatArg(a, prefix)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func formatKwargs(kwargs []Kwarg, prefix string) string {
	parts := make([]string, len(kwargs))
	for i, kw := range kwargs {
		parts[i] = kw.Name + ": " + FormatArg(kw.Value, prefix)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func formatTypes(ts []Type) string {
	switch len(ts) {
	case 0:
		return "()"
	case 1:
		return ts[0].String()
	}
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// format prints the node's text form:
//
//	%fc1 : f32[N,512] = call_module[target=fc1](args = (%x,), kwargs = {})  # mlp.go:31
func (n *Node) format() string {
	var b strings.Builder
	if n.Op == Output {
		ret := formatArgs(n.args, "%") // a malformed output; Lint reports it
		if len(n.args) == 1 {
			ret = FormatArg(n.args[0], "%")
		}
		fmt.Fprintf(&b, "return %s", ret)
	} else {
		fmt.Fprintf(&b, "%%%s : %s = %s[target=%s](args = %s, kwargs = %s)",
			n.Name, formatTypes(n.Types), n.Op, n.Target, formatArgs(n.args, "%"), formatKwargs(n.kwargs, "%"))
	}
	if p := n.Pos.String(); p != "" {
		b.WriteString("  # " + p)
	}
	return b.String()
}

// String prints the graph's text form: one node per line, in order.
func (g *Graph) String() string {
	var b strings.Builder
	b.WriteString("graph():\n")
	for _, n := range g.Nodes() {
		b.WriteString("    " + n.format() + "\n")
	}
	return b.String()
}

// Tabular prints the graph as a table with the columns of torch.fx's
// print_tabular (opcode, name, target, args, kwargs) plus the result type
// and the source position.
func (g *Graph) Tabular() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "opcode\tname\ttarget\targs\tkwargs\ttype\tpos")
	fmt.Fprintln(w, "------\t----\t------\t----\t------\t----\t---")
	for _, n := range g.Nodes() {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", n.Op, n.Name, n.Target,
			formatArgs(n.args, ""), formatKwargs(n.kwargs, ""), formatTypes(n.Types), n.Pos)
	}
	w.Flush()
	// tabwriter pads the last column too; trim trailing blanks per line.
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
