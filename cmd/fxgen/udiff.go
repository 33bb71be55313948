// This file defines the unified diff that -check prints: line based, with
// three lines of context, as diff -u and git diff print it.

package main

import (
	"fmt"
	"strings"
)

// maxEdits bounds the edit distance the diff searches for a shortest
// script; beyond it the diff replaces every line, still correct but not
// minimal. It bounds the memory of the search to about 4·maxEdits² bytes.
const maxEdits = 2000

// unifiedDiff returns the unified diff that turns a into b, with the file
// names aName and bName in its header, or "" when they are equal.
func unifiedDiff(aName, bName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	x, y := splitLines(string(a)), splitLines(string(b))
	ops := diffLines(x, y)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	const context = 3
	for i := 0; i < len(ops); {
		// Find the next change, then the end of its hunk: the first run of
		// more than 2·context equal lines after it.
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(i-context, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, len(ops))
				break
			}
			end = run
		}
		writeHunk(&out, ops[start:end])
		i = end
	}
	return out.String()
}

// line is one line of a file, with whether it ended in a newline.
type line struct {
	text string
	eol  bool
}

func splitLines(s string) []line {
	var lines []line
	for s != "" {
		text, rest, eol := strings.Cut(s, "\n")
		lines = append(lines, line{text, eol})
		s = rest
	}
	return lines
}

// diffOp is one line of the edit script: kind ' ' keeps line x[i] (which
// is y[j]), '-' deletes x[i], '+' inserts y[j]. i and j count from 0.
type diffOp struct {
	kind byte
	i, j int
	l    line
}

// writeHunk writes one hunk: its header and lines.
func writeHunk(out *strings.Builder, ops []diffOp) {
	var aStart, aLen, bStart, bLen int
	aStart, bStart = -1, -1
	for _, op := range ops {
		if op.kind != '+' {
			if aStart < 0 {
				aStart = op.i
			}
			aLen++
		}
		if op.kind != '-' {
			if bStart < 0 {
				bStart = op.j
			}
			bLen++
		}
	}
	if aStart < 0 { // only insertions: start at the line before
		aStart = ops[0].i
	} else {
		aStart++
	}
	if bStart < 0 {
		bStart = ops[0].j
	} else {
		bStart++
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, op := range ops {
		fmt.Fprintf(out, "%c%s\n", op.kind, op.l.text)
		if !op.l.eol {
			out.WriteString("\\ No newline at end of file\n")
		}
	}
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// diffLines returns a shortest edit script from x to y (Myers' O(ND)
// algorithm), or, past maxEdits, the deletion of x and insertion of y
// after their common prefix and suffix.
func diffLines(x, y []line) []diffOp {
	var ops []diffOp
	// Common prefix and suffix first: generated files mostly differ in a
	// few places.
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		ops = append(ops, diffOp{' ', p, p, x[p]})
		p++
	}
	s := 0
	for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
		s++
	}
	mid := myers(x[p:len(x)-s], y[p:len(y)-s], p)
	ops = append(ops, mid...)
	for k := s; k > 0; k-- {
		i, j := len(x)-k, len(y)-k
		ops = append(ops, diffOp{' ', i, j, x[i]})
	}
	return ops
}

// myers diffs x and y, whose first lines are line off of both files.
func myers(x, y []line, off int) []diffOp {
	n, m := len(x), len(y)
	replaceAll := func() []diffOp {
		var ops []diffOp
		for i := range x {
			ops = append(ops, diffOp{'-', off + i, off, x[i]})
		}
		for j := range y {
			ops = append(ops, diffOp{'+', off + n, off + j, y[j]})
		}
		return ops
	}
	maxD := min(n+m, maxEdits)
	if maxD == 0 {
		return nil
	}
	// v[k+maxD] is the furthest x reached on diagonal k; trace keeps v
	// after each round d for the walk back.
	v := make([]int32, 2*maxD+2)
	var trace [][]int32
	found := -1
	for d := 0; d <= maxD && found < 0; d++ {
		trace = append(trace, append([]int32(nil), v...))
		for k := -d; k <= d; k += 2 {
			var i int
			if k == -d || k != d && v[k-1+maxD] < v[k+1+maxD] {
				i = int(v[k+1+maxD]) // down: an insertion
			} else {
				i = int(v[k-1+maxD]) + 1 // right: a deletion
			}
			j := i - k
			for i < n && j < m && x[i] == y[j] {
				i, j = i+1, j+1
			}
			v[k+maxD] = int32(i)
			if i >= n && j >= m {
				found = d
				break
			}
		}
	}
	if found < 0 {
		return replaceAll()
	}
	// Walk back from (n, m) through the saved rounds.
	var rev []diffOp
	i, j := n, m
	for d := found; d > 0; d-- {
		vd := trace[d] // v before round d, i.e. after round d-1
		k := i - j
		var prevK int
		if k == -d || k != d && vd[k-1+maxD] < vd[k+1+maxD] {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		pi := int(vd[prevK+maxD])
		pj := pi - prevK
		for i > pi && j > pj && (prevK == k+1 && i > pi || prevK == k-1 && i > pi+1) {
			i, j = i-1, j-1
			rev = append(rev, diffOp{' ', off + i, off + j, x[i]})
		}
		if prevK == k+1 {
			j--
			rev = append(rev, diffOp{'+', off + i, off + j, y[j]})
		} else {
			i--
			rev = append(rev, diffOp{'-', off + i, off + j, x[i]})
		}
	}
	for i > 0 && j > 0 {
		i, j = i-1, j-1
		rev = append(rev, diffOp{' ', off + i, off + j, x[i]})
	}
	ops := make([]diffOp, len(rev))
	for k, op := range rev {
		ops[len(rev)-1-k] = op
	}
	return ops
}
