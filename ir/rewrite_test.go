// This file tests ReplacePattern, the subgraph rewriter.

package ir

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/runtime"
)

// build returns a graph with n placeholders of type f32[N,4] (named a, b,
// ...) returning what body builds.
func build(t testing.TB, n int, body func(g *Graph, ph []*Node) *Node) *Graph {
	t.Helper()
	g := NewGraph()
	var phs []*Node
	for i := 0; i < n; i++ {
		phs = append(phs, g.Placeholder(string(rune('a'+i)), mustType(t, "f32[N,4]")))
	}
	must(t)(g.Output(body(g, phs)))
	return g
}

// call adds a call_function node or fails the test.
func call(t testing.TB, g *Graph, op string, args ...Arg) *Node {
	t.Helper()
	return must(t)(g.CallFunction(op, args))
}

// checkRewrite runs g before and after rw on random inputs and compares.
func checkRewrite(t *testing.T, g *Graph, rw func() []Match, wantMatches int) []Match {
	t.Helper()
	before := g.Copy()
	matches := rw()
	if len(matches) != wantMatches {
		t.Fatalf("got %d matches, want %d; graph now\n%v", len(matches), wantMatches, g)
	}
	if err := g.Lint(); err != nil {
		t.Fatalf("rewritten graph: %v\n%v", err, g)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 3, 8} {
		var ins []*runtime.Array
		for range g.Placeholders() {
			ins = append(ins, randArray(rng, n, 4))
		}
		sameArrays(t, run(t, g, ins...), run(t, before, ins...), 0)
	}
	return matches
}

func replace(t *testing.T, g, pattern, replacement *Graph) func() []Match {
	return func() []Match {
		t.Helper()
		m, err := ReplacePattern(g, pattern, replacement)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
}

func TestReplacePatternAddRelu(t *testing.T) {
	// relu(x + y) → relu(x - (-y)), bit for bit the same.
	pattern := build(t, 2, func(g *Graph, ph []*Node) *Node {
		return call(t, g, "relu", call(t, g, "add", ph[0], ph[1]))
	})
	replacement := build(t, 2, func(g *Graph, ph []*Node) *Node {
		return call(t, g, "relu", call(t, g, "sub", ph[0], call(t, g, "neg", ph[1])))
	})
	g := build(t, 2, func(g *Graph, ph []*Node) *Node {
		x, y := ph[0], ph[1]
		r := call(t, g, "relu", call(t, g, "add", x, y))  // match 1
		r2 := call(t, g, "relu", call(t, g, "add", r, x)) // match 2, on match 1's result
		c := call(t, g, "add", r2, y)
		d := call(t, g, "neg", c)       // c is used outside relu(c):
		r3 := call(t, g, "relu", c)     // no match here
		rl := call(t, g, "relu", x)     // relu without add: no match
		s := call(t, g, "add", 1.0, r3) // add without relu: no match
		return call(t, g, "add", call(t, g, "add", s, d), rl)
	})
	matches := checkRewrite(t, g, replace(t, g, pattern, replacement), 2)

	if got, want := matches[0].Anchor.Name+" "+matches[1].Anchor.Name, "relu relu_1"; got != want {
		t.Errorf("anchors: got %s, want %s", got, want)
	}
	padd := pattern.FindNodes(CallFunction, "add")[0]
	if got := matches[0].NodesMap[padd]; got == nil || got.Name != "add" || got.Graph() != nil {
		t.Errorf("match 0 maps the pattern's add to %v, want the erased node add", got)
	}
	if got, want := len(matches[0].NodesMap), 2; got != want {
		t.Errorf("match 0 maps %d nodes, want %d", got, want)
	}
	if in := matches[0].Inputs; len(in) != 2 || in[0].(*Node).Name != "a" || in[1].(*Node).Name != "b" {
		t.Errorf("match 0 inputs: got %v, want [a b]", FormatArg(in, "%"))
	}
	// Match 1's first input is match 0's result.
	res0 := matches[0].Replacements[len(matches[0].Replacements)-1]
	if in := matches[1].Inputs; in[0] != res0 || in[1].(*Node).Name != "a" {
		t.Errorf("match 1 inputs: got %v, want [%s a]", FormatArg(in, "%"), res0.Name)
	}
	if got := len(matches[1].Replacements); got != 3 {
		t.Errorf("match 1: got %d replacement nodes, want 3", got)
	}
	for op, want := range map[string]int{"add": 4, "sub": 2, "neg": 3, "relu": 4} {
		if got := len(g.FindNodes(CallFunction, op)); got != want {
			t.Errorf("after rewrite: got %d %s nodes, want %d\n%v", got, op, want, g)
		}
	}
}

func TestReplacePatternNonOverlapping(t *testing.T) {
	// relu(relu(x)) → relu(x) on a chain of four relus: two matches.
	pattern := build(t, 1, func(g *Graph, ph []*Node) *Node {
		return call(t, g, "relu", call(t, g, "relu", ph[0]))
	})
	replacement := build(t, 1, func(g *Graph, ph []*Node) *Node { return call(t, g, "relu", ph[0]) })
	g := build(t, 1, func(g *Graph, ph []*Node) *Node {
		r := ph[0]
		for i := 0; i < 4; i++ {
			r = call(t, g, "relu", r)
		}
		return r
	})
	checkRewrite(t, g, replace(t, g, pattern, replacement), 2)
	if got := len(g.FindNodes(CallFunction, "relu")); got != 2 {
		t.Errorf("got %d relus, want 2:\n%v", got, g)
	}
}

func TestReplacePatternRepeatedPlaceholder(t *testing.T) {
	// x + x → x * 2.0 only where both operands are the same node.
	pattern := build(t, 1, func(g *Graph, ph []*Node) *Node { return call(t, g, "add", ph[0], ph[0]) })
	replacement := build(t, 1, func(g *Graph, ph []*Node) *Node { return call(t, g, "mul", ph[0], 2.0) })
	g := build(t, 2, func(g *Graph, ph []*Node) *Node {
		return call(t, g, "sub", call(t, g, "add", ph[0], ph[0]), call(t, g, "add", ph[0], ph[1]))
	})
	checkRewrite(t, g, replace(t, g, pattern, replacement), 1)
	if got := len(g.FindNodes(CallFunction, "add")); got != 1 {
		t.Errorf("got %d adds, want 1:\n%v", got, g)
	}
}

func TestReplacePatternLiterals(t *testing.T) {
	// x * 2.0 → x + x: an int 2 and a float 3.0 do not match.
	pattern := build(t, 1, func(g *Graph, ph []*Node) *Node { return call(t, g, "mul", ph[0], 2.0) })
	replacement := build(t, 1, func(g *Graph, ph []*Node) *Node { return call(t, g, "add", ph[0], ph[0]) })
	g := build(t, 1, func(g *Graph, ph []*Node) *Node {
		a := call(t, g, "mul", ph[0], 2.0)
		b := call(t, g, "mul", ph[0], 2)
		c := call(t, g, "mul", ph[0], 3.0)
		return call(t, g, "add", call(t, g, "add", a, b), c)
	})
	checkRewrite(t, g, replace(t, g, pattern, replacement), 1)

	// A placeholder matches a literal too: x * s → s * x.
	pattern = build(t, 2, func(g *Graph, ph []*Node) *Node { return call(t, g, "sub", ph[0], ph[1]) })
	replacement = build(t, 2, func(g *Graph, ph []*Node) *Node {
		return call(t, g, "add", ph[0], call(t, g, "neg", ph[1]))
	})
	g = build(t, 1, func(g *Graph, ph []*Node) *Node { return call(t, g, "sub", ph[0], 1.5) })
	if _, err := ReplacePattern(g, pattern, replacement); err == nil || !strings.Contains(err.Error(), "operand input must be a tensor") {
		t.Errorf("neg of a literal: got %v, want an error from inlining", err)
	}
	if err := g.Lint(); err != nil || len(g.FindNodes(CallFunction, "sub")) != 1 {
		t.Errorf("after a failed rewrite: lint %v, graph\n%v", err, g)
	}
	replacement = build(t, 2, func(g *Graph, ph []*Node) *Node {
		return call(t, g, "add", call(t, g, "mul", ph[1], -1.0), ph[0])
	})
	m := checkRewrite(t, g, replace(t, g, pattern, replacement), 1)
	if got := m[0].Inputs[1]; got != 1.5 {
		t.Errorf("literal input: got %v, want 1.5", got)
	}
}

func TestReplacePatternKwargs(t *testing.T) {
	// sum over dim 1 → sum over dim -1; an omitted attribute equals its default.
	pattern := build(t, 1, func(g *Graph, ph []*Node) *Node {
		return must(t)(g.CallFunction("sum", []Arg{ph[0]}, Kwarg{"dim", []int{1}}))
	})
	replacement := build(t, 1, func(g *Graph, ph []*Node) *Node {
		return must(t)(g.CallFunction("sum", []Arg{ph[0]}, Kwarg{"dim", []int{-1}}))
	})
	g := NewGraph()
	x := g.Placeholder("x", mustType(t, "f32[N,4]"))
	s1 := must(t)(g.CallFunction("sum", []Arg{x}, Kwarg{"dim", []int{1}}))
	s2 := must(t)(g.CallFunction("sum", []Arg{x}, Kwarg{"dim", []int{1}}, Kwarg{"keepdim", false}))
	s3 := must(t)(g.CallFunction("sum", []Arg{x}, Kwarg{"dim", []int{1}}, Kwarg{"keepdim", true}))
	must(t)(g.Output([]Arg{s1, s2, s3}))
	checkRewrite(t, g, replace(t, g, pattern, replacement), 2)
}

func TestReplacePatternSpellingsAndOutsideUses(t *testing.T) {
	// The pattern's call_function mul (tensor.Mul(a, b)) matches mlp's
	// call_method mul (a.Mul(b)): one op spelled two ways.
	pattern := build(t, 2, func(g *Graph, ph []*Node) *Node { return call(t, g, "mul", ph[0], ph[1]) })
	replacement := build(t, 2, func(g *Graph, ph []*Node) *Node { return call(t, g, "mul", ph[1], ph[0]) })
	g := mlpGraph(t)
	checkRewrite(t, g, replace(t, g, pattern, replacement), 1)

	// A placeholder may not match a node the match erases: in mul(r, r)
	// with r = relu(z), x cannot stand for r while relu(y) claims it.
	pattern = build(t, 2, func(g *Graph, ph []*Node) *Node {
		return call(t, g, "mul", ph[0], call(t, g, "relu", ph[1]))
	})
	replacement = build(t, 2, func(g *Graph, ph []*Node) *Node {
		return call(t, g, "mul", call(t, g, "relu", ph[1]), ph[0])
	})
	g = build(t, 1, func(g *Graph, ph []*Node) *Node {
		r := call(t, g, "relu", ph[0])
		return call(t, g, "mul", r, r)
	})
	checkRewrite(t, g, replace(t, g, pattern, replacement), 0)
}

func TestReplacePatternErrors(t *testing.T) {
	one := build(t, 1, func(g *Graph, ph []*Node) *Node { return call(t, g, "relu", ph[0]) })
	two := build(t, 2, func(g *Graph, ph []*Node) *Node { return call(t, g, "add", ph[0], ph[1]) })
	identity := build(t, 1, func(g *Graph, ph []*Node) *Node { return ph[0] })
	sum := build(t, 1, func(g *Graph, ph []*Node) *Node { return call(t, g, "sum", ph[0]) })
	noOutput := NewGraph()
	noOutput.Placeholder("a", mustType(t, "f32[N,4]"))
	for _, tc := range []struct {
		name                 string
		pattern, replacement *Graph
		want                 string
	}{
		{"placeholder counts", one, two, "pattern has 1 placeholders, replacement 2"},
		{"pattern returns placeholder", identity, one, "the pattern returns its placeholder a"},
		{"no output", noOutput, one, "pattern has 0 output nodes, want one"},
		{"replacement changes type", one, sum, "at relu: replacement gives f32[], the match f32[N,8]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := mlpGraph(t)
			before := g.String()
			_, err := ReplacePattern(g, tc.pattern, tc.replacement)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
			if got := g.String(); got != before {
				t.Errorf("failed rewrite changed the graph to\n%s", got)
			}
			if err := g.Lint(); err != nil {
				t.Error(err)
			}
		})
	}
	// The replacement may return its placeholder: relu(x) → x.
	g := mlpGraph(t)
	m, err := ReplacePattern(g, one, identity)
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 2 || len(g.FindNodes(CallFunction, "relu")) != 0 {
		t.Errorf("relu → x: got %d matches, graph\n%v", len(m), g)
	}
	if err := g.Lint(); err != nil {
		t.Error(err)
	}
}
