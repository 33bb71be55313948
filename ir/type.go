// This file defines the static types of graph values: dims, shapes, types.

package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fxgen/fxgen/runtime"
)

// DType is the element type of a tensor (an alias of runtime.DType).
type DType = runtime.DType

// The element types.
const (
	Float32 = runtime.Float32
	Int64   = runtime.Int64
	Bool    = runtime.Bool
)

// Dim is one dimension of a shape: a constant (Sym == "") or a constant
// multiple of a symbol such as the batch size N (Coef·Sym).
type Dim struct {
	Coef int
	Sym  string
}

// Const returns the constant dimension n.
func Const(n int) Dim { return Dim{Coef: n} }

// Sym returns the symbolic dimension named name.
func Sym(name string) Dim { return Dim{Coef: 1, Sym: name} }

// IsConst reports whether d is a constant.
func (d Dim) IsConst() bool { return d.Sym == "" }

// String prints d as 784, N or 128*N.
func (d Dim) String() string {
	switch {
	case d.Sym == "":
		return strconv.Itoa(d.Coef)
	case d.Coef == 1:
		return d.Sym
	}
	return strconv.Itoa(d.Coef) + "*" + d.Sym
}

// Mul returns d·e; ok is false when the product is not a Dim (a product of
// two symbols).
func (d Dim) Mul(e Dim) (Dim, bool) {
	switch {
	case d.Sym == "":
		return Dim{Coef: d.Coef * e.Coef, Sym: e.Sym}, true
	case e.Sym == "":
		return Dim{Coef: d.Coef * e.Coef, Sym: d.Sym}, true
	}
	return Dim{}, false
}

// Div returns d/e when it is an exact Dim.
func (d Dim) Div(e Dim) (Dim, bool) {
	switch {
	case e.Coef == 0:
		return Dim{}, false
	case e.Sym == "" && d.Coef%e.Coef == 0:
		return Dim{Coef: d.Coef / e.Coef, Sym: d.Sym}, true
	case e.Sym != "" && e.Sym == d.Sym && d.Coef%e.Coef == 0:
		return Dim{Coef: d.Coef / e.Coef}, true
	}
	return Dim{}, false
}

// Eval returns the value of d given the symbols' values.
func (d Dim) Eval(syms map[string]int) (int, bool) {
	if d.Sym == "" {
		return d.Coef, true
	}
	v, ok := syms[d.Sym]
	return d.Coef * v, ok
}

// Shape is a list of dims.
type Shape []Dim

// ConstShape returns the shape of constant dims.
func ConstShape(dims ...int) Shape {
	s := make(Shape, len(dims))
	for i, d := range dims {
		s[i] = Const(d)
	}
	return s
}

// String prints s as [N,784].
func (s Shape) String() string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = d.String()
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// Equal reports whether s and t have the same dims.
func (s Shape) Equal(t Shape) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// NumElements returns the product of the dims, when it is a Dim.
func (s Shape) NumElements() (Dim, bool) {
	n := Const(1)
	for _, d := range s {
		var ok bool
		if n, ok = n.Mul(d); !ok {
			return Dim{}, false
		}
	}
	return n, true
}

// Countable reports whether the constant factors of s (its sizes and the
// coefficients of its symbols) multiply to at most an int's largest value,
// the test runtime.ShapeElements makes before allocating: a shape past it
// describes no tensor, and its size in ints wraps around (a reshape to
// [2^62+1, 4] would seem to keep 4 elements).
func (s Shape) Countable() bool {
	n := 1
	for _, d := range s {
		c := d.Coef
		if c < 0 {
			c = -c
		}
		if c == 0 {
			return true
		}
		if n > math.MaxInt/c {
			// Too large so far; a later zero still makes it empty.
			for _, e := range s {
				if e.Coef == 0 {
					return true
				}
			}
			return false
		}
		n *= c
	}
	return true
}

// Ints returns the shape's constant sizes; ok is false if any dim is symbolic.
func (s Shape) Ints() ([]int, bool) {
	out := make([]int, len(s))
	for i, d := range s {
		if !d.IsConst() {
			return nil, false
		}
		out[i] = d.Coef
	}
	return out, true
}

// SymbolicInts returns the shapes' sizes, each symbolic dim as a negative
// number that stands for it alone (equal dims, equal numbers): the form in
// which the runtime's broadcast rules (runtime.ElementwiseInputFits,
// runtime.AttentionExtraFits) take shapes with unknown sizes, which they
// never take for 1.
func SymbolicInts(shapes ...Shape) [][]int {
	syms := map[Dim]int{}
	out := make([][]int, len(shapes))
	for k, s := range shapes {
		out[k] = make([]int, len(s))
		for i, d := range s {
			n := d.Coef
			if !d.IsConst() {
				if _, ok := syms[d]; !ok {
					syms[d] = -1 - len(syms)
				}
				n = syms[d]
			}
			out[k][i] = n
		}
	}
	return out
}

// Eval returns the concrete sizes given the symbols' values.
func (s Shape) Eval(syms map[string]int) ([]int, bool) {
	out := make([]int, len(s))
	for i, d := range s {
		v, ok := d.Eval(syms)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// Clone returns a copy of s.
func (s Shape) Clone() Shape { return append(Shape{}, s...) }

// Type is the static type of a tensor value: dtype and shape.
type Type struct {
	DType DType
	Shape Shape
}

// String prints t as f32[N,784].
func (t Type) String() string { return t.DType.String() + t.Shape.String() }

// Equal reports whether t and u are the same type.
func (t Type) Equal(u Type) bool { return t.DType == u.DType && t.Shape.Equal(u.Shape) }

// TypeOf returns the constant type of a concrete array.
func TypeOf(a *runtime.Array) Type { return Type{DType: a.DType, Shape: ConstShape(a.Shape...)} }

// ParseType parses a type such as f32[N,784], i64[N,128] or bool[] where
// each dim is an integer, a symbol (an identifier) or k*SYM.
func ParseType(s string) (Type, error) {
	open := strings.IndexByte(s, '[')
	if open < 0 || !strings.HasSuffix(s, "]") {
		return Type{}, fmt.Errorf("type %q: want dtype[dims], e.g. f32[N,784]", s)
	}
	dt, err := runtime.ParseDType(s[:open])
	if err != nil {
		return Type{}, fmt.Errorf("type %q: %v", s, err)
	}
	t := Type{DType: dt, Shape: Shape{}}
	body := strings.TrimSpace(s[open+1 : len(s)-1])
	if body == "" {
		return t, nil
	}
	for _, f := range strings.Split(body, ",") {
		d, err := parseDim(strings.TrimSpace(f))
		if err != nil {
			return Type{}, fmt.Errorf("type %q: %v", s, err)
		}
		t.Shape = append(t.Shape, d)
	}
	return t, nil
}

func parseDim(f string) (Dim, error) {
	coef := 1
	if i := strings.IndexByte(f, '*'); i >= 0 {
		c, err := strconv.Atoi(f[:i])
		if err != nil {
			return Dim{}, fmt.Errorf("dim %q: bad coefficient", f)
		}
		coef, f = c, f[i+1:]
	}
	if n, err := strconv.Atoi(f); err == nil {
		if n < 0 {
			return Dim{}, fmt.Errorf("dim %q is negative", f)
		}
		return Const(coef * n), nil
	}
	if !isIdent(f) {
		return Dim{}, fmt.Errorf("dim %q is neither a size nor a symbol name", f)
	}
	return Dim{Coef: coef, Sym: f}, nil
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
