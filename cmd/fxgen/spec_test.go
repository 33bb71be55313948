// This file is the catalogue's spec and flag part: -input specs and
// command lines fxgen must refuse with exit status 2 and a message naming
// the flag, and fuzz targets for the spec and flag parsers.

package main

import (
	"flag"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// badSpecs are -input values fxgen must refuse before loading anything.
// Before checkDims, "x=f32[0*N,4]" was accepted and generated code that
// divides by zero, "x=f32[-2*3]" was accepted as the size -6 and found
// only by the tracer, and "x=f32[4611686018427387904*4]" wrapped to 0.
var badSpecs = []struct{ spec, want string }{
	{"x=f32[0*N,4]", `dim "0*N": the coefficient must be at least 1`},
	{"x=f32[-2*N]", `dim "-2*N": the coefficient must be at least 1`},
	{"x=f32[-2*3]", `dim "-2*3": the coefficient must be at least 1`},
	{"x=f32[2*-3]", `dim "2*-3" is negative`},
	{"x=f32[-1]", `dim "-1" is negative`},
	{"x=f32[N,-4]", `dim "-4" is negative`},
	{"x=f32[4611686018427387904*4]", `dim "4611686018427387904*4" overflows an int`},
	{"x=f32[99999999999999999999]", `is not a size that fits in an int`},
	{"x=f32[99999999999999999999*N]", `is not an integer that fits in an int`},
	{"x=f32[4294967296,4294967296]", `multiply to more than an int holds`},
	{"x=f32[N,3037000500,3037000500]", `multiply to more than an int holds`},
	{"x=f32[2*3*N]", `want n, S or c*S`},
	{"x=f32[*N]", `is not an integer`},
	{"x=f32[N*2]", `is not an integer`},
	{"x=f32[N,]", `neither a size nor a symbol`},
	{"x=f33[N]", `f33`},
	{"x=f32(N)", `want dtype[dims]`},
	{"x=f32[N", `unbalanced [`},
	{"x=f32N]", `unbalanced ]`},
	{"1x=f32[N]", `want name=dtype[dims]`},
	{"=f32[N]", `want name=dtype[dims]`},
	{"x", `want name=dtype[dims]`},
	{"x=f32[N] x=f32[N]", `parameter x given twice`},
}

func TestBadSpecs(t *testing.T) {
	for _, tc := range badSpecs {
		_, err := parseArgs(t, "-type", "M", "-input", tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "-input") {
			t.Errorf("-input %q: %v, want an error beginning -input and containing %q", tc.spec, err, tc.want)
		}
		if _, ok := err.(*usageError); err != nil && !ok {
			t.Errorf("-input %q: %T, want a usage error (exit status 2)", tc.spec, err)
		}
	}
}

func TestGoodSpecs(t *testing.T) {
	for spec, want := range map[string]string{
		"x=f32[0,4]":         "x=f32[0,4]",
		"x=f32[2*N, 3*4]":    "x=f32[2*N,12]",
		"x=i64[]":            "x=i64[]",
		"x=bool[ N , 1 ]":    "x=bool[N,1]",
		"x=f32[1*N,0,65536]": "x=f32[N,0,65536]",
	} {
		in, err := parseInput(strings.ReplaceAll(spec, " ", ""))
		if err != nil || in.Spec != want {
			t.Errorf("parseInput(%q) = %q, %v; want %q", spec, in.Spec, err, want)
		}
	}
}

// badFlags are command lines fxgen must refuse with a usage error naming
// the flag.
var badFlags = []struct {
	args []string
	want string
}{
	{[]string{"-input", "x=f32[N]"}, "-type is required"},
	{[]string{"-type", "1M"}, "-type"},
	{[]string{"-type", "M", "-input", ""}, "-input"},
	{[]string{"-type", "M", "-concrete", "=3"}, "-concrete"},
	{[]string{"-type", "M", "-concrete", "k=1", "-concrete", "k=2"}, "given twice"},
	{[]string{"-type", "M", "-input", "x=f32[N]", "-concrete", "x=1"}, "also given by -input"},
	{[]string{"-type", "M", "-leaf", " "}, "-leaf"},
	{[]string{"-type", "M", "-new", "New("}, "-new"},
	{[]string{"-type", "M", "-dump-after", "nosuch"}, "-dump-after"},
	{[]string{"-type", "M", "-timeout", "0s"}, "-timeout"},
	{[]string{"-type", "M", "-timeout", "-1s"}, "-timeout"},
	{[]string{"-type", "M", "-output", "m_fx.txt"}, "-output"},
	{[]string{"-type", "M", "-output", "m_fx_test.go"}, "-output"},
	{[]string{"-type", "M", "-dot", "g.go"}, "-dot"},
	{[]string{"-type", "M", "a", "b"}, "too many arguments"},
}

func TestBadFlags(t *testing.T) {
	for _, tc := range badFlags {
		_, err := parseArgs(t, tc.args...)
		if _, ok := err.(*usageError); !ok || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("fxgen %q: %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
}

// FuzzParseInput checks that no spec crashes the parser and that an
// accepted spec is canonical: parsing its canonical form gives it back.
func FuzzParseInput(f *testing.F) {
	for _, tc := range badSpecs {
		f.Add(tc.spec)
	}
	for _, s := range []string{"x=f32[N,784]", "x=f32[2*N,3]", "ids=i64[N,128] mask=bool[N]", "x=f32[]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		specs, err := splitInputs(v)
		if err != nil {
			return
		}
		for _, s := range specs {
			in, err := parseInput(s)
			if err != nil {
				continue
			}
			again, err := parseInput(in.Spec)
			if err != nil || again != in {
				t.Fatalf("parseInput(%q) = %q, but its canonical form gives %q, %v", s, in.Spec, again.Spec, err)
			}
		}
	})
}

// FuzzFlags checks that no command line crashes the flag parser or the
// validation. The arguments are the fuzz string split at NUL bytes.
func FuzzFlags(f *testing.F) {
	for _, tc := range badFlags {
		f.Add(strings.Join(tc.args, "\x00"))
	}
	f.Add("-type\x00MLP\x00-input\x00x=f32[N,784]\x00-concrete\x00k=3\x00-leaf\x00fc1\x00-new\x00NewMLP()\x00-passes\x00none\x00-check\x00./m")
	f.Fuzz(func(t *testing.T, line string) {
		if !utf8.ValidString(line) {
			return
		}
		flag.CommandLine.Init("fxgen", flag.ContinueOnError)
		flag.CommandLine.SetOutput(io.Discard)
		resetFlags()
		if err := flag.CommandLine.Parse(strings.Split(line, "\x00")); err != nil {
			return
		}
		o, err := parseOptions(flag.Args())
		if err == nil && o.command() == "" {
			t.Fatalf("accepted %q with an empty command", line)
		}
	})
}
