// This file defines the output file's default name.

package main

import (
	"strings"
	"unicode"

	"github.com/fxgen/fxgen/internal/snake"
)

// defaultOutput returns the default output file name for type t:
// <snake_case(t)>_fx.go.
func defaultOutput(t string) string { return snakeCase(t) + "_fx.go" }

// snakeCase converts a Go identifier to snake_case for a file name. Words
// begin at a capital after a lower-case letter, and at the last capital of
// a run followed by lower case, so runs of capitals stay together and
// digits stay with what precedes them; a word of one capital letter alone
// joins the next word, or the one before at the end, so that acronyms
// written in mixed case stay whole. Underscores are kept.
//
//	MLP → mlp, HTTPServer → http_server, ResNet18 → res_net18,
//	ViT → vit, UNetMini → unet_mini, MobileNetV2 → mobile_net_v2
func snakeCase(s string) string {
	segs := strings.Split(s, "_")
	for i, seg := range segs {
		segs[i] = strings.Join(joinSingles(snake.Words(seg)), "_")
	}
	return strings.ToLower(strings.Join(segs, "_"))
}

// joinSingles joins each word of a single letter to its neighbour.
func joinSingles(words []string) []string {
	var out []string
	carry := ""
	for i, w := range words {
		rs := []rune(w)
		if len(rs) == 1 && unicode.IsLetter(rs[0]) && len(words) > 1 {
			if i+1 < len(words) {
				carry += w
				continue
			}
			if len(out) > 0 {
				out[len(out)-1] += carry + w
				carry = ""
				continue
			}
		}
		out = append(out, carry+w)
		carry = ""
	}
	if carry != "" {
		out = append(out, carry)
	}
	return out
}
