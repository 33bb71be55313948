// This file tests the JSON round trip of graphs.

package ir

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/runtime"
)

// richGraph builds a graph with every kind of arg and attribute value: int
// and float literals (including awkward ones), lists, []int and DType
// attributes, a tuple node, an opaque module and a Forward with concrete
// values.
func richGraph(t testing.TB) *Graph {
	t.Helper()
	g := mlpGraph(t)
	g.Modules["blk"] = &Module{GoType: "*model.Block", GoPath: "Blk", Results: []Type{mustType(t, "f32[N,3]")}}
	g.Forward = &Signature{Params: []SigParam{
		{Name: "x", GoType: "*tensor.Tensor", Tensor: true},
		{Name: "train", GoType: "bool", Concrete: false},
		{Name: "k", GoType: "int", Concrete: 2},
		{Name: "p", GoType: "float64", Concrete: 0.1},
		{Name: "tag", GoType: "string", Concrete: "a\"b"},
	}, Results: 2}
	out := g.OutputNode()
	r2 := node(t, g, "relu_1")
	g.InsertingAt(Before(out), func() {
		s := must(t)(g.CallFunction("add", []Arg{r2, 2}))          // int literal
		s = must(t)(g.CallFunction("mul", []Arg{s, 0.1}))          // float literal, not exact in binary
		s = must(t)(g.CallFunction("mul", []Arg{s, 1e300}))        // huge
		s = must(t)(g.CallFunction("add", []Arg{s, math.Inf(-1)})) // not finite
		s = must(t)(g.CallFunction("mul", []Arg{s, math.Copysign(0, -1)}))
		s = must(t)(g.CallFunction("add", []Arg{s, 3.0})) // a float that looks like an int
		s.Pos = Pos{File: "mlp.go", Line: 42}
		sum := must(t)(g.CallFunction("sum", []Arg{s}, Kwarg{"dim", []int{1}}, Kwarg{"keepdim", true}))
		must(t)(g.CallFunction("reshape", []Arg{sum}, Kwarg{"shape", []int{-1}}))
		must(t)(g.CallFunction("arange", nil, Kwarg{"end", 5.0}, Kwarg{"dtype", Float32}, Kwarg{"step", 0.5}))
		must(t)(g.CallFunction("zeros", nil, Kwarg{"shape", []int{}}))
		tk := must(t)(g.CallFunction("topk", []Arg{r2}, Kwarg{"k", 2}, Kwarg{"largest", false}))
		must(t)(g.CallFunction("getitem", []Arg{tk}, Kwarg{"index", 1}))
		must(t)(g.CallModule("blk", r2))
	})
	if err := out.SetArgs([]Arg{r2, node(t, g, "getitem")}); err != nil {
		t.Fatal(err)
	}
	if err := g.Lint(); err != nil {
		t.Fatalf("richGraph does not lint: %v", err)
	}
	return g
}

func TestJSONRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(testing.TB) *Graph
	}{
		{"mlp", func(t testing.TB) *Graph { return mlpGraph(t) }},
		{"rich", richGraph},
		{"empty", func(testing.TB) *Graph { return NewGraph() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.build(t)
			for _, withData := range []bool{false, true} {
				marshal := (*Graph).MarshalJSON
				if withData {
					marshal = (*Graph).MarshalJSONWithData
				}
				b1, err := marshal(g)
				if err != nil {
					t.Fatal(err)
				}
				if !json.Valid(b1) {
					t.Fatalf("invalid JSON: %s", b1)
				}
				g2, err := UnmarshalGraph(b1)
				if err != nil {
					t.Fatalf("UnmarshalGraph: %v\n%s", err, b1)
				}
				b2, err := marshal(g2)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(b1, b2) {
					t.Fatalf("withData=%v: second marshal differs:\n%s\nwant\n%s", withData, b2, b1)
				}
				if err := g2.Lint(); err != nil {
					t.Errorf("decoded graph: %v", err)
				}
				if got, want := g2.String(), g.String(); got != want {
					t.Errorf("decoded graph prints\n%s\nwant\n%s", got, want)
				}
				checkSameArgs(t, g2, g)
				if !reflect.DeepEqual(g2.Forward, g.Forward) {
					t.Errorf("Forward: got %+v, want %+v", g2.Forward, g.Forward)
				}
				for name, p := range g.Params {
					p2 := g2.Params[name]
					if p2 == nil || p2.Name != p.Name || !p2.Type.Equal(p.Type) || p2.GoPath != p.GoPath {
						t.Errorf("param %s: got %+v, want %+v", name, p2, p)
						continue
					}
					if withData != (p2.Value != nil) {
						t.Errorf("param %s (withData=%v): got Value %v", name, withData, p2.Value)
					} else if withData && !reflect.DeepEqual(p2.Value, p.Value) {
						t.Errorf("param %s: got data %v, want %v", name, p2.Value, p.Value)
					}
				}
				if len(g2.Modules) != len(g.Modules) {
					t.Errorf("got %d modules, want %d", len(g2.Modules), len(g.Modules))
				}
			}
		})
	}
}

// checkSameArgs compares every node's args and kwargs, Go types included.
func checkSameArgs(t *testing.T, got, want *Graph) {
	t.Helper()
	gn, wn := got.Nodes(), want.Nodes()
	if len(gn) != len(wn) {
		t.Fatalf("got %d nodes, want %d", len(gn), len(wn))
	}
	for i := range wn {
		// Map nodes to their names so the structures compare by value.
		byName := func(args []Arg) []Arg {
			return substituteArgs(args, func(n *Node) Arg { return "%" + n.Name })
		}
		if g, w := byName(gn[i].args), byName(wn[i].args); !reflect.DeepEqual(g, w) && !sameFloats(g, w) {
			t.Errorf("node %s args: got %#v, want %#v", wn[i].Name, g, w)
		}
		if g, w := gn[i].kwargs, wn[i].kwargs; !reflect.DeepEqual(g, w) {
			t.Errorf("node %s kwargs: got %#v, want %#v", wn[i].Name, g, w)
		}
		if gn[i].Pos != wn[i].Pos {
			t.Errorf("node %s pos: got %v, want %v", wn[i].Name, gn[i].Pos, wn[i].Pos)
		}
	}
}

// sameFloats is DeepEqual that also requires -0 to stay -0.
func sameFloats(a, b []Arg) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, ok1 := a[i].(float64)
		y, ok2 := b[i].(float64)
		if !ok1 || !ok2 || math.Float64bits(x) != math.Float64bits(y) {
			if !reflect.DeepEqual(a[i], b[i]) {
				return false
			}
		}
	}
	return true
}

func TestJSONNumbersKeepTheirKind(t *testing.T) {
	g := richGraph(t)
	b, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	g2, err := UnmarshalGraph(b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"add_1": 2, "mul_1": 0.1, "mul_2": 1e300, "add_2": math.Inf(-1), "mul_3": math.Copysign(0, -1), "add_3": 3.0,
	}
	for name, w := range want {
		got := node(t, g2, name).Args()[1]
		if reflect.TypeOf(got) != reflect.TypeOf(w) {
			t.Errorf("node %s: got literal %#v (%T), want %#v (%T)", name, got, got, w, w)
			continue
		}
		if f, ok := w.(float64); ok && math.Float64bits(got.(float64)) != math.Float64bits(f) {
			t.Errorf("node %s: got %v, want %v bit for bit", name, got, f)
		}
		if i, ok := w.(int); ok && got.(int) != i {
			t.Errorf("node %s: got %v, want %v", name, got, i)
		}
	}
	for _, s := range []string{`{"int":2}`, `{"float":0.1}`, `{"float":"-Inf"}`, `{"float":-0}`, `{"float":3}`, `{"ints":[1]}`, `{"dtype":"f32"}`, `{"node":"relu_1"}`} {
		if !bytes.Contains(b, []byte(s)) {
			t.Errorf("JSON lacks %s", s)
		}
	}
}

func TestJSONDeterministic(t *testing.T) {
	var first []byte
	for i := 0; i < 5; i++ {
		b, err := richGraph(t).MarshalJSONWithData()
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = b
		} else if !bytes.Equal(b, first) {
			t.Fatalf("marshal %d differs from the first", i)
		}
	}
	// Map keys are sorted.
	if i, j := bytes.Index(first, []byte(`"fc1.bias"`)), bytes.Index(first, []byte(`"fc2.weight"`)); i < 0 || j < 0 || i > j {
		t.Errorf("params not sorted by name: fc1.bias at %d, fc2.weight at %d", i, j)
	}
}

func TestJSONInterpreterAgrees(t *testing.T) {
	g := mlpGraph(t)
	b, err := g.MarshalJSONWithData()
	if err != nil {
		t.Fatal(err)
	}
	g2, err := UnmarshalGraph(b)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 3, 17} {
		in := randArray(rng, n, 4)
		sameArrays(t, run(t, g2, in), run(t, g, in), 0)
	}
	// Without data the decoded graph cannot read its parameters.
	b, err = g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(`"data"`)) {
		t.Errorf("MarshalJSON wrote parameter data")
	}
	g3, err := UnmarshalGraph(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewInterpreter(g3).Run(randArray(rng, 2, 4)); err == nil || !strings.Contains(err.Error(), "no data") {
		t.Errorf("running a graph without data: got %v, want a no-data error", err)
	}
}

func TestJSONArrayData(t *testing.T) {
	g := NewGraph()
	nan := float32(math.NaN())
	g.Params["f"] = &Param{Name: "f", Type: mustType(t, "f32[3]"), Value: runtime.FromFloat32([]float32{nan, float32(math.Copysign(0, -1)), 1.5}, 3)}
	g.Params["i"] = &Param{Name: "i", Type: mustType(t, "i64[2]"), Value: runtime.FromInt64([]int64{math.MinInt64, 7}, 2)}
	g.Params["b"] = &Param{Name: "b", Type: mustType(t, "bool[2]"), Value: runtime.FromBool([]bool{true, false}, 2)}
	b, err := g.MarshalJSONWithData()
	if err != nil {
		t.Fatal(err)
	}
	g2, err := UnmarshalGraph(b)
	if err != nil {
		t.Fatal(err)
	}
	f := g2.Params["f"].Value.F32
	if len(f) != 3 || math.Float32bits(f[0]) != math.Float32bits(nan) || math.Float32bits(f[1]) != math.Float32bits(float32(math.Copysign(0, -1))) || f[2] != 1.5 {
		t.Errorf("f32 data: got %v, want [NaN -0 1.5] bit for bit", f)
	}
	if got := g2.Params["i"].Value.I64; !reflect.DeepEqual(got, []int64{math.MinInt64, 7}) {
		t.Errorf("i64 data: got %v", got)
	}
	if got := g2.Params["b"].Value.B; !reflect.DeepEqual(got, []bool{true, false}) {
		t.Errorf("bool data: got %v", got)
	}
}

func TestUnmarshalGraphErrors(t *testing.T) {
	good, err := mlpGraph(t).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"version", `"version":1`, `"version":9`, "version 9, want 1"},
		{"unknown field", `"version":1`, `"version":1,"extra":0`, `unknown field "extra"`},
		{"unknown opcode", `"op":"call_method"`, `"op":"call_magic"`, `unknown opcode "call_magic"`},
		{"undefined arg", `{"node":"fc1_bias"}`, `{"node":"nobody"}`, "arg nobody is not defined before its use"},
		{"int for float", `{"float":1}`, `{"int":1.5}`, "cannot unmarshal"},
		{"two kinds", `{"float":1}`, `{"float":1,"int":1}`, "want exactly one key"},
		{"unknown kind", `{"float":1}`, `{"complex":1}`, `unknown kind "complex"`},
		{"wrong type", `"types":["f32[N,8]"]`, `"types":["f32[N,9]"]`, "recorded type f32[N,9], inferred f32[N,8]"},
		{"duplicate name", `"name":"relu_1"`, `"name":"relu"`, "node names must be unique"},
		{"bad name", `"name":"relu_1"`, `"name":"relu-1"`, "not a free identifier"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !bytes.Contains(good, []byte(tc.old)) {
				t.Fatalf("JSON lacks %s:\n%s", tc.old, good)
			}
			bad := bytes.Replace(good, []byte(tc.old), []byte(tc.new), 1)
			_, err := UnmarshalGraph(bad)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestMarshalJSONRejectsUnknownValues(t *testing.T) {
	g := mlpGraph(t)
	g.Forward.Params = append(g.Forward.Params, SigParam{Name: "opt", GoType: "struct{}", Concrete: struct{}{}})
	if _, err := g.MarshalJSON(); err == nil || !strings.Contains(err.Error(), "Forward parameter opt: cannot encode a struct {}") {
		t.Errorf("got %v, want an error naming the Forward parameter", err)
	}
	// json.Marshal uses the method too.
	if _, err := json.Marshal(mlpGraph(t)); err != nil {
		t.Errorf("json.Marshal: %v", err)
	}
}

// wrappedForJSON stands for a user's wrapped Go function.
func wrappedForJSON() {}

// TestJSONWrappedOps checks that a graph calling a wrapped Go function
// decodes in a process that never registered the function (as fxgen
// decodes what its driver traced): the op comes back with its Go name and
// its recorded result types, and constants keep their data while the
// model's parameters do not.
func TestJSONWrappedOps(t *testing.T) {
	const traced, fresh = "json_wrap_traced", "json_wrap_fresh"
	RegisterOp(&Op{
		Name:     traced,
		Operands: []Operand{{Name: "args", Kind: ListOperand}},
		Infer: func(s *Sig) ([]Type, error) {
			return []Type{{DType: Float32, Shape: Shape{s.Args[0].List[0].Shape[0], Const(2)}}}, nil
		},
		Wrapped: wrappedForJSON,
	})
	g := mlpGraph(t)
	g.Params["table"] = &Param{Name: "table", Type: mustType(t, "i64[2]"), Value: runtime.FromInt64([]int64{4, 5}, 2)}
	r2 := node(t, g, "relu_1")
	g.InsertingAt(Before(g.OutputNode()), func() {
		w := must(t)(g.CallFunction(traced, []Arg{[]Arg{r2, r2}}))
		must(t)(g.GetAttr("table"))
		if err := g.OutputNode().SetArgs([]Arg{w}); err != nil {
			t.Fatal(err)
		}
	})
	data, err := g.MarshalJSONWithConstants()
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.ReplaceAll(data, []byte(traced), []byte(fresh))
	got, err := UnmarshalGraph(data)
	if err != nil {
		t.Fatal(err)
	}
	op := LookupOp(fresh)
	if op == nil || !op.IsWrapped() {
		t.Fatalf("decoding did not register the wrapped op %s: %+v", fresh, op)
	}
	pkg, name, ok := op.WrappedName()
	if !ok || pkg != "github.com/fxgen/fxgen/ir" || name != "wrappedForJSON" {
		t.Errorf("WrappedName() = %q, %q, %v; want the ir package's wrappedForJSON", pkg, name, ok)
	}
	if n := node(t, got, fresh); n.Target != fresh || n.Type().String() != "f32[N,2]" {
		t.Errorf("decoded node: %s of type %v", n.Target, n.Type())
	}
	if got.Params["fc1.weight"].Value != nil || got.Params["table"].Value == nil {
		t.Errorf("MarshalJSONWithConstants: fc1.weight data %v, table data %v; want only the constant's", got.Params["fc1.weight"].Value, got.Params["table"].Value)
	}
	// A second decode of the same document finds the op registered.
	if _, err := UnmarshalGraph(data); err != nil {
		t.Errorf("second decode: %v", err)
	}
}
