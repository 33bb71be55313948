// This file turns a crashed driver's raw Go traceback (a panic, a fatal
// error such as a stack overflow, or the stacks printed on SIGQUIT at a
// timeout) into one message at the model's frame: the first frame in the
// model's package directory.

package main

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// frame is one call in a goroutine's stack.
type frame struct {
	Func string
	File string
	Line int
}

// goroutineStack is one goroutine of a traceback.
type goroutineStack struct {
	Header string // goroutine 1 [running]:
	Frames []frame
}

// traceback is a Go program's crash output, parsed.
type traceback struct {
	Reason     string // the panic or fatal error, without its "panic: " prefix
	Kind       string // "panic", "fatal error", "SIGQUIT" or ""
	Goroutines []goroutineStack
}

// parseTraceback parses what the Go runtime prints when a program
// crashes. Lines it does not know (the program's own output) are skipped.
func parseTraceback(out string) traceback {
	var tb traceback
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case tb.Kind == "" && strings.HasPrefix(line, "panic: "):
			tb.Kind = "panic"
			tb.Reason = strings.TrimSuffix(strings.TrimPrefix(line, "panic: "), " [recovered]")
			// A multi-line panic value continues up to the blank line.
			for i+1 < len(lines) && lines[i+1] != "" && !strings.HasPrefix(lines[i+1], "goroutine ") && !strings.HasPrefix(lines[i+1], "[signal ") {
				i++
				tb.Reason += "\n" + lines[i]
			}
		case tb.Kind == "" && strings.HasPrefix(line, "fatal error: "):
			tb.Kind = "fatal error"
			tb.Reason = strings.TrimPrefix(line, "fatal error: ")
		case tb.Kind == "" && strings.HasPrefix(line, "SIGQUIT: "):
			tb.Kind = "SIGQUIT"
		case strings.HasPrefix(line, "goroutine ") && strings.HasSuffix(line, ":"):
			tb.Goroutines = append(tb.Goroutines, goroutineStack{Header: line})
		case len(tb.Goroutines) > 0 && strings.HasPrefix(line, "\t") && i > 0:
			file, lineNo, ok := parseFrameLocation(line)
			if !ok {
				continue
			}
			fn := strings.TrimSpace(lines[i-1])
			fn = strings.TrimPrefix(fn, "created by ")
			if j := strings.LastIndex(fn, " in goroutine "); j >= 0 {
				fn = fn[:j]
			}
			g := &tb.Goroutines[len(tb.Goroutines)-1]
			g.Frames = append(g.Frames, frame{Func: fn, File: file, Line: lineNo})
		}
	}
	return tb
}

// parseFrameLocation parses "\t/path/file.go:12 +0x1d".
func parseFrameLocation(line string) (string, int, bool) {
	loc := strings.TrimSpace(line)
	if i := strings.LastIndex(loc, " +0x"); i >= 0 {
		loc = loc[:i]
	}
	colon := strings.LastIndex(loc, ":")
	if colon < 0 || !strings.HasSuffix(loc[:colon], ".go") {
		return "", 0, false
	}
	n, err := strconv.Atoi(loc[colon+1:])
	if err != nil {
		return "", 0, false
	}
	return loc[:colon], n, true
}

// modelFrame returns the first frame of g in the package directory dir.
func (g *goroutineStack) modelFrame(dir string) (frame, bool) {
	for _, f := range g.Frames {
		if filepath.Dir(f.File) == dir {
			return f, true
		}
	}
	return frame{}, false
}

// locate returns the goroutine to blame and its model frame: the first
// goroutine (the one that crashed, for a panic) that has a frame in dir.
func (tb *traceback) locate(dir string) (*goroutineStack, frame, bool) {
	for i := range tb.Goroutines {
		if f, ok := tb.Goroutines[i].modelFrame(dir); ok {
			return &tb.Goroutines[i], f, true
		}
	}
	return nil, frame{}, false
}

// shortFunc drops the package path and the arguments from a traceback's
// function line: example.com/m/bad.(*Hang).Forward(0xc0, ...) →
// (*Hang).Forward.
func shortFunc(fn string) string {
	if strings.HasSuffix(fn, ")") {
		depth := 0
		for i := len(fn) - 1; i >= 0; i-- {
			switch fn[i] {
			case ')':
				depth++
			case '(':
				depth--
			}
			if depth == 0 {
				fn = fn[:i]
				break
			}
		}
	}
	slash := strings.LastIndex(fn, "/")
	if dot := strings.Index(fn[slash+1:], "."); dot >= 0 {
		fn = fn[slash+1+dot+1:]
	}
	return fn
}

// crashError is a driver that crashed or was stopped, summarized at the
// model's frame.
type crashError struct {
	Pos     string // file:line of the model frame, relative, or ""
	Msg     string
	Context []string // further lines: the model's calls, or advice
	Raw     string   // the driver's whole output, printed with -v
	Verbose bool
}

func (e *crashError) Error() string {
	var b strings.Builder
	if e.Pos != "" {
		b.WriteString(e.Pos + ": ")
	}
	b.WriteString("fxgen: " + e.Msg)
	for _, c := range e.Context {
		b.WriteString("\n\t" + c)
	}
	if e.Verbose {
		b.WriteString("\nthe driver's output:\n" + strings.TrimRight(e.Raw, "\n"))
	} else if e.Raw != "" {
		b.WriteString("\n(run fxgen with -v for the driver's full output)")
	}
	return b.String()
}

// maxCalls is how many of the model's calls a message lists.
const maxCalls = 6

// modelCalls lists g's frames in dir, innermost first, as context lines;
// a run of the same call (recursion) is one line with its count.
func modelCalls(g *goroutineStack, dir string) []string {
	var out []string
	last, repeats := "", 0
	flush := func() {
		if repeats > 1 {
			out[len(out)-1] += fmt.Sprintf(" (×%d in the stack the runtime printed)", repeats)
		}
	}
	for _, f := range g.Frames {
		if filepath.Dir(f.File) != dir {
			continue
		}
		line := fmt.Sprintf("%s:%d: %s", relPath(f.File), f.Line, shortFunc(f.Func))
		if line == last {
			repeats++
			continue
		}
		flush()
		out = append(out, line)
		last, repeats = line, 1
	}
	flush()
	if len(out) > maxCalls {
		out = append(out[:maxCalls], "...")
	}
	return out
}

// summarizeCrash explains a driver that exited with status code without
// reporting an error, from its output raw. dir is the model's package
// directory.
func summarizeCrash(raw string, code int, dir string) *crashError {
	e := &crashError{Raw: raw}
	tb := parseTraceback(raw)
	g, f, ok := tb.locate(dir)
	if ok {
		e.Pos = fmt.Sprintf("%s:%d", relPath(f.File), f.Line)
		e.Context = modelCalls(g, dir)
		if len(e.Context) > 0 {
			e.Context = e.Context[1:]
		}
	}
	where := ""
	if ok {
		where = " in " + shortFunc(f.Func)
	}
	switch tb.Kind {
	case "panic":
		e.Msg = fmt.Sprintf("the model panicked%s: %s", where, tb.Reason)
		if !ok {
			e.Msg = fmt.Sprintf("the driver panicked outside the model's package: %s", tb.Reason)
		}
	case "fatal error":
		e.Msg = fmt.Sprintf("the driver died%s: %s", where, tb.Reason)
		if strings.Contains(tb.Reason, "stack overflow") {
			e.Msg += " (unbounded recursion in the model?)"
		}
	default:
		e.Msg = fmt.Sprintf("the driver exited with status %d before it wrote the graph: model code called os.Exit (or log.Fatal) while the model was built or traced", code)
		e.Pos = ""
		e.Context = lastLines(raw, 3)
	}
	return e
}

// lastLines returns the last n non-empty lines of s, as context.
func lastLines(s string, n int) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, "| "+l)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

// summarizeTimeout explains a driver stopped at the timeout, from the
// stacks it printed on SIGQUIT.
func summarizeTimeout(raw string, limit fmt.Stringer, dir string) *crashError {
	e := &crashError{Raw: raw, Msg: fmt.Sprintf("the model did not finish within -timeout %v (building or tracing it never returned)", limit)}
	tb := parseTraceback(raw)
	if g, f, ok := tb.locate(dir); ok {
		e.Pos = fmt.Sprintf("%s:%d", relPath(f.File), f.Line)
		e.Msg = fmt.Sprintf("the model did not finish within -timeout %v: it was still in %s here", limit, shortFunc(f.Func))
		e.Context = modelCalls(g, dir)
		if len(e.Context) > 0 {
			e.Context = e.Context[1:]
		}
	}
	return e
}

// untrimPaths rewrites the frame locations of the model package that a
// -trimpath build prints as import paths (example.com/m/bad/bad.go:12)
// into the package directory, so that the model's frames are found and
// shown like the compiler shows positions.
func untrimPaths(raw, pkgPath, dir string) string {
	if pkgPath == "" {
		return raw
	}
	return strings.ReplaceAll(raw, "\n\t"+pkgPath+"/", "\n\t"+dir+string(filepath.Separator))
}
