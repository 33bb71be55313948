// This file encodes graphs as JSON and decodes them back.

package ir

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/fxgen/fxgen/runtime"
)

// jsonVersion is the version of the JSON form; UnmarshalGraph refuses others.
const jsonVersion = 1

// The JSON form of a graph. Maps are encoded with sorted keys and every
// list keeps the graph's order, so the same graph gives the same bytes.
type jsonGraph struct {
	Version int                    `json:"version"`
	Nodes   []jsonNode             `json:"nodes"`
	Modules map[string]*jsonModule `json:"modules,omitempty"`
	Params  map[string]*jsonParam  `json:"params,omitempty"`
	Forward *jsonSignature         `json:"forward,omitempty"`
	Wrapped []jsonWrapped          `json:"wrapped,omitempty"`
}

// jsonWrapped names a wrapped op the graph calls and the Go function
// behind it ("" when generated code cannot call it by name).
type jsonWrapped struct {
	Name   string `json:"name"`
	GoFunc string `json:"go_func,omitempty"`
}

type jsonNode struct {
	Op     string            `json:"op"`
	Name   string            `json:"name"`
	Target string            `json:"target"`
	Args   []json.RawMessage `json:"args,omitempty"`
	Kwargs []jsonKwarg       `json:"kwargs,omitempty"`
	Types  []string          `json:"types,omitempty"`
	Pos    *jsonPos          `json:"pos,omitempty"`
}

type jsonKwarg struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
}

type jsonPos struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

type jsonModule struct {
	Kind    string      `json:"kind,omitempty"`
	GoType  string      `json:"go_type,omitempty"`
	Attrs   []jsonKwarg `json:"attrs,omitempty"`
	Params  []string    `json:"params,omitempty"`
	GoPath  string      `json:"go_path,omitempty"`
	Results []string    `json:"results,omitempty"`
}

type jsonParam struct {
	Name   string     `json:"name"`
	Type   string     `json:"type"`
	GoPath string     `json:"go_path,omitempty"`
	Data   *jsonArray `json:"data,omitempty"`
}

// jsonArray holds an array's elements as base64 of their little-endian
// bytes (4 per f32, 8 per i64, 1 per bool), which keeps every bit, NaNs
// included.
type jsonArray struct {
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Data  string `json:"data"`
}

type jsonSignature struct {
	Params   []jsonSigParam `json:"params"`
	Results  int            `json:"results"`
	Captured int            `json:"captured,omitempty"`
}

type jsonSigParam struct {
	Name     string          `json:"name"`
	GoType   string          `json:"go_type"`
	Tensor   bool            `json:"tensor,omitempty"`
	Concrete json.RawMessage `json:"concrete,omitempty"`
}

// MarshalJSON encodes the graph as JSON: its nodes in order (opcode, name,
// target, args, kwargs, types, source position), its modules (without
// their Run funcs), its parameters (name, type and Go path, but not their
// data: see MarshalJSONWithData) and the Forward signature. Node Meta is
// not encoded. The bytes are deterministic.
//
// An arg or attribute value is encoded as an object with one key naming
// its kind, so that an int and a float64 stay distinct:
//
//	{"node":"x"} {"int":3} {"float":0.5} {"float":"NaN"} {"bool":true}
//	{"string":"s"} {"ints":[1,2]} {"dtype":"f32"} {"list":[...]} null
//
// Decode it with UnmarshalGraph.
func (g *Graph) MarshalJSON() ([]byte, error) { return g.marshalJSON(noData) }

// MarshalJSONWithData is MarshalJSON with the parameters' data included,
// so that the decoded graph can be run by an Interpreter.
func (g *Graph) MarshalJSONWithData() ([]byte, error) { return g.marshalJSON(allData) }

// MarshalJSONWithConstants is MarshalJSON with the data of the graph's
// constants only (parameters no Go path reaches, such as tensors built in
// Forward): what the emitter needs, which embeds constants in the code and
// reads the model's own parameters from the model.
func (g *Graph) MarshalJSONWithConstants() ([]byte, error) { return g.marshalJSON(constantData) }

// dataMode says which parameters' data marshalJSON includes.
type dataMode int

const (
	noData dataMode = iota
	constantData
	allData
)

func (g *Graph) marshalJSON(data dataMode) ([]byte, error) {
	jg := jsonGraph{Version: jsonVersion, Nodes: []jsonNode{}}
	wrapped := map[string]bool{}
	for _, n := range g.Nodes() {
		if op := LookupOp(n.Target); op != nil && (n.Op == CallFunction || n.Op == CallMethod) && op.IsWrapped() && !wrapped[n.Target] {
			wrapped[n.Target] = true
			jw := jsonWrapped{Name: n.Target}
			if pkg, name, ok := op.WrappedName(); ok {
				jw.GoFunc = pkg + "." + name
			}
			jg.Wrapped = append(jg.Wrapped, jw)
		}
		jn := jsonNode{Op: n.Op.String(), Name: n.Name, Target: n.Target}
		for i, a := range n.args {
			raw, err := encodeValue(a)
			if err != nil {
				return nil, fmt.Errorf("ir: json: node %s: arg %d: %v", n.Name, i, err)
			}
			jn.Args = append(jn.Args, raw)
		}
		kws, err := encodeKwargs(n.kwargs)
		if err != nil {
			return nil, fmt.Errorf("ir: json: node %s: %v", n.Name, err)
		}
		jn.Kwargs = kws
		for _, t := range n.Types {
			jn.Types = append(jn.Types, t.String())
		}
		if n.Pos != (Pos{}) {
			jn.Pos = &jsonPos{File: n.Pos.File, Line: n.Pos.Line}
		}
		jg.Nodes = append(jg.Nodes, jn)
	}
	if len(g.Modules) > 0 {
		jg.Modules = map[string]*jsonModule{}
		for name, m := range g.Modules {
			jm := &jsonModule{Kind: m.Kind, GoType: m.GoType, Params: m.Params, GoPath: m.GoPath}
			kws, err := encodeKwargs(m.Attrs)
			if err != nil {
				return nil, fmt.Errorf("ir: json: module %s: %v", name, err)
			}
			jm.Attrs = kws
			for _, t := range m.Results {
				jm.Results = append(jm.Results, t.String())
			}
			jg.Modules[name] = jm
		}
	}
	if len(g.Params) > 0 {
		jg.Params = map[string]*jsonParam{}
		for name, p := range g.Params {
			jp := &jsonParam{Name: p.Name, Type: p.Type.String(), GoPath: p.GoPath}
			if p.Value != nil && (data == allData || data == constantData && p.GoPath == "") {
				a, err := encodeArray(p.Value)
				if err != nil {
					return nil, fmt.Errorf("ir: json: param %s: %v", name, err)
				}
				jp.Data = a
			}
			jg.Params[name] = jp
		}
	}
	if f := g.Forward; f != nil {
		js := &jsonSignature{Params: []jsonSigParam{}, Results: f.Results, Captured: f.Captured}
		for _, p := range f.Params {
			jp := jsonSigParam{Name: p.Name, GoType: p.GoType, Tensor: p.Tensor}
			if p.Concrete != nil {
				raw, err := encodeValue(p.Concrete)
				if err != nil {
					return nil, fmt.Errorf("ir: json: Forward parameter %s: %v", p.Name, err)
				}
				jp.Concrete = raw
			}
			js.Params = append(js.Params, jp)
		}
		jg.Forward = js
	}
	return json.Marshal(jg)
}

func encodeKwargs(kwargs []Kwarg) ([]jsonKwarg, error) {
	var out []jsonKwarg
	for _, kw := range kwargs {
		raw, err := encodeValue(kw.Value)
		if err != nil {
			return nil, fmt.Errorf("kwarg %s: %v", kw.Name, err)
		}
		out = append(out, jsonKwarg{Name: kw.Name, Value: raw})
	}
	return out, nil
}

// jsonFloat encodes a float64 as a JSON number (exactly: the shortest
// decimal that parses back to the same bits) or, when it is not finite,
// as the string "NaN", "+Inf" or "-Inf".
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte(strconv.Quote(strconv.FormatFloat(x, 'g', -1, 64))), nil
	}
	return json.Marshal(x)
}

// encodeValue encodes an arg or attribute value as a one-key object.
func encodeValue(v any) (json.RawMessage, error) {
	var obj any
	switch x := v.(type) {
	case nil:
		return json.RawMessage("null"), nil
	case *Node:
		obj = map[string]string{"node": x.Name}
	case int:
		obj = map[string]int{"int": x}
	case float64:
		obj = map[string]jsonFloat{"float": jsonFloat(x)}
	case bool:
		obj = map[string]bool{"bool": x}
	case string:
		obj = map[string]string{"string": x}
	case []int:
		obj = map[string][]int{"ints": append([]int{}, x...)}
	case DType:
		obj = map[string]string{"dtype": x.String()}
	case []Arg:
		list := make([]json.RawMessage, len(x))
		for i, e := range x {
			raw, err := encodeValue(e)
			if err != nil {
				return nil, err
			}
			list[i] = raw
		}
		obj = map[string][]json.RawMessage{"list": list}
	default:
		return nil, fmt.Errorf("cannot encode a %T (%v)", v, v)
	}
	return json.Marshal(obj)
}

// decodeValue decodes what encodeValue wrote; node names are resolved by
// node.
func decodeValue(raw json.RawMessage, node func(name string) (*Node, error)) (any, error) {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("value %s: want an object with one key or null", raw)
	}
	if len(obj) != 1 {
		return nil, fmt.Errorf("value %s: want exactly one key", raw)
	}
	for kind, body := range obj {
		var err error
		switch kind {
		case "node":
			var name string
			if err = json.Unmarshal(body, &name); err == nil {
				return node(name)
			}
		case "int":
			var i int
			if err = json.Unmarshal(body, &i); err == nil {
				return i, nil
			}
		case "float":
			var s string
			if json.Unmarshal(body, &s) == nil {
				f, perr := strconv.ParseFloat(s, 64)
				if perr != nil || !math.IsNaN(f) && !math.IsInf(f, 0) {
					return nil, fmt.Errorf("value %s: a float string must be NaN, +Inf or -Inf", raw)
				}
				return f, nil
			}
			var f float64
			if err = json.Unmarshal(body, &f); err == nil {
				return f, nil
			}
		case "bool":
			var b bool
			if err = json.Unmarshal(body, &b); err == nil {
				return b, nil
			}
		case "string":
			var s string
			if err = json.Unmarshal(body, &s); err == nil {
				return s, nil
			}
		case "ints":
			ints := []int{}
			if err = json.Unmarshal(body, &ints); err == nil {
				if ints == nil {
					ints = []int{}
				}
				return ints, nil
			}
		case "dtype":
			var s string
			if err = json.Unmarshal(body, &s); err == nil {
				return runtime.ParseDType(s)
			}
		case "list":
			var list []json.RawMessage
			if err = json.Unmarshal(body, &list); err == nil {
				out := make([]Arg, len(list))
				for i, e := range list {
					if out[i], err = decodeValue(e, node); err != nil {
						return nil, err
					}
				}
				return out, nil
			}
		default:
			return nil, fmt.Errorf("value %s: unknown kind %q (want node, int, float, bool, string, ints, dtype or list)", raw, kind)
		}
		return nil, fmt.Errorf("value %s: %v", raw, err)
	}
	panic("unreachable")
}

func encodeArray(a *runtime.Array) (*jsonArray, error) {
	var buf []byte
	switch a.DType {
	case Float32:
		for _, v := range a.F32 {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
		}
	case Int64:
		for _, v := range a.I64 {
			buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
		}
	case Bool:
		for _, v := range a.B {
			var b byte
			if v {
				b = 1
			}
			buf = append(buf, b)
		}
	default:
		return nil, fmt.Errorf("array of dtype %v", a.DType)
	}
	return &jsonArray{DType: a.DType.String(), Shape: append([]int{}, a.Shape...), Data: base64.StdEncoding.EncodeToString(buf)}, nil
}

func decodeArray(ja *jsonArray) (*runtime.Array, error) {
	dt, err := runtime.ParseDType(ja.DType)
	if err != nil {
		return nil, err
	}
	// The shape is checked against the data before anything is allocated
	// for it: a short document must not ask for terabytes.
	n, err := runtime.ShapeElements(ja.Shape)
	if err != nil {
		return nil, err
	}
	size := dt.Size()
	if n > math.MaxInt/size || base64.StdEncoding.DecodedLen(len(ja.Data)) < n*size {
		return nil, fmt.Errorf("data has about %d bytes, too few for %d elements of %v%v", base64.StdEncoding.DecodedLen(len(ja.Data)), n, dt, ja.Shape)
	}
	buf, err := base64.StdEncoding.DecodeString(ja.Data)
	if err != nil {
		return nil, fmt.Errorf("data: %v", err)
	}
	if len(buf) != size*n {
		return nil, fmt.Errorf("data has %d bytes, want %d for %v%v", len(buf), size*n, dt, ja.Shape)
	}
	a := runtime.NewArray(dt, ja.Shape...)
	for i := 0; i < a.Len(); i++ {
		switch dt {
		case Float32:
			a.F32[i] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*i:]))
		case Int64:
			a.I64[i] = int64(binary.LittleEndian.Uint64(buf[8*i:]))
		case Bool:
			a.B[i] = buf[i] != 0
		}
	}
	return a, nil
}

func decodeKwargs(kws []jsonKwarg, node func(string) (*Node, error)) ([]Kwarg, error) {
	var out []Kwarg
	for _, kw := range kws {
		v, err := decodeValue(kw.Value, node)
		if err != nil {
			return nil, fmt.Errorf("kwarg %s: %v", kw.Name, err)
		}
		out = append(out, Kwarg{Name: kw.Name, Value: v})
	}
	return out, nil
}

func parseTypes(ss []string) ([]Type, error) {
	var out []Type
	for _, s := range ss {
		t, err := parseCheckedType(s)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// parseCheckedType is ParseType for untrusted documents: it also refuses
// negative sizes, zero or negative coefficients of symbols, and shapes
// whose constant factors overflow an int, which shape rules would
// otherwise multiply into wrong or panicking sizes.
func parseCheckedType(s string) (Type, error) {
	t, err := ParseType(s)
	if err != nil {
		return Type{}, err
	}
	factors := make([]int, 0, len(t.Shape))
	for _, d := range t.Shape {
		switch {
		case d.Sym != "" && d.Coef <= 0:
			return Type{}, fmt.Errorf("type %q: dim %v: the coefficient of a symbol must be positive", s, d)
		case d.Sym == "" && d.Coef < 0:
			return Type{}, fmt.Errorf("type %q: dim %v is negative", s, d)
		}
		factors = append(factors, d.Coef)
	}
	if _, err := runtime.ShapeElements(factors); err != nil {
		return Type{}, fmt.Errorf("type %q: %v", s, err)
	}
	return t, nil
}

// UnmarshalGraph decodes a graph written by MarshalJSON or
// MarshalJSONWithData. Node names are kept exactly; each node's types are
// inferred again and must equal the recorded ones, and the result must
// pass Lint. Modules come back without Run funcs, and parameters without
// data unless it was written.
func UnmarshalGraph(data []byte) (*Graph, error) {
	var jg jsonGraph
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&jg); err != nil {
		return nil, fmt.Errorf("ir: json: %v", err)
	}
	if jg.Version != jsonVersion {
		return nil, fmt.Errorf("ir: json: version %d, want %d", jg.Version, jsonVersion)
	}
	g := NewGraph()
	noNodes := func(name string) (*Node, error) {
		return nil, fmt.Errorf("node %s where no node may appear", name)
	}
	for name, jm := range jg.Modules {
		if jm == nil {
			return nil, fmt.Errorf("ir: json: module %s is null", name)
		}
		m := &Module{Kind: jm.Kind, GoType: jm.GoType, Params: jm.Params, GoPath: jm.GoPath}
		var err error
		if m.Attrs, err = decodeKwargs(jm.Attrs, noNodes); err != nil {
			return nil, fmt.Errorf("ir: json: module %s: %v", name, err)
		}
		if m.Results, err = parseTypes(jm.Results); err != nil {
			return nil, fmt.Errorf("ir: json: module %s: %v", name, err)
		}
		g.Modules[name] = m
	}
	for name, jp := range jg.Params {
		if jp == nil {
			return nil, fmt.Errorf("ir: json: param %s is null", name)
		}
		t, err := parseCheckedType(jp.Type)
		if err != nil {
			return nil, fmt.Errorf("ir: json: param %s: %v", name, err)
		}
		p := &Param{Name: jp.Name, Type: t, GoPath: jp.GoPath}
		if jp.Data != nil {
			if p.Value, err = decodeArray(jp.Data); err != nil {
				return nil, fmt.Errorf("ir: json: param %s: %v", name, err)
			}
			if !TypeOf(p.Value).Equal(t) {
				return nil, fmt.Errorf("ir: json: param %s: data is %v, type is %v", name, TypeOf(p.Value), t)
			}
		}
		g.Params[name] = p
	}
	if js := jg.Forward; js != nil {
		if js.Captured < 0 {
			return nil, fmt.Errorf("ir: json: Forward captures %d tensors", js.Captured)
		}
		f := &Signature{Params: []SigParam{}, Results: js.Results, Captured: js.Captured}
		for _, jp := range js.Params {
			p := SigParam{Name: jp.Name, GoType: jp.GoType, Tensor: jp.Tensor}
			if jp.Concrete != nil {
				v, err := decodeValue(jp.Concrete, noNodes)
				if err != nil {
					return nil, fmt.Errorf("ir: json: Forward parameter %s: %v", jp.Name, err)
				}
				p.Concrete = v
			}
			f.Params = append(f.Params, p)
		}
		g.Forward = f
	}

	recorded := map[string]*recordedTypes{}
	for _, jw := range jg.Wrapped {
		r, err := declareWrapped(jw.Name, jw.GoFunc)
		if err != nil {
			return nil, fmt.Errorf("ir: json: %v", err)
		}
		if r != nil {
			recorded[jw.Name] = r
		}
	}
	byName := map[string]*Node{}
	for i, jn := range jg.Nodes {
		where := fmt.Sprintf("node %d (%s)", i, jn.Name)
		op, ok := ParseOpcode(jn.Op)
		if !ok {
			return nil, fmt.Errorf("ir: json: %s: unknown opcode %q", where, jn.Op)
		}
		node := func(name string) (*Node, error) {
			if m := byName[name]; m != nil {
				return m, nil
			}
			return nil, fmt.Errorf("arg %s is not defined before its use", name)
		}
		var args []Arg
		for j, raw := range jn.Args {
			a, err := decodeValue(raw, node)
			if err != nil {
				return nil, fmt.Errorf("ir: json: %s: arg %d: %v", where, j, err)
			}
			args = append(args, a)
		}
		kwargs, err := decodeKwargs(jn.Kwargs, node)
		if err != nil {
			return nil, fmt.Errorf("ir: json: %s: %v", where, err)
		}
		types, err := parseTypes(jn.Types)
		if err != nil {
			return nil, fmt.Errorf("ir: json: %s: %v", where, err)
		}
		if jn.Name == "" || byName[jn.Name] != nil {
			return nil, fmt.Errorf("ir: json: %s: node names must be unique and not empty", where)
		}
		if r := recorded[jn.Target]; r != nil && (op == CallFunction || op == CallMethod) {
			r.record(argTypes(args), types)
		}
		n, err := g.CreateNode(op, jn.Target, args, kwargs, jn.Name, types...)
		if err != nil {
			return nil, fmt.Errorf("ir: json: %s: %v", where, err)
		}
		if n.Name != jn.Name {
			return nil, fmt.Errorf("ir: json: %s: name is not a free identifier (it would become %s)", where, n.Name)
		}
		if !typesEqual(n.Types, types) {
			return nil, fmt.Errorf("ir: json: %s: recorded type %s, inferred %s", where, formatTypes(types), formatTypes(n.Types))
		}
		if jn.Pos != nil {
			n.Pos = Pos{File: jn.Pos.File, Line: jn.Pos.Line}
		}
		byName[n.Name] = n
	}
	if err := g.Lint(); err != nil {
		return nil, fmt.Errorf("ir: json: decoded graph fails lint: %v", err)
	}
	return g, nil
}
