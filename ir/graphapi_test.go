// This file checks the graph API as torch.fx users expect it: Meta, copies
// across graphs, and the interpreter's RunNode hook.

package ir

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/runtime"
)

func TestMetaIsNeverNil(t *testing.T) {
	g := mlpGraph(t)
	for _, n := range g.Nodes() {
		n.Meta["seen"] = n.Name // panics on a nil map
	}
	c := g.Copy()
	for _, n := range c.Nodes() {
		if n.Meta["seen"] != n.Name {
			t.Errorf("copy of %s: Meta %v, want the original's", n.Name, n.Meta)
		}
		n.Meta["copy"] = true
	}
	for _, n := range g.Nodes() {
		if _, ok := n.Meta["copy"]; ok {
			t.Errorf("%s: writing the copy's Meta changed the original's", n.Name)
		}
	}
}

func TestNodeCopyAcrossGraphsBringsParamsAndModules(t *testing.T) {
	src := mlpGraph(t)
	dst := NewGraph()
	env := map[*Node]*Node{}
	for _, n := range src.Nodes() {
		c, err := dst.NodeCopy(n, func(x *Node) *Node { return env[x] })
		if err != nil {
			t.Fatal(err)
		}
		env[n] = c
	}
	if err := dst.Lint(); err != nil {
		t.Fatalf("copied graph: %v\n%v", err, dst)
	}
	if len(dst.Params) != 4 || dst.Modules["fc2"] == nil {
		t.Errorf("copied graph holds params %v and modules %v, want fc1's and fc2's", keysOf(dst.Params), keysOf(dst.Modules))
	}
	x := randArray(rand.New(rand.NewPCG(3, 4)), 5, 4)
	sameArrays(t, run(t, dst, x), run(t, src, x), 0)

	// A parameter of the same name but another value is refused.
	other := NewGraph()
	other.Params["fc1.weight"] = &Param{Name: "fc1.weight", Type: src.Params["fc1.weight"].Type, Value: runtime.NewArray(Float32, 8, 4)}
	_, err := other.NodeCopy(node(t, src, "fc1_weight"), nil)
	if err == nil || !strings.Contains(err.Error(), "differs") {
		t.Errorf("copying a get_attr over a different parameter of its name: got %v, want an error", err)
	}
}

func TestInterpreterRunNode(t *testing.T) {
	g := mlpGraph(t)
	x := randArray(rand.New(rand.NewPCG(5, 6)), 3, 4)
	want := run(t, g, x)

	// Every node goes through the hook, in order, and delegating all of
	// them to the default gives the default result.
	var seen []string
	it := NewInterpreter(g)
	it.RunNode = func(it *Interpreter, n *Node) (Value, error) {
		seen = append(seen, n.Name)
		return it.DefaultRunNode(n)
	}
	got, err := it.Run(x)
	if err != nil {
		t.Fatal(err)
	}
	sameArrays(t, got, want, 0)
	if all := names(g.Nodes()); strings.Join(seen, " ") != all {
		t.Errorf("RunNode saw %v, want every node in order: %s", seen, all)
	}

	// Overriding one node: the last relu computed as the identity.
	it.RunNode = func(it *Interpreter, n *Node) (Value, error) {
		if n.Name == "relu_1" {
			return it.Env[n.Args()[0].(*Node)], nil
		}
		return it.DefaultRunNode(n)
	}
	got, err = it.Run(x)
	if err != nil {
		t.Fatal(err)
	}
	fc2 := it.Env[node(t, g, "fc2")].(*runtime.Array)
	sameArrays(t, got, []*runtime.Array{fc2}, 0)
	neg := false
	for _, v := range fc2.F32 {
		neg = neg || v < 0
	}
	if !neg {
		t.Fatal("fc2 has no negative value: the override is not visible")
	}
}
