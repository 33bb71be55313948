// Package snake splits Go identifiers into words, for the snake_case names
// fxgen derives from them: state-dict names from field names (package
// nn) and file names from type names (cmd/fxgen).
package snake

import (
	"strings"
	"unicode"
)

// Words splits s at its camel-case word boundaries: before a capital that
// follows a lower-case letter, and before a capital that follows a capital
// or a digit and is followed by a lower-case letter, so runs of capitals
// stay together and digits stay with what precedes them: HTTPServer →
// HTTP Server, TokEmb → Tok Emb, Fc1 → Fc1, Conv2DNet → Conv2D Net,
// MobileNetV2 → Mobile Net V2.
func Words(s string) []string {
	rs := []rune(s)
	var words []string
	start := 0
	for i := 1; i < len(rs); i++ {
		r, prev := rs[i], rs[i-1]
		nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if unicode.IsUpper(r) && (unicode.IsLower(prev) || (unicode.IsUpper(prev) || unicode.IsDigit(prev)) && nextLower) {
			words = append(words, string(rs[start:i]))
			start = i
		}
	}
	if start < len(rs) {
		words = append(words, string(rs[start:]))
	}
	return words
}

// Case returns the words of s joined by underscores in lower case:
// TokEmb → tok_emb, QKV → qkv, HTTPServer → http_server.
func Case(s string) string { return strings.ToLower(strings.Join(Words(s), "_")) }
