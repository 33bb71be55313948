// This file defines the command line: flags, their parsing and validation.

package main

import (
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/passes"
)

// The flags; see the package doc.
var (
	typeName   = flag.String("type", "", "model type `T`; required")
	inputs     listFlag
	concretes  listFlag
	leaves     listFlag
	userPasses listFlag
	newExpr    = flag.String("new", "", "constructor `EXPR` in the model package's scope (default NewT())")
	output     = flag.String("output", "", "output `FILE` (default <snake_case(T)>_fx.go in the package directory)")
	printTable = flag.Bool("print", false, "print the graph table to standard output and write nothing else (but -dot)")
	dotFile    = flag.String("dot", "", "also write the graph in Graphviz DOT to `FILE`")
	check      = flag.Bool("check", false, "write nothing; exit 3 with a unified diff if an output file is stale (also with FXGEN_CHECK=1 in the environment)")
	writeTest  = flag.Bool("test", true, "also write <output>_test.go, a test of the compiled model against the model on random inputs")
	showVer    = flag.Bool("version", false, "print fxgen's version and exit")
	passList   = flag.String("passes", "", "comma-separated `passes` to run between tracing and emitting, or none (default: the default pipeline)")
	dumpAfter  = flag.String("dump-after", "", "print the graph to standard error after the pass `NAME`")
	timeout    = flag.Duration("timeout", defaultTimeout, "end the driver (model construction and tracing) after `DURATION`, showing where the model was")
	verbose    = flag.Bool("v", false, "verbose: print the driver's full output (raw Go traces) when it fails")
)

// defaultTimeout is -timeout's default: far more than tracing any model
// takes, short enough that a model that never returns does not hang go
// generate for ever.
const defaultTimeout = 3 * time.Minute

// resetFlags gives every flag its default value again.
func resetFlags() {
	*typeName, *newExpr, *output, *dotFile = "", "", "", ""
	*printTable, *check, *verbose, *showVer = false, false, false, false
	*writeTest = true
	*passList, *dumpAfter = "", ""
	*timeout = defaultTimeout
	inputs, concretes, leaves, userPasses = nil, nil, nil, nil
}

func init() {
	flag.Var(&inputs, "input", "tensor parameter spec `name=dtype[dims]`, e.g. x=f32[N,784]; repeatable, or several separated by spaces")
	flag.Var(&concretes, "concrete", "bind non-tensor parameter: `name=value`; repeatable")
	flag.Var(&leaves, "leaf", "module `path` or type name to keep as a leaf; repeatable")
	flag.Var(&userPasses, "pass", "run the user's pass `importpath.Name` (a *passes.Pass variable) on the traced graph, before the built-in passes; repeatable")
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, " ") }

func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// usageError is a malformed command line: fxgen exits with status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// options is the validated command line.
type options struct {
	Type     string
	Inputs   []inputSpec
	Concrete []concreteArg // values still as written; converted after loading
	Leaves   []string
	// UserPasses are the -pass flags, in order: the user's passes.
	UserPasses []userPass
	New        string // "" for the default New<Type>()
	Output     string
	Print      bool
	Dot        string
	Check      bool // -check, or FXGEN_CHECK set
	Test       bool
	Pattern    string
	// Passes is -passes as given, canonicalized ("" for the default
	// pipeline); DumpAfter is -dump-after.
	Passes    string
	DumpAfter string
	Timeout   time.Duration
	Verbose   bool
}

// userPass is one -pass: the import path of a package of the user's and
// the name of its *passes.Pass variable.
type userPass struct {
	Path, Name string
}

// String returns the pass as -pass takes it: importpath.Name.
func (p userPass) String() string { return p.Path + "." + p.Name }

// parseUserPass parses a -pass value.
func parseUserPass(s string) (userPass, error) {
	s = strings.TrimSpace(s)
	dot := strings.LastIndexByte(s, '.')
	if dot <= 0 || strings.HasSuffix(s[:dot], "/") {
		return userPass{}, usagef("-pass %q: want importpath.Name, e.g. example.com/m/mypasses.Fold", s)
	}
	p := userPass{Path: s[:dot], Name: s[dot+1:]}
	if !token.IsIdentifier(p.Name) || !token.IsExported(p.Name) {
		return userPass{}, usagef("-pass %q: %q is not an exported Go name (want importpath.Name, a *passes.Pass variable)", s, p.Name)
	}
	return p, nil
}

// inputSpec is one -input, parsed.
type inputSpec struct {
	Name string
	Spec string // canonical name=type
}

// concreteArg is one -concrete as written.
type concreteArg struct {
	Name, Value string
}

// parseOptions validates the parsed flags and arguments.
func parseOptions(args []string) (*options, error) {
	o := &options{
		Type:    *typeName,
		New:     strings.TrimSpace(*newExpr),
		Output:  *output,
		Print:   *printTable,
		Dot:     *dotFile,
		Check:   *check,
		Test:    *writeTest,
		Timeout: *timeout,
		Verbose: *verbose,
	}
	if v := os.Getenv("FXGEN_CHECK"); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return nil, usagef("FXGEN_CHECK=%s: want 1 (check, write nothing) or 0", v)
		}
		o.Check = o.Check || on
	}
	if o.Timeout <= 0 {
		return nil, usagef("-timeout %v: want a positive duration such as 5m", o.Timeout)
	}
	if o.Output != "" {
		base := filepath.Base(o.Output)
		if !strings.HasSuffix(base, ".go") || strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") {
			return nil, usagef("-output %s: want a .go file name that the go command builds (not a _test.go, dot or underscore file)", o.Output)
		}
	}
	if o.Dot != "" && strings.HasSuffix(o.Dot, ".go") {
		return nil, usagef("-dot %s: a DOT file must not be a .go file", o.Dot)
	}
	if o.Type == "" {
		return nil, usagef("-type is required")
	}
	if !isIdent(o.Type) {
		return nil, usagef("-type %q: not a Go identifier", o.Type)
	}
	seen := map[string]bool{}
	for _, v := range inputs {
		specs, err := splitInputs(v)
		if err != nil {
			return nil, usagef("-input %q: %v", v, err)
		}
		if len(specs) == 0 {
			return nil, usagef("-input %q: empty", v)
		}
		for _, s := range specs {
			in, err := parseInput(s)
			if err != nil {
				return nil, usagef("-input: %v", err)
			}
			if seen[in.Name] {
				return nil, usagef("-input: parameter %s given twice", in.Name)
			}
			seen[in.Name] = true
			o.Inputs = append(o.Inputs, in)
		}
	}
	seenConcrete := map[string]bool{}
	for _, v := range concretes {
		name, value, ok := strings.Cut(v, "=")
		name = strings.TrimSpace(name)
		if !ok || !isIdent(name) {
			return nil, usagef("-concrete %q: want name=value", v)
		}
		if seen[name] {
			return nil, usagef("-concrete %s: parameter also given by -input", name)
		}
		if seenConcrete[name] {
			return nil, usagef("-concrete: parameter %s given twice", name)
		}
		seenConcrete[name] = true
		o.Concrete = append(o.Concrete, concreteArg{Name: name, Value: value})
	}
	for _, l := range leaves {
		l = strings.TrimSpace(l)
		if l == "" {
			return nil, usagef("-leaf: empty path")
		}
		o.Leaves = append(o.Leaves, l)
	}
	for _, s := range userPasses {
		p, err := parseUserPass(s)
		if err != nil {
			return nil, err
		}
		o.UserPasses = append(o.UserPasses, p)
	}
	pipeline := passes.Default
	if p := strings.TrimSpace(*passList); p != "" && p != "default" {
		var err error
		if pipeline, err = passes.Parse(p); err != nil {
			return nil, usagef("-passes %q: %v", p, err)
		}
		o.Passes = "none"
		if len(pipeline) > 0 {
			var names []string
			for _, ps := range pipeline {
				names = append(names, ps.Name)
			}
			o.Passes = strings.Join(names, ",")
		}
	}
	if o.DumpAfter = strings.TrimSpace(*dumpAfter); o.DumpAfter != "" {
		found := false
		for _, ps := range pipeline {
			found = found || ps.Name == o.DumpAfter
		}
		if !found {
			return nil, usagef("-dump-after %s: no such pass in the pipeline", o.DumpAfter)
		}
	}
	if o.New != "" {
		if _, err := parser.ParseExpr(o.New); err != nil {
			return nil, usagef("-new %q: %v", o.New, err)
		}
	}
	switch len(args) {
	case 0:
		o.Pattern = "."
	case 1:
		o.Pattern = args[0]
	default:
		return nil, usagef("too many arguments: want at most one package, got %q", args)
	}
	return o, nil
}

// splitInputs splits one -input value into specs at white space outside
// brackets, so that "x=f32[N, 784] y=i64[N]" is two specs.
func splitInputs(v string) ([]string, error) {
	var specs []string
	depth, start := 0, -1
	for i, r := range v {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced ]")
			}
		case unicode.IsSpace(r) && depth == 0:
			if start >= 0 {
				specs = append(specs, v[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced [")
	}
	if start >= 0 {
		specs = append(specs, v[start:])
	}
	return specs, nil
}

// parseInput parses and canonicalizes one name=dtype[dims] spec.
func parseInput(spec string) (inputSpec, error) {
	name, typ, ok := strings.Cut(spec, "=")
	if !ok || !isIdent(name) {
		return inputSpec{}, fmt.Errorf("%q: want name=dtype[dims], e.g. x=f32[N,784]", spec)
	}
	typ = strings.ReplaceAll(typ, " ", "")
	if err := checkDims(typ); err != nil {
		return inputSpec{}, fmt.Errorf("%q: %v", spec, err)
	}
	t, err := ir.ParseType(typ)
	if err != nil {
		return inputSpec{}, fmt.Errorf("%q: %v", spec, err)
	}
	return inputSpec{Name: name, Spec: name + "=" + t.String()}, nil
}

// isIdent reports whether s is a Go identifier.
func isIdent(s string) bool {
	for i, r := range s {
		if !unicode.IsLetter(r) && r != '_' && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

// command returns the canonical arguments recorded in the generated file's
// header: only what determines the output, in a fixed order, so that the
// same directive gives the same bytes however fxgen was invoked.
func (o *options) command() string {
	var b strings.Builder
	b.WriteString("-type " + quoteArg(o.Type))
	for _, in := range o.Inputs {
		b.WriteString(" -input " + quoteArg(in.Spec))
	}
	for _, c := range o.Concrete {
		b.WriteString(" -concrete " + quoteArg(c.Name+"="+c.Value))
	}
	for _, l := range o.Leaves {
		b.WriteString(" -leaf " + quoteArg(l))
	}
	if o.New != "" {
		b.WriteString(" -new " + quoteArg(o.New))
	}
	for _, p := range o.UserPasses {
		b.WriteString(" -pass " + quoteArg(p.String()))
	}
	if o.Passes != "" {
		b.WriteString(" -passes " + quoteArg(o.Passes))
	}
	return b.String()
}

// quoteArg quotes s for a shell when it is not a plain word.
func quoteArg(s string) string {
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_-.,/=:+", r)) {
			return strconv.Quote(s)
		}
	}
	if s == "" {
		return `""`
	}
	return s
}
