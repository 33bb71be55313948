// This file defines the output file's default name.

package main

import "unicode"

// defaultOutput returns the default output file name for type t:
// <snake_case(t)>_fx.go.
func defaultOutput(t string) string { return snakeCase(t) + "_fx.go" }

// snakeCase converts a Go identifier to snake_case, keeping initialisms
// together and digits with what precedes them: MLP → mlp, ResNet18 →
// res_net18, FXDoc → fx_doc, HTTPServer → http_server.
func snakeCase(s string) string {
	rs := []rune(s)
	out := make([]rune, 0, len(rs)+4)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || (unicode.IsUpper(prev) || unicode.IsDigit(prev)) && nextLower {
				if out[len(out)-1] != '_' {
					out = append(out, '_')
				}
			}
		}
		out = append(out, unicode.ToLower(r))
	}
	return string(out)
}
