// This file tests the graph API: names, users, erasure, insertion, copy, DCE.

package ir

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/runtime"
)

// mustType parses a type or fails the test.
func mustType(t testing.TB, s string) Type {
	t.Helper()
	ty, err := ParseType(s)
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

// must returns a func that returns its node or fails the test on error:
// must(t)(g.CallFunction(...)).
func must(t testing.TB) func(*Node, error) *Node {
	return func(n *Node, err error) *Node {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
}

// randArray returns an f32 array of values in [-1, 1).
func randArray(rng *rand.Rand, dims ...int) *runtime.Array {
	a := runtime.NewArray(Float32, dims...)
	for i := range a.F32 {
		a.F32[i] = 2*rng.Float32() - 1
	}
	return a
}

// addParam adds a parameter with random data to g.
func addParam(t testing.TB, g *Graph, rng *rand.Rand, name, goPath string, dims ...int) {
	t.Helper()
	g.Params[name] = &Param{Name: name, Type: TypeOf(runtime.NewArray(Float32, dims...)), Value: randArray(rng, dims...), GoPath: goPath}
}

// mlpGraph builds a small graph that uses every opcode:
//
//	x f32[N,4] -> linear(x, fc1.weight, fc1.bias) -> relu -> add 1.0 ->
//	mul (method) by relu -> fc2 (Linear module) -> relu -> output
func mlpGraph(t testing.TB) *Graph {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	g := NewGraph()
	addParam(t, g, rng, "fc1.weight", "Fc1.Weight", 8, 4)
	addParam(t, g, rng, "fc1.bias", "Fc1.Bias", 8)
	addParam(t, g, rng, "fc2.weight", "Fc2.Weight", 3, 8)
	addParam(t, g, rng, "fc2.bias", "Fc2.Bias", 3)
	g.Modules["fc2"] = &Module{Kind: "Linear", GoType: "*nn.Linear", Params: []string{"fc2.weight", "fc2.bias"}, GoPath: "Fc2"}
	g.Forward = &Signature{Params: []SigParam{{Name: "x", GoType: "*tensor.Tensor", Tensor: true}}, Results: 1}

	x := g.Placeholder("x", mustType(t, "f32[N,4]"))
	x.Pos = Pos{File: "mlp.go", Line: 10}
	w := must(t)(g.GetAttr("fc1.weight"))
	b := must(t)(g.GetAttr("fc1.bias"))
	h := must(t)(g.CallFunction("linear", []Arg{x, w, b}))
	h.Pos = Pos{File: "mlp.go", Line: 11}
	r := must(t)(g.CallFunction("relu", []Arg{h}))
	a := must(t)(g.CallFunction("add", []Arg{r, 1.0}))
	m := must(t)(g.CallMethod("mul", []Arg{a, r}))
	f := must(t)(g.CallModule("fc2", m))
	r2 := must(t)(g.CallFunction("relu", []Arg{f}))
	must(t)(g.Output(r2))
	if err := g.Lint(); err != nil {
		t.Fatalf("mlpGraph does not lint: %v", err)
	}
	return g
}

// node returns the node of g named name or fails the test.
func node(t testing.TB, g *Graph, name string) *Node {
	t.Helper()
	for _, n := range g.Nodes() {
		if n.Name == name {
			return n
		}
	}
	t.Fatalf("no node %s in\n%v", name, g)
	return nil
}

// names returns the names of nodes.
func names(nodes []*Node) string {
	s := make([]string, len(nodes))
	for i, n := range nodes {
		s[i] = n.Name
	}
	return strings.Join(s, " ")
}

// run runs g on inputs or fails the test.
func run(t testing.TB, g *Graph, inputs ...*runtime.Array) []*runtime.Array {
	t.Helper()
	outs, err := NewInterpreter(g).Run(inputs...)
	if err != nil {
		t.Fatal(err)
	}
	return outs
}

// sameArrays fails the test unless got and want hold the same values
// (bit for bit when tol is 0).
func sameArrays(t testing.TB, got, want []*runtime.Array, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d outputs, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.DType != w.DType || !TypeOf(g).Equal(TypeOf(w)) {
			t.Fatalf("output %d: got %v, want %v", i, TypeOf(g), TypeOf(w))
		}
		for j := 0; j < g.Len(); j++ {
			if d := math.Abs(g.At(j) - w.At(j)); d > tol || math.IsNaN(d) && !(math.IsNaN(g.At(j)) && math.IsNaN(w.At(j))) {
				t.Fatalf("output %d element %d: got %v, want %v", i, j, g.At(j), w.At(j))
			}
		}
	}
}

func TestNamesUnique(t *testing.T) {
	g := NewGraph()
	x := g.Placeholder("x", mustType(t, "f32[N,4]"))
	r0 := must(t)(g.CallFunction("relu", []Arg{x}))
	r1 := must(t)(g.CallFunction("relu", []Arg{r0}))
	r2 := must(t)(g.CallFunction("relu", []Arg{r1}))
	if got, want := names([]*Node{r0, r1, r2}), "relu relu_1 relu_2"; got != want {
		t.Errorf("got names %q, want %q", got, want)
	}
	g.Params["fc1.weight"] = &Param{Name: "fc1.weight", Type: mustType(t, "f32[4,4]")}
	w := must(t)(g.GetAttr("fc1.weight"))
	if w.Name != "fc1_weight" || w.Target != "fc1.weight" {
		t.Errorf("get_attr: got name %q target %q, want fc1_weight and fc1.weight", w.Name, w.Target)
	}
	// A second placeholder named x gets another name but keeps its target.
	x2 := must(t)(g.CreateNode(Placeholder, "x", nil, nil, "x", mustType(t, "f32[4]")))
	if x2.Name == "x" {
		t.Errorf("second placeholder x: got name %q, want a fresh one", x2.Name)
	}
	seen := map[string]bool{}
	for _, n := range g.Nodes() {
		if seen[n.Name] {
			t.Errorf("name %s used twice", n.Name)
		}
		seen[n.Name] = true
	}
	// An erased name may be reused, but never while its node lives.
	if err := g.EraseNode(r2); err != nil {
		t.Fatal(err)
	}
	r3 := must(t)(g.CallFunction("relu", []Arg{x}))
	if r3.Name == r0.Name || r3.Name == r1.Name {
		t.Errorf("new relu: got name %s, already in use", r3.Name)
	}
}

func TestUsersExact(t *testing.T) {
	g := NewGraph()
	x := g.Placeholder("x", mustType(t, "f32[N,4]"))
	y := g.Placeholder("y", mustType(t, "f32[N,4]"))
	a := must(t)(g.CallFunction("add", []Arg{x, x}))
	m := must(t)(g.CallFunction("mul", []Arg{a, y}))
	must(t)(g.Output(m))
	check := func(n *Node, want string) {
		t.Helper()
		if got := names(n.Users()); got != want {
			t.Errorf("users of %s: got %q, want %q", n.Name, got, want)
		}
	}
	check(x, "add") // used twice by add, listed once
	check(y, "mul")
	check(a, "mul")
	check(m, "output")

	if err := a.SetArgs(x, y); err != nil {
		t.Fatal(err)
	}
	check(x, "add")
	check(y, "mul add")

	if err := a.SetArgs(y, 2.0); err != nil {
		t.Fatal(err)
	}
	check(x, "")
	check(y, "mul add")

	if err := m.ReplaceInput(y, x); err != nil {
		t.Fatal(err)
	}
	check(y, "add")
	check(x, "mul")
	if got := FormatArg(m.Args(), "%"); got != "[%add, %x]" {
		t.Errorf("mul args: got %s, want [%%add, %%x]", got)
	}

	changed, err := x.ReplaceAllUsesWith(y, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(changed); got != "mul" {
		t.Errorf("ReplaceAllUsesWith changed %q, want mul", got)
	}
	check(x, "")
	check(y, "add mul")

	// A filter leaves some users alone.
	changed, err = y.ReplaceAllUsesWith(x, func(u *Node) bool { return u.Name == "add" })
	if err != nil {
		t.Fatal(err)
	}
	if got := names(changed); got != "add" {
		t.Errorf("filtered ReplaceAllUsesWith changed %q, want add", got)
	}
	check(x, "add")
	check(y, "mul")

	// A failing SetArgs leaves the node and the users unchanged.
	var z *Node
	g.InsertingAt(Before(g.First()), func() { z = g.Placeholder("z", mustType(t, "f32[7]")) })
	if err := m.SetArgs(a, z); err == nil {
		t.Errorf("mul of f32[N,4] and f32[7]: got no error, want a broadcast error")
	}
	check(a, "mul")
	if err := g.Lint(); err != nil {
		t.Errorf("Lint after edits: %v", err)
	}
}

func TestEraseNodeRefusesWhileUsed(t *testing.T) {
	g := mlpGraph(t)
	r := node(t, g, "relu")
	err := g.EraseNode(r)
	if err == nil {
		t.Fatal("erasing relu while used: got no error")
	}
	for _, want := range []string{"relu", "add", "mul"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if r.Graph() != g || g.Len() != 10 {
		t.Errorf("after a refused erase: got graph %p len %d, want %p len 10", r.Graph(), g.Len(), g)
	}
	// Once unused it goes.
	dead := must(t)(g.CallFunction("neg", []Arg{node(t, g, "x")}))
	if err := g.EraseNode(dead); err != nil {
		t.Fatalf("erasing an unused node: %v", err)
	}
	if dead.Graph() != nil || len(node(t, g, "x").Users()) != 1 {
		t.Errorf("erased node: graph %v, x users %q; want nil and linear", dead.Graph(), names(node(t, g, "x").Users()))
	}
	if err := g.EraseNode(dead); err == nil {
		t.Errorf("erasing twice: got no error")
	}
}

func TestInsertionPoints(t *testing.T) {
	g := NewGraph()
	x := g.Placeholder("x", mustType(t, "f32[N,4]"))
	n := must(t)(g.CallFunction("neg", []Arg{x}))
	out := must(t)(g.Output(n))

	var before, after *Node
	g.InsertingAt(Before(n), func() { before = must(t)(g.CallFunction("relu", []Arg{x})) })
	g.InsertingAt(After(n), func() { after = must(t)(g.CallFunction("sqrt", []Arg{n})) })
	if got, want := names(g.Nodes()), "x relu neg sqrt output"; got != want {
		t.Errorf("order: got %q, want %q", got, want)
	}
	if before.Next() != n || after.Prev() != n || out.Prev() != after {
		t.Errorf("links: relu.next %v, sqrt.prev %v, output.prev %v", before.Next(), after.Prev(), out.Prev())
	}
	// The insertion point was restored: new nodes go at the end.
	last := must(t)(g.CallFunction("relu", []Arg{x}))
	if g.Last() != last {
		t.Errorf("after InsertingAt: got last %s, want %s", g.Last().Name, last.Name)
	}
	// SetInsertPoint returns the previous point; several nodes stay in order.
	old := g.SetInsertPoint(Before(out))
	a := must(t)(g.CallFunction("relu", []Arg{x}))
	b := must(t)(g.CallFunction("relu", []Arg{a}))
	g.SetInsertPoint(old)
	if a.Next() != b || b.Next() != out {
		t.Errorf("after SetInsertPoint(Before(output)): got %q", names(g.Nodes()))
	}
	// Erasing the node the insertion point is before moves it on.
	g.InsertingAt(Before(last), func() {
		if err := g.EraseNode(last); err != nil {
			t.Fatal(err)
		}
		c := must(t)(g.CallFunction("neg", []Arg{x}))
		if g.Last() != c {
			t.Errorf("inserting before an erased last node: got last %s, want %s", g.Last().Name, c.Name)
		}
	})
	if g.First() != x || x.Prev() != nil || g.Last().Next() != nil {
		t.Errorf("ends: first %v, x.Prev %v, last.Next %v", g.First(), x.Prev(), g.Last().Next())
	}
}

func TestCopyIsIndependent(t *testing.T) {
	g := mlpGraph(t)
	want := g.String()
	c := g.Copy()
	if got := c.String(); got != want {
		t.Fatalf("copy prints\n%s\nwant\n%s", got, want)
	}
	for _, n := range c.Nodes() {
		if n.Graph() != c {
			t.Fatalf("copied node %s belongs to %p, want the copy %p", n.Name, n.Graph(), c)
		}
	}
	in := randArray(rand.New(rand.NewPCG(3, 4)), 5, 4)
	sameArrays(t, run(t, c, in), run(t, g, in), 0)

	if err := node(t, c, "add").SetTarget("sub"); err != nil {
		t.Fatal(err)
	}
	c.Params["fc1.bias"].GoPath = "Changed"
	c.Modules["fc2"].GoPath = "Changed"
	c.Forward.Params[0].Name = "changed"
	if got := g.String(); got != want {
		t.Errorf("editing the copy changed the original to\n%s", got)
	}
	if g.Params["fc1.bias"].GoPath != "Fc1.Bias" || g.Modules["fc2"].GoPath != "Fc2" || g.Forward.Params[0].Name != "x" {
		t.Errorf("editing the copy's params, modules or Forward changed the original")
	}
	if err := g.Lint(); err != nil {
		t.Errorf("original after editing the copy: %v", err)
	}
	if err := c.Lint(); err != nil {
		t.Errorf("edited copy: %v", err)
	}
}

func TestEliminateDeadCode(t *testing.T) {
	g := mlpGraph(t)
	x := node(t, g, "x")
	g.InsertingAt(Before(g.OutputNode()), func() {
		d1 := must(t)(g.CallFunction("neg", []Arg{x}))
		must(t)(g.CallFunction("relu", []Arg{d1}))
		must(t)(g.CallFunction("sqrt", []Arg{x}))
	})
	g.InsertingAt(Before(x), func() { g.Placeholder("unused", mustType(t, "f32[2]")) })
	if got := g.EliminateDeadCode(); got != 3 {
		t.Errorf("first DCE: got %d erased, want 3", got)
	}
	if got := g.EliminateDeadCode(); got != 0 {
		t.Errorf("second DCE: got %d erased, want 0", got)
	}
	if got := len(g.Placeholders()); got != 2 {
		t.Errorf("got %d placeholders after DCE, want 2 (placeholders stay)", got)
	}
	if err := g.Lint(); err != nil {
		t.Error(err)
	}
}

func TestSetTargetFailureLeavesNode(t *testing.T) {
	g := mlpGraph(t)
	a := node(t, g, "add")
	before := a.String()
	if err := a.SetTarget("no_such_op"); err == nil {
		t.Fatal("SetTarget(no_such_op): got no error")
	}
	if err := a.SetTarget("topk"); err == nil {
		t.Fatal("SetTarget(topk) with two operands: got no error")
	}
	if got := a.String(); got != before {
		t.Errorf("after failed SetTarget: got %s, want %s", got, before)
	}
	if err := a.SetTarget("gt"); err != nil {
		t.Fatal(err)
	}
	if got, want := a.Type().String(), "bool[N,8]"; got != want {
		t.Errorf("add→gt: got type %s, want %s", got, want)
	}
}

func TestFindNodes(t *testing.T) {
	g := mlpGraph(t)
	if got, want := names(g.FindNodes(CallFunction, "relu")), "relu relu_1"; got != want {
		t.Errorf("FindNodes(call_function, relu): got %q, want %q", got, want)
	}
	if got, want := names(g.FindNodes(GetAttr, "")), "fc1_weight fc1_bias"; got != want {
		t.Errorf("FindNodes(get_attr): got %q, want %q", got, want)
	}
	if got := g.OutputNode(); got == nil || got.Name != "output" {
		t.Errorf("OutputNode: got %v, want output", got)
	}
}

// TestInterpreterListOutput checks an output that returns a list of nodes
// and a node with several results.
func TestInterpreterListOutput(t *testing.T) {
	g := NewGraph()
	x := g.Placeholder("x", mustType(t, "f32[2,3]"))
	r := must(t)(g.CallFunction("relu", []Arg{x}))
	n := must(t)(g.CallFunction("neg", []Arg{x}))
	tk := must(t)(g.CallFunction("topk", []Arg{x}, Kwarg{"k", 2}))
	must(t)(g.Output([]Arg{r, n, tk}))
	in := runtime.FromFloat32([]float32{1, -2, 3, -4, 5, -6}, 2, 3)
	outs := run(t, g, in)
	if len(outs) != 4 {
		t.Fatalf("got %d outputs, want 4 (relu, neg, topk values, topk indices)", len(outs))
	}
	if got, want := outs[0].F32, []float32{1, 0, 3, 0, 5, 0}; !equalF32(got, want) {
		t.Errorf("relu: got %v, want %v", got, want)
	}
	if got, want := outs[2].F32, []float32{3, 1, 5, -4}; !equalF32(got, want) {
		t.Errorf("topk values: got %v, want %v", got, want)
	}
}

func equalF32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestEditErasedNode(t *testing.T) {
	g := mlpGraph(t)
	n := must(t)(g.GetAttr("fc1.weight"))
	if err := g.EraseNode(n); err != nil {
		t.Fatal(err)
	}
	if err := n.SetArgs(); err == nil || !strings.Contains(err.Error(), "erased") {
		t.Errorf("SetArgs on an erased node: got %v, want an error saying it is erased", err)
	}
}
