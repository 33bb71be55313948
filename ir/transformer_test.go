// This file tests Transformer: identity copies and per-opcode overrides.

package ir

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestTransformerIdentity(t *testing.T) {
	g := mlpGraph(t)
	node(t, g, "add").Meta = map[string]any{"fused": true}
	before := g.String()
	g2, err := NewTransformer(g).Transform()
	if err != nil {
		t.Fatal(err)
	}
	if g2 == g {
		t.Fatal("Transform returned the same graph")
	}
	if got := g2.String(); got != before {
		t.Errorf("identity transform prints\n%s\nwant\n%s", got, before)
	}
	if got := g.String(); got != before {
		t.Errorf("transform changed the original to\n%s", got)
	}
	if err := g2.Lint(); err != nil {
		t.Error(err)
	}
	if got := node(t, g2, "add").Meta["fused"]; got != true {
		t.Errorf("Meta: got %v, want true", got)
	}
	if g2.Params["fc1.weight"] == g.Params["fc1.weight"] || g2.Params["fc1.weight"].Value != g.Params["fc1.weight"].Value {
		t.Errorf("params: want copies sharing the data")
	}
	if g2.Modules["fc2"] == nil || g2.Forward == nil || g2.Forward.Params[0].Name != "x" {
		t.Errorf("modules or Forward not carried over: %v %v", g2.Modules, g2.Forward)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 4, 9} {
		in := randArray(rng, n, 4)
		sameArrays(t, run(t, g2, in), run(t, g, in), 0)
	}
}

// reluToGtMul replaces every relu call by (x > 0) * x.
func reluToGtMul(t *Transformer, n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
	if n.Target != "relu" {
		return t.DefaultCallFunction(n, args, kwargs)
	}
	pos, err := t.New.CallFunction("gt", []Arg{args[0], 0.0})
	if err != nil {
		return nil, err
	}
	return t.New.CallFunction("mul", []Arg{pos, args[0]})
}

func TestTransformerReluToGtMul(t *testing.T) {
	g := mlpGraph(t)
	tr := NewTransformer(g)
	tr.CallFunction = reluToGtMul
	g2, err := tr.Transform()
	if err != nil {
		t.Fatal(err)
	}
	if err := g2.Lint(); err != nil {
		t.Fatal(err)
	}
	if got := len(g2.FindNodes(CallFunction, "relu")); got != 0 {
		t.Errorf("got %d relu nodes left, want 0:\n%v", got, g2)
	}
	if got := len(g2.FindNodes(CallFunction, "gt")); got != 2 {
		t.Errorf("got %d gt nodes, want 2:\n%v", got, g2)
	}
	if got, want := g2.Len(), g.Len()+2; got != want {
		t.Errorf("got %d nodes, want %d", got, want)
	}
	// The call_method mul is untouched; the new nodes got relu's position.
	if got := len(g2.FindNodes(CallMethod, "mul")); got != 1 {
		t.Errorf("got %d call_method mul nodes, want 1:\n%v", got, g2)
	}
	r := node(t, g, "relu")
	r.Pos = Pos{File: "mlp.go", Line: 12}
	g2, err = tr.Transform()
	if err != nil {
		t.Fatal(err)
	}
	if got := node(t, g2, "gt").Pos; got != r.Pos {
		t.Errorf("gt pos: got %v, want relu's %v", got, r.Pos)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 5, 16} {
		in := randArray(rng, n, 4) // about half the values are negative
		sameArrays(t, run(t, g2, in), run(t, g, in), 0)
	}
}

func TestTransformerOverridesEveryOpcode(t *testing.T) {
	g := mlpGraph(t)
	seen := map[Opcode]int{}
	count := func(t *Transformer, n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
		seen[n.Op]++
		return t.copyNode(n, args, kwargs)
	}
	tr := &Transformer{Graph: g, Placeholder: count, GetAttr: count, CallFunction: count, CallMethod: count, CallModule: count, Output: count}
	if _, err := tr.Transform(); err != nil {
		t.Fatal(err)
	}
	want := map[Opcode]int{Placeholder: 1, GetAttr: 2, CallFunction: 4, CallMethod: 1, CallModule: 1, Output: 1}
	for op, w := range want {
		if seen[op] != w {
			t.Errorf("%v override: got %d calls, want %d", op, seen[op], w)
		}
	}
}

func TestTransformerErrors(t *testing.T) {
	g := mlpGraph(t)
	g.OutputNode().Pos = Pos{File: "mlp.go", Line: 20}

	// Dropping a node that is used names the user and the dropped arg.
	tr := NewTransformer(g)
	tr.CallFunction = func(t *Transformer, n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
		if n.Name == "relu_1" {
			return nil, nil
		}
		return t.DefaultCallFunction(n, args, kwargs)
	}
	_, err := tr.Transform()
	if err == nil || !strings.Contains(err.Error(), "node output (mlp.go:20): arg relu_1 was dropped") {
		t.Errorf("dropping a used node: got %v", err)
	}

	// Dropping an unused node is fine.
	tr.CallFunction = func(t *Transformer, n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
		return t.DefaultCallFunction(n, args, kwargs)
	}
	tr.GetAttr = func(t *Transformer, n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
		if n.Target == "fc1.bias" {
			return nil, nil
		}
		return t.DefaultGetAttr(n, args, kwargs)
	}
	if _, err := tr.Transform(); err == nil || !strings.Contains(err.Error(), "node linear (mlp.go:11): arg fc1_bias was dropped") {
		t.Errorf("dropping fc1_bias: got %v", err)
	}

	// A failing override names the node; a panic is turned into an error.
	tr = NewTransformer(g)
	tr.CallMethod = func(t *Transformer, n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
		return t.New.CallFunction("matmul", args) // [N,8]·[N,8] does not fit
	}
	if _, err := tr.Transform(); err == nil || !strings.Contains(err.Error(), "node mul: matmul: inner dims") {
		t.Errorf("failing override: got %v", err)
	}
	tr.CallMethod = func(t *Transformer, n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
		panic("boom")
	}
	if _, err := tr.Transform(); err == nil || !strings.Contains(err.Error(), "node mul: panic: boom") {
		t.Errorf("panicking override: got %v", err)
	}
	// Returning a node of another graph is refused.
	foreign := node(t, mlpGraph(t), "mul")
	tr.CallMethod = func(t *Transformer, n *Node, args []Arg, kwargs []Kwarg) (*Node, error) {
		return foreign, nil
	}
	if _, err := tr.Transform(); err == nil || !strings.Contains(err.Error(), "not a node of the new graph") {
		t.Errorf("foreign node: got %v", err)
	}
}
