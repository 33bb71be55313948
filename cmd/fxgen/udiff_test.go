package main

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedDiffFormat(t *testing.T) {
	a := "package x\n\nvar A = 1\nvar B = 2\nvar C = 3\nvar D = 4\nvar E = 5\nvar F = 6\nvar G = 7\nvar H = 8\nvar I = 9\n"
	b := strings.Replace(strings.Replace(a, "var B = 2\n", "var B = 20\n", 1), "var I = 9\n", "var I = 9\nvar J = 10\n", 1)
	want := `--- a/x_fx.go
+++ b/x_fx.go
@@ -1,7 +1,7 @@
 package x
 
 var A = 1
-var B = 2
+var B = 20
 var C = 3
 var D = 4
 var E = 5
@@ -9,3 +9,4 @@
 var G = 7
 var H = 8
 var I = 9
+var J = 10
`
	if got := unifiedDiff("a/x_fx.go", "b/x_fx.go", []byte(a), []byte(b)); got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	if got := unifiedDiff("a", "b", []byte(a), []byte(a)); got != "" {
		t.Errorf("equal files: diff %q", got)
	}
	got := unifiedDiff("a", "b", []byte("x\ny"), []byte("x\ny\n"))
	if want := "--- a\n+++ b\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+y\n"; got != want {
		t.Errorf("missing final newline: %q, want %q", got, want)
	}
	if got, want := unifiedDiff("a", "b", nil, []byte("x\n")), "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n"; got != want {
		t.Errorf("from empty: %q, want %q", got, want)
	}
}

// TestUnifiedDiffRandom applies the diff of random files to the first and
// checks that it gives the second, and that the script is shortest.
func TestUnifiedDiffRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gen := func() []string {
		lines := make([]string, r.IntN(30))
		for i := range lines {
			lines[i] = strconv.Itoa(r.IntN(5))
		}
		return lines
	}
	for range 500 {
		x, y := gen(), gen()
		a, b := strings.Join(x, "\n")+"\n", strings.Join(y, "\n")+"\n"
		if len(x) == 0 {
			a = ""
		}
		if len(y) == 0 {
			b = ""
		}
		d := unifiedDiff("a", "b", []byte(a), []byte(b))
		got, edits, err := applyDiff(a, d)
		if err != nil || got != b {
			t.Fatalf("diff of %q and %q:\n%s\napplied: %q, %v", a, b, d, got, err)
		}
		if want := len(x) + len(y) - 2*lcs(x, y); edits != want {
			t.Fatalf("diff of %q and %q has %d edits, want %d:\n%s", a, b, edits, want, d)
		}
	}
}

// applyDiff applies a unified diff of whole lines to a and counts its
// edits.
func applyDiff(a, diff string) (string, int, error) {
	if diff == "" {
		return a, 0, nil
	}
	src := strings.SplitAfter(a, "\n")
	if src[len(src)-1] == "" {
		src = src[:len(src)-1]
	}
	var out []string
	next, edits := 0, 0
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")[2:]
	for _, l := range lines {
		if strings.HasPrefix(l, "@@") {
			// @@ -start[,count] ...: count 1 is omitted; with count 0 the
			// hunk goes after line start, else it begins at line start.
			start, count, _ := strings.Cut(strings.Fields(l)[1][1:], ",")
			as, err := strconv.Atoi(start)
			if err != nil {
				return "", 0, err
			}
			if count != "0" {
				as--
			}
			for next < as {
				out = append(out, src[next])
				next++
			}
			continue
		}
		switch l[0] {
		case ' ':
			if next >= len(src) || src[next] != l[1:]+"\n" {
				return "", 0, fmt.Errorf("context %q does not match line %d", l, next)
			}
			out = append(out, src[next])
			next++
		case '-':
			if next >= len(src) || src[next] != l[1:]+"\n" {
				return "", 0, fmt.Errorf("deleted %q does not match line %d", l, next)
			}
			next++
			edits++
		case '+':
			out = append(out, l[1:]+"\n")
			edits++
		}
	}
	out = append(out, src[next:]...)
	return strings.Join(out, ""), edits, nil
}

func lcs(x, y []string) int {
	dp := make([][]int, len(x)+1)
	for i := range dp {
		dp[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}
