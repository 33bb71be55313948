// This file tests the Graphviz DOT rendering.

package ir

import (
	"strings"
	"testing"
)

func TestDOT(t *testing.T) {
	g := mlpGraph(t)
	dot := g.DOT()
	if !strings.HasPrefix(dot, "digraph G {\n") || !strings.HasSuffix(dot, "}\n") {
		t.Errorf("got\n%s\nwant a digraph", dot)
	}
	for _, want := range []string{
		`"x" [label="x\nplaceholder\nf32[N,4]\nmlp.go:10", shape=ellipse];`,
		`"fc1_weight" [label="fc1_weight\nget_attr fc1.weight\nf32[8,4]", shape=note];`,
		`"linear" [label="linear\ncall_function linear\nf32[N,8]\nmlp.go:11", shape=box];`,
		`"mul" [label="mul\ncall_method mul\nf32[N,8]", shape=box];`,
		`"fc2" [label="fc2\ncall_module fc2\nf32[N,3]", shape=box];`,
		`"output" [label="output\noutput", shape=doubleoctagon];`,
		`"x" -> "linear";`,
		`"fc1_weight" -> "linear";`,
		`"fc1_bias" -> "linear";`,
		`"relu" -> "add";`,
		`"add" -> "mul";`,
		`"relu" -> "mul";`,
		`"mul" -> "fc2";`,
		`"relu_1" -> "output";`,
	} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %s; got\n%s", want, dot)
		}
	}
	// One edge per distinct (input, user) pair.
	if got, want := strings.Count(dot, " -> "), 10; got != want {
		t.Errorf("got %d edges, want %d:\n%s", got, want, dot)
	}
	if again := g.DOT(); again != dot {
		t.Errorf("DOT is not deterministic:\n%s\nthen\n%s", dot, again)
	}
	// Vertices come in node order.
	if i, j := strings.Index(dot, `"relu" [`), strings.Index(dot, `"relu_1" [`); i < 0 || j < i {
		t.Errorf("relu at %d, relu_1 at %d: want node order", i, j)
	}
}

func TestDOTKwargsAndQuoting(t *testing.T) {
	g := NewGraph()
	x := g.Placeholder("x", mustType(t, "f32[2,3]"))
	s := must(t)(g.CallFunction("sum", []Arg{x}, Kwarg{"dim", []int{1}}))
	s.Pos = Pos{File: `dir/we"ird.go`, Line: 3}
	must(t)(g.Output(s))
	dot := g.DOT()
	want := `"sum" [label="sum\ncall_function sum\n{dim: [1]}\nf32[2]\nwe\"ird.go:3", shape=box];`
	if !strings.Contains(dot, want) {
		t.Errorf("got\n%s\nwant it to contain\n%s", dot, want)
	}
	if strings.Count(dot, `"x" -> "sum";`) != 1 {
		t.Errorf("want exactly one edge x -> sum in\n%s", dot)
	}
}
