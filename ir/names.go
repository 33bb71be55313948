// This file holds the namespace that gives graph nodes unique names.

package ir

import (
	"strconv"
	"strings"
)

// namespace hands out unique identifiers: a candidate is sanitized to an
// identifier (dots and other symbols become _) and, if taken, gets the
// first free suffix _1, _2, ...
type namespace struct {
	used map[string]bool
	next map[string]int
}

func (ns *namespace) create(candidate string) string {
	if ns.used == nil {
		ns.used, ns.next = map[string]bool{}, map[string]int{}
	}
	base := sanitizeName(candidate)
	name := base
	for ns.used[name] {
		ns.next[base]++
		name = base + "_" + strconv.Itoa(ns.next[base])
	}
	ns.used[name] = true
	return name
}

func (ns *namespace) release(name string) { delete(ns.used, name) }

func sanitizeName(s string) string {
	var b strings.Builder
	for i, r := range s {
		ok := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		switch {
		case !ok:
			b.WriteByte('_')
		case i == 0 && r >= '0' && r <= '9':
			b.WriteByte('_')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}
