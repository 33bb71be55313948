// This file tests Lint on graphs broken one invariant at a time.

package ir

import (
	"strings"
	"testing"
)

// unlink takes n out of its graph's list without touching users.
func unlink(n *Node) {
	n.prev.next = n.next
	n.next.prev = n.prev
}

// relinkBefore puts the unlinked n back just before at.
func relinkBefore(n, at *Node) {
	n.prev, n.next = at.prev, at
	at.prev.next = n
	at.prev = n
}

// lintMessages returns Lint's messages, one per problem.
func lintMessages(g *Graph) []string {
	err := g.Lint()
	if err == nil {
		return nil
	}
	return strings.Split(err.Error(), "\n")
}

func TestLintCatches(t *testing.T) {
	for _, tc := range []struct {
		name    string
		corrupt func(t *testing.T, g *Graph)
		want    []string // each message, in order, contains the strings of one entry
	}{
		{
			name: "arg defined after use",
			corrupt: func(t *testing.T, g *Graph) {
				h := node(t, g, "linear")
				unlink(h)
				relinkBefore(h, node(t, g, "add"))
			},
			want: []string{"node relu: arg linear is defined after its use; move linear before relu"},
		},
		{
			name: "missing user",
			corrupt: func(t *testing.T, g *Graph) {
				r := node(t, g, "relu")
				r.users = r.users[:1] // drop mul
			},
			want: []string{"node mul: uses relu but is not among relu's users"},
		},
		{
			name: "stale user",
			corrupt: func(t *testing.T, g *Graph) {
				x := node(t, g, "x")
				x.users = append(x.users, node(t, g, "relu_1"))
			},
			want: []string{"node x: lists relu_1 as a user but relu_1 does not use it"},
		},
		{
			name: "duplicate user",
			corrupt: func(t *testing.T, g *Graph) {
				x := node(t, g, "x")
				x.users = append(x.users, x.users[0])
			},
			want: []string{"node x: user linear is listed twice"},
		},
		{
			name: "user of another graph",
			corrupt: func(t *testing.T, g *Graph) {
				other := mlpGraph(t)
				x := node(t, g, "x")
				x.users = append(x.users, node(t, other, "linear"))
			},
			want: []string{"node x: user linear is not a node of this graph"},
		},
		{
			name: "arg erased",
			corrupt: func(t *testing.T, g *Graph) {
				a := node(t, g, "add")
				stray := &Node{Name: "stray", Op: CallFunction, Target: "relu"}
				a.args[1] = stray
				stray.users = []*Node{a}
			},
			want: []string{"node add: arg stray is not a node of this graph"},
		},
		{
			name: "two outputs",
			corrupt: func(t *testing.T, g *Graph) {
				must(t)(g.Output(node(t, g, "relu")))
			},
			want: []string{
				"node output: output is followed by output_1; move the output to the end",
				"node output_1: second output node (the first is output)",
			},
		},
		{
			name: "output not last",
			corrupt: func(t *testing.T, g *Graph) {
				must(t)(g.CallFunction("neg", []Arg{node(t, g, "relu")}))
			},
			want: []string{"node output: output is followed by neg; move the output to the end"},
		},
		{
			name: "unknown op",
			corrupt: func(t *testing.T, g *Graph) {
				node(t, g, "add").Target = "plus"
			},
			want: []string{`node add: call_function of unknown op "plus"`},
		},
		{
			name: "unknown method op",
			corrupt: func(t *testing.T, g *Graph) {
				node(t, g, "mul").Target = "times"
			},
			want: []string{`node mul: call_method of unknown op "times"`},
		},
		{
			name: "unknown module",
			corrupt: func(t *testing.T, g *Graph) {
				delete(g.Modules, "fc2")
			},
			want: []string{`node fc2: call_module of unknown module "fc2"; add it to Graph.Modules`},
		},
		{
			name: "unknown parameter",
			corrupt: func(t *testing.T, g *Graph) {
				delete(g.Params, "fc1.bias")
			},
			want: []string{`node fc1_bias: get_attr of unknown parameter "fc1.bias"; add it to Graph.Params`},
		},
		{
			name: "placeholder after other nodes",
			corrupt: func(t *testing.T, g *Graph) {
				g.InsertingAt(Before(g.OutputNode()), func() { g.Placeholder("late", mustType(t, "f32[1]")) })
			},
			want: []string{"node late: placeholder comes after get_attr fc1_weight; move it before fc1_weight"},
		},
		{
			name: "duplicate placeholder",
			corrupt: func(t *testing.T, g *Graph) {
				g.InsertingAt(After(node(t, g, "x")), func() {
					must(t)(g.CreateNode(Placeholder, "x", nil, nil, "x", mustType(t, "f32[1]")))
				})
			},
			want: []string{`node x_1: placeholder "x" already declared by node x`},
		},
		{
			name: "duplicate name",
			corrupt: func(t *testing.T, g *Graph) {
				node(t, g, "relu_1").Name = "relu"
			},
			want: []string{"node relu: name already used by node #4 (call_function relu)"},
		},
		{
			name: "stale type",
			corrupt: func(t *testing.T, g *Graph) {
				node(t, g, "add").Types[0] = mustType(t, "f32[N,9]")
			},
			want: []string{
				"node add: stored type f32[N,9], inferred f32[N,8]; re-infer it with SetArgs",
				// mul's own inference now sees f32[N,9] against relu's f32[N,8].
				"node mul: mul: shapes [N,9] and [N,8] do not broadcast",
			},
		},
		{
			name: "target changed behind SetTarget's back",
			corrupt: func(t *testing.T, g *Graph) {
				node(t, g, "add").Target = "gt"
			},
			want: []string{"node add: stored type f32[N,8], inferred bool[N,8]"},
		},
		{
			name: "several problems are sorted by position",
			corrupt: func(t *testing.T, g *Graph) {
				node(t, g, "relu_1").Target = "nope"
				node(t, g, "relu").Target = "nope"
				delete(g.Params, "fc1.weight")
			},
			want: []string{
				`node fc1_weight: get_attr of unknown parameter "fc1.weight"`,
				`node relu: call_function of unknown op "nope"`,
				`node relu_1: call_function of unknown op "nope"`,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := mlpGraph(t)
			tc.corrupt(t, g)
			got := lintMessages(g)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d problems, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d: got %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func TestLintCleanGraphs(t *testing.T) {
	if err := NewGraph().Lint(); err != nil {
		t.Errorf("empty graph: got %v, want nil", err)
	}
	if err := mlpGraph(t).Lint(); err != nil {
		t.Errorf("mlp graph: got %v, want nil", err)
	}
}

func TestLintBrokenList(t *testing.T) {
	g := mlpGraph(t)
	g.len++
	if got := lintMessages(g); len(got) != 1 || !strings.Contains(got[0], "records 11 nodes but holds 10") {
		t.Errorf("miscounted graph: got %q, want one problem about 11 vs 10 nodes", got)
	}
	g = mlpGraph(t)
	r := node(t, g, "relu")
	r.next.prev = r.prev // add no longer links back to relu
	if got := lintMessages(g); len(got) != 1 || !strings.Contains(got[0], "node relu: its successor does not link back to it") {
		t.Errorf("broken back link: got %q", got)
	}
}

func TestLintMalformedOutput(t *testing.T) {
	g := NewGraph()
	x := g.Placeholder("x", mustType(t, "f32[2]"))
	must(t)(g.CreateNode(Output, "output", []Arg{x, x}, nil, ""))
	if got := lintMessages(g); len(got) != 1 || !strings.Contains(got[0], "node output: output has 2 args, want one") {
		t.Errorf("got %q, want one problem about the output's args", got)
	}
	if got, want := g.OutputNode().String(), "return (%x, %x)"; got != want {
		t.Errorf("printed: got %q, want %q", got, want)
	}
}
