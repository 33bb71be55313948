// This file holds the Go identifier namespace of generated code.

package emit

import (
	"go/token"
	"strconv"
	"strings"
)

// predeclared are Go's predeclared identifiers, which generated names avoid
// so that generated code never shadows them.
var predeclared = map[string]bool{
	"any": true, "append": true, "bool": true, "byte": true, "cap": true, "clear": true, "close": true,
	"comparable": true, "complex": true, "complex128": true, "complex64": true, "copy": true,
	"delete": true, "error": true, "false": true, "float32": true, "float64": true, "imag": true,
	"int": true, "int16": true, "int32": true, "int64": true, "int8": true, "iota": true, "len": true,
	"make": true, "max": true, "min": true, "new": true, "nil": true, "panic": true, "print": true,
	"println": true, "real": true, "recover": true, "rune": true, "string": true, "true": true,
	"uint": true, "uint16": true, "uint32": true, "uint64": true, "uint8": true, "uintptr": true,
}

// goNames hands out Go identifiers that are unique, not keywords, not
// predeclared and not the names of imported packages.
type goNames struct{ used map[string]bool }

func newGoNames(reserved ...string) *goNames {
	ns := &goNames{used: map[string]bool{"runtime": true, "tensor": true}}
	for _, r := range reserved {
		ns.used[r] = true
	}
	return ns
}

// name returns a fresh identifier derived from candidate.
func (ns *goNames) name(candidate string) string {
	base := identifier(candidate)
	if token.IsKeyword(base) || predeclared[base] {
		base += "_"
	}
	name := base
	for i := 1; ns.used[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	ns.used[name] = true
	return name
}

// identifier maps any string to a Go identifier: other characters become _.
func identifier(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			if i == 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_v"
	}
	return b.String()
}
