// This file defines Input, the spec of one traced tensor argument.

package tracer

import (
	"fmt"
	"strings"

	"github.com/fxgen/fxgen/ir"
)

// Input names a tensor parameter of Forward and gives its type, whose dims
// may be symbolic: x=f32[N,784].
type Input struct {
	Name string
	Type ir.Type
}

// String prints the input as name=type.
func (in Input) String() string { return in.Name + "=" + in.Type.String() }

// ParseInput parses name=dtype[dims], e.g. tokens=i64[N,128].
func ParseInput(spec string) (Input, error) {
	name, typ, ok := strings.Cut(strings.TrimSpace(spec), "=")
	if !ok || name == "" {
		return Input{}, fmt.Errorf("input %q: want name=dtype[dims], e.g. x=f32[N,784]", spec)
	}
	t, err := ir.ParseType(typ)
	if err != nil {
		return Input{}, fmt.Errorf("input %q: %v", spec, err)
	}
	return Input{Name: name, Type: t}, nil
}

// MustParseInputs parses several specs and panics on error; for tests and
// examples.
func MustParseInputs(specs ...string) []Input {
	out := make([]Input, len(specs))
	for i, s := range specs {
		in, err := ParseInput(s)
		if err != nil {
			panic(err)
		}
		out[i] = in
	}
	return out
}
