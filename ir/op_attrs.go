// This file holds the attribute values of a call: Kwarg, Sig and their
// normalization against an op's declared attributes.

package ir

import (
	"fmt"
	"strings"
)

// Kwarg is one named attribute value of a call.
type Kwarg struct {
	Name  string
	Value any
}

// Sig is the static view of one call of an op: operand types and
// attributes. Infer rules read it.
type Sig struct {
	Op     *Op
	Args   []ArgType
	Kwargs []Kwarg
}

// Value returns the attribute's value (its default when not given).
func (s *Sig) Value(name string) any {
	for _, kw := range s.Kwargs {
		if kw.Name == name {
			return kw.Value
		}
	}
	a, ok := s.Op.attr(name)
	if !ok {
		panic("ir: op " + s.Op.Name + " has no attribute " + name)
	}
	return a.Default
}

// Int returns an IntAttr attribute.
func (s *Sig) Int(name string) int { return s.Value(name).(int) }

// Float returns a FloatAttr attribute.
func (s *Sig) Float(name string) float64 { return s.Value(name).(float64) }

// Bool returns a BoolAttr attribute.
func (s *Sig) Bool(name string) bool { return s.Value(name).(bool) }

// Ints returns an IntsAttr attribute.
func (s *Sig) Ints(name string) []int { return s.Value(name).([]int) }

// DType returns a DTypeAttr attribute.
func (s *Sig) DType(name string) DType { return s.Value(name).(DType) }

// NormalizeKwargs checks kwargs against the op's attributes, converts
// values to their kind's Go type (an int for an IntsAttr becomes a list,
// an int for a FloatAttr a float64) and reports missing required ones.
func (op *Op) NormalizeKwargs(kwargs []Kwarg) ([]Kwarg, error) {
	out := make([]Kwarg, 0, len(kwargs))
	seen := map[string]bool{}
	for _, kw := range kwargs {
		a, ok := op.attr(kw.Name)
		if !ok {
			return nil, fmt.Errorf("unknown attribute %q (have %s)", kw.Name, op.attrNames())
		}
		if seen[kw.Name] {
			return nil, fmt.Errorf("attribute %q given twice", kw.Name)
		}
		seen[kw.Name] = true
		v, err := convertAttr(a, kw.Value)
		if err != nil {
			return nil, err
		}
		out = append(out, Kwarg{kw.Name, v})
	}
	for _, a := range op.Attrs {
		if a.Default == nil && !seen[a.Name] {
			return nil, fmt.Errorf("missing required attribute %q", a.Name)
		}
	}
	return out, nil
}

func (op *Op) attrNames() string {
	var names []string
	for _, a := range op.Attrs {
		names = append(names, a.Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func convertAttr(a Attr, v any) (any, error) {
	switch a.Kind {
	case IntAttr:
		if i, ok := v.(int); ok {
			return i, nil
		}
	case FloatAttr:
		switch x := v.(type) {
		case float64:
			return x, nil
		case float32:
			return float64(x), nil
		case int:
			return float64(x), nil
		}
	case BoolAttr:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case IntsAttr:
		switch x := v.(type) {
		case []int:
			return append([]int{}, x...), nil
		case int:
			return []int{x}, nil
		}
	case DTypeAttr:
		if d, ok := v.(DType); ok {
			return d, nil
		}
	}
	return nil, fmt.Errorf("attribute %q: got %T (%v), want %v", a.Name, v, v, attrGoTypes[a.Kind])
}
