// This file tests fxgen's parts in process: flags, naming, -new rewriting,
// header detection and writes.

package main

import (
	"context"
	"errors"
	"flag"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fxgen/fxgen/internal/version"
)

// parseArgs resets the flags, parses args as fxgen would and validates
// them.
func parseArgs(t *testing.T, args ...string) (*options, error) {
	t.Helper()
	resetFlags()
	if err := flag.CommandLine.Parse(args); err != nil {
		t.Fatalf("flag parse %q: %v", args, err)
	}
	return parseOptions(flag.Args())
}

func TestParseOptions(t *testing.T) {
	o, err := parseArgs(t,
		"-type", "MLP",
		"-input", "x=f32[N, 784]  mask=bool[N]",
		"-input", "ids=i64[N,128]",
		"-concrete", "train=false",
		"-leaf", "layer1.0", "-leaf", "Block",
		"-new", "NewMLP(784, 10)",
		"-pass", "example.com/m/mypasses.Fold", "-pass", "example.com/m/v2.Clean",
		"-print", "-check",
		"./models/mlp")
	if err != nil {
		t.Fatal(err)
	}
	want := &options{
		Type:       "MLP",
		Inputs:     []inputSpec{{"x", "x=f32[N,784]"}, {"mask", "mask=bool[N]"}, {"ids", "ids=i64[N,128]"}},
		Concrete:   []concreteArg{{"train", "false"}},
		Leaves:     []string{"layer1.0", "Block"},
		New:        "NewMLP(784, 10)",
		UserPasses: []userPass{{"example.com/m/mypasses", "Fold"}, {"example.com/m/v2", "Clean"}},
		Print:      true,
		Check:      true,
		Test:       true,
		Pattern:    "./models/mlp",
		Timeout:    defaultTimeout,
	}
	if diff := cmp.Diff(want, o); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
	wantCmd := `-type MLP -input "x=f32[N,784]" -input "mask=bool[N]" -input "ids=i64[N,128]" -concrete train=false -leaf layer1.0 -leaf Block -new "NewMLP(784, 10)" -pass example.com/m/mypasses.Fold -pass example.com/m/v2.Clean`
	if got := o.command(); got != wantCmd {
		t.Errorf("command() = %s, want %s", got, wantCmd)
	}
}

func TestParseOptionsDefaults(t *testing.T) {
	o, err := parseArgs(t, "-type", "MLP", "-input", "x=f32[N,784]")
	if err != nil {
		t.Fatal(err)
	}
	if o.Pattern != "." || o.New != "" || o.Output != "" || o.Check || o.Print || !o.Test {
		t.Errorf("defaults: got %+v", o)
	}
	if o, err := parseArgs(t, "-type", "MLP", "-input", "x=f32[N,784]", "-test=false"); err != nil || o.Test {
		t.Errorf("-test=false: got %+v, %v", o, err)
	}
}

func TestCheckFromEnvironment(t *testing.T) {
	for _, tc := range []struct {
		env   string
		check bool
		err   bool
	}{{"", false, false}, {"1", true, false}, {"0", false, false}, {"true", true, false}, {"yes", false, true}} {
		t.Setenv("FXGEN_CHECK", tc.env)
		o, err := parseArgs(t, "-type", "MLP", "-input", "x=f32[N,784]")
		var ue *usageError
		if tc.err {
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), "FXGEN_CHECK=yes") {
				t.Errorf("FXGEN_CHECK=%s: got %v, want a usage error naming it", tc.env, err)
			}
			continue
		}
		if err != nil || o.Check != tc.check {
			t.Errorf("FXGEN_CHECK=%s: Check %v (%v), want %v", tc.env, o != nil && o.Check, err, tc.check)
		}
	}
}

func TestParseOptionsPasses(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		passes, cmd string
	}{
		{nil, "", ""},
		{[]string{"-passes", "default"}, "", ""},
		{[]string{"-passes", "none"}, "none", " -passes none"},
		{[]string{"-passes", " lower-modules, dce "}, "lower-modules,dce", " -passes lower-modules,dce"},
		{[]string{"-dump-after", "fold-batchnorm"}, "", ""},
	} {
		o, err := parseArgs(t, append([]string{"-type", "M", "-input", "x=f32[N]"}, tc.args...)...)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if o.Passes != tc.passes {
			t.Errorf("%q: Passes = %q, want %q", tc.args, o.Passes, tc.passes)
		}
		if want := `-type M -input "x=f32[N]"` + tc.cmd; o.command() != want {
			t.Errorf("%q: command() = %s, want %s", tc.args, o.command(), want)
		}
	}
}

func TestParseOptionsErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		flag string // the flag the message must name
	}{
		{[]string{"-input", "x=f32[N]"}, "-type"},
		{[]string{"-type", "a.B", "-input", "x=f32[N]"}, "-type"},
		{[]string{"-type", "M", "-input", "x=f32"}, "-input"},
		{[]string{"-type", "M", "-input", "x=f99[N]"}, "-input"},
		{[]string{"-type", "M", "-input", "f32[N]"}, "-input"},
		{[]string{"-type", "M", "-input", "x=f32[N"}, "-input"},
		{[]string{"-type", "M", "-input", "x=f32[N] x=f32[N]"}, "-input"},
		{[]string{"-type", "M", "-input", "  "}, "-input"},
		{[]string{"-type", "M", "-concrete", "train"}, "-concrete"},
		{[]string{"-type", "M", "-concrete", "a b=1"}, "-concrete"},
		{[]string{"-type", "M", "-input", "x=f32[N]", "-concrete", "x=1"}, "-concrete"},
		{[]string{"-type", "M", "-concrete", "a=1", "-concrete", "a=2"}, "-concrete"},
		{[]string{"-type", "M", "-leaf", ""}, "-leaf"},
		{[]string{"-type", "M", "-pass", "Fold"}, "-pass"},
		{[]string{"-type", "M", "-pass", "example.com/m/mypasses"}, "-pass"},
		{[]string{"-type", "M", "-pass", "example.com/m/mypasses.fold"}, "-pass"},
		{[]string{"-type", "M", "-pass", "example.com/m/.Fold"}, "-pass"},
		{[]string{"-type", "M", "-new", "NewM("}, "-new"},
		{[]string{"-type", "M", "a", "b"}, "arguments"},
		{[]string{"-type", "M", "-passes", "dce,nope"}, "-passes"},
		{[]string{"-type", "M", "-passes", "fold-batchnorm,lower-modules"}, "-passes"},
		{[]string{"-type", "M", "-passes", "dce", "-dump-after", "fold-batchnorm"}, "-dump-after"},
		{[]string{"-type", "M", "-passes", "none", "-dump-after", "dce"}, "-dump-after"},
	} {
		_, err := parseArgs(t, tc.args...)
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: got error %v, want a usage error", tc.args, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.flag) {
			t.Errorf("%q: error %q does not name %s", tc.args, err, tc.flag)
		}
	}
}

func TestSplitInputs(t *testing.T) {
	for in, want := range map[string][]string{
		"x=f32[N,784]":                   {"x=f32[N,784]"},
		" x=f32[N, 784]\ty=i64[N] ":      {"x=f32[N, 784]", "y=i64[N]"},
		"a=f32[] b=bool[2*N, 3] c=f32[]": {"a=f32[]", "b=bool[2*N, 3]", "c=f32[]"},
		"":                               nil,
	} {
		got, err := splitInputs(in)
		if err != nil {
			t.Errorf("splitInputs(%q): %v", in, err)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("splitInputs(%q) (-want +got):\n%s", in, diff)
		}
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"MLP":         "mlp",
		"ResNet18":    "res_net18",
		"FXDoc":       "fx_doc",
		"HTTPServer":  "http_server",
		"myModel":     "my_model",
		"Conv2DNet":   "conv2d_net",
		"TinyViT":     "tiny_vit",
		"ViT":         "vit",
		"UNetMini":    "unet_mini",
		"MobileNetV2": "mobile_net_v2",
		"AConv":       "aconv",
		"XYModel":     "xy_model",
		"NetAB":       "net_ab",
		"ABC":         "abc",
		"X":           "x",
		"Model":       "model",
		"a_b":         "a_b",
		"A_B":         "a_b",
		"GPT2":        "gpt2",
		"DLRM":        "dlrm",
		"LSTMCell":    "lstm_cell",
	} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := defaultOutput("ResNet18"), "res_net18_fx.go"; got != want {
		t.Errorf("defaultOutput(ResNet18) = %q, want %q", got, want)
	}
}

func TestHeaderNamesVersion(t *testing.T) {
	if want := "// Code generated by fxgen " + version.Fallback + ". DO NOT EDIT."; header != want {
		t.Errorf("header = %q, want %q (a test binary carries no released version)", header, want)
	}
}

func TestIsGenerated(t *testing.T) {
	for src, want := range map[string]bool{
		header + "\n\npackage p\n":    true,
		header + "\r\npackage p\n":    true,
		header + " \n":                true,
		header:                        true,
		"package p\n" + header + "\n": false,
		"// Code generated by stringer. DO NOT EDIT.\n":   false,
		"\n" + header + "\n":                              false,
		"// Code generated by fxgen. DO NOT EDIT":         false,
		"// Code generated by fxgen. DO NOT EDIT.\n":      true, // before versions
		"// Code generated by fxgen v1.2.3. DO NOT EDIT.": true,
		"// Code generated by fxgen v1.2.3 DO NOT EDIT.":  false,
		"// Code generated by fxgen  v1. DO NOT EDIT.":    false,
		"": false,
	} {
		if got := isGenerated([]byte(src)); got != want {
			t.Errorf("isGenerated(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestWriteGenerated(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m_fx.go")
	gen1 := []byte(header + "\n\npackage m\n")
	gen2 := []byte(header + "\n\npackage m\n\nvar X = 1\n")

	// A new file, then a replacement of a generated one.
	for _, data := range [][]byte{gen1, gen2} {
		if err := writeGenerated(path, data); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != string(data) {
			t.Fatalf("file holds %q, want %q", got, data)
		}
	}
	// A hand-written file is refused and left alone.
	hand := []byte("// Hand-written.\n\npackage m\n")
	if err := os.WriteFile(path, hand, 0o600); err != nil {
		t.Fatal(err)
	}
	err := writeGenerated(path, gen1)
	if err == nil || !strings.Contains(err.Error(), "m_fx.go") || !strings.Contains(err.Error(), "refusing") {
		t.Errorf("overwriting a hand-written file: got error %v, want a refusal naming m_fx.go", err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(hand) {
		t.Errorf("hand-written file changed to %q", got)
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only m_fx.go", names)
	}
}

func TestWriteAtomicKeepsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x_fx.go")
	if err := os.WriteFile(path, []byte(header+"\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(path, []byte(header+"\n\npackage x\n")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o640 {
		t.Errorf("mode after write = %v, want 0640", got)
	}
}

func TestStaleDiff(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x_fx.go")
	want := []byte(header + "\n\npackage x\n\nvar A = 1\n")
	if d, err := staleDiff(path, want); err != nil || !strings.Contains(d, "does not exist") {
		t.Errorf("missing file: got %q, %v", d, err)
	}
	os.WriteFile(path, want, 0o644)
	if d, err := staleDiff(path, want); err != nil || d != "" {
		t.Errorf("fresh file: got %q, %v; want no diff", d, err)
	}
	os.WriteFile(path, []byte(header+"\n\npackage x\n\nvar A = 2\n"), 0o644)
	d, err := staleDiff(path, want)
	if err != nil || !strings.HasPrefix(d, "--- "+path+"\n+++ "+path+"\n@@ -2,4 +2,4 @@\n") || !strings.Contains(d, "\n-var A = 2\n+var A = 1\n") {
		t.Errorf("stale file: got %q, %v; want a diff", d, err)
	}
}

func TestBlankFile(t *testing.T) {
	src := []byte(header + "\n// fxgen -type M\n\n//go:build linux\n\npackage m\n\nfunc broken( {\n")
	got, err := blankFile("m_fx.go", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"//go:build linux\n", "package m\n"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("blank file %q lacks %q", got, want)
		}
	}
	if strings.Contains(string(got), "broken") {
		t.Errorf("blank file %q keeps the body", got)
	}
}

// testdataModel loads testdata/tiny once for the tests that need types.
var testdataModel = sync.OnceValues(func() (*model, error) {
	dir, err := filepath.Abs("testdata/tiny")
	if err != nil {
		return nil, err
	}
	ov := &overlay{Replace: map[string]string{}}
	pkg, err := loadPackage(context.Background(), dir, ov, nil)
	if err != nil {
		return nil, err
	}
	o := &options{Type: "Tiny", Inputs: []inputSpec{{"x", "x=f32[N,4]"}}, Concrete: []concreteArg{{"double", "true"}}}
	return checkModel(pkg, dir, o, directivePos())
})

func loadTiny(t *testing.T) *model {
	t.Helper()
	if testing.Short() {
		t.Skip("loads a package with go/packages")
	}
	m, err := testdataModel()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRewriteNew(t *testing.T) {
	m := loadTiny(t)
	if m.Ctor != "fxgenmodel.NewTiny()" || !m.Pointer {
		t.Errorf("default constructor = %q (pointer %v), want fxgenmodel.NewTiny() (pointer true)", m.Ctor, m.Pointer)
	}
	for _, tc := range []struct {
		expr, want string
		pointer    bool
		imports    []string
	}{
		{"NewTiny()", "fxgenmodel.NewTiny()", true, nil},
		{"*NewTiny()", "*fxgenmodel.NewTiny()", false, nil},
		{"&Tiny{FC: nn.NewLinear(4, 3)}", "&fxgenmodel.Tiny{FC: nn.NewLinear(4, 3)}", true, []string{"nn"}},
		{"Tiny{FC: NewTiny().FC}", "fxgenmodel.Tiny{FC: fxgenmodel.NewTiny().FC}", false, nil},
		{"func() *Tiny { t := NewTiny(); return t }()", "func() *fxgenmodel.Tiny { t := fxgenmodel.NewTiny(); return t }()", true, nil},
	} {
		mm := *m
		mm.Imports = map[string]string{}
		got, err := mm.rewriteExpr(tc.expr, true)
		if err != nil {
			t.Errorf("rewriteExpr(%q): %v", tc.expr, err)
			continue
		}
		if got != tc.want || mm.Pointer != tc.pointer {
			t.Errorf("rewriteExpr(%q) = %q (pointer %v), want %q (pointer %v)", tc.expr, got, mm.Pointer, tc.want, tc.pointer)
		}
		for _, name := range tc.imports {
			if mm.Imports[name] == "" {
				t.Errorf("rewriteExpr(%q) did not import %s", tc.expr, name)
			}
		}
	}
	for _, tc := range []struct{ expr, want string }{
		{"NewLinear(4, 3)", "undefined"},
		{"nn.NewLinear(4, 3)", "want Tiny or *Tiny"},
		{"1", "want Tiny or *Tiny"},
		{"Tiny", "not an expression"},
		{"NewTiny", "has type func() *Tiny"},
	} {
		mm := *m
		mm.Imports = map[string]string{}
		_, err := mm.rewriteExpr(tc.expr, true)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "tiny.go:") {
			t.Errorf("rewriteExpr(%q): got error %v, want a positioned error containing %q", tc.expr, err, tc.want)
		}
	}
}

func TestConcreteExpr(t *testing.T) {
	m := loadTiny(t)
	mode := types.NewNamed(types.NewTypeName(token.NoPos, m.Pkg.Types, "Mode", nil), types.Typ[types.Uint8], nil)
	hidden := types.NewNamed(types.NewTypeName(token.NoPos, m.Pkg.Types, "hidden", nil), types.Typ[types.Float32], nil)
	for _, tc := range []struct {
		t           types.Type
		value, want string
	}{
		{types.Typ[types.Bool], "false", "bool(false)"},
		{types.Typ[types.Int], "-12", "int(-12)"},
		{types.Typ[types.Int8], "0x7f", "int8(127)"},
		{types.Typ[types.Uint16], "65535", "uint16(65535)"},
		{types.Typ[types.Float64], "1e-3", "float64(0.001)"},
		{types.Typ[types.Float32], "0.1", "float32(0.1)"},
		{types.Typ[types.String], `a "b"`, `string("a \"b\"")`},
		{mode, "3", "fxgenmodel.Mode(3)"},
		{hidden, "2.5", "float32(2.5)"},
		{types.Typ[types.Int8], "128", "value out of range"},
		{types.Typ[types.Bool], "yes", "want true or false"},
		{types.Typ[types.Uint], "-1", "invalid syntax"},
		{types.NewSlice(types.Typ[types.Int]), "1", "only bool, integer, float and string"},
	} {
		got, err := m.concreteExpr(tc.t, tc.value)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("concreteExpr(%s, %q) = %q, want %q", tc.t, tc.value, got, tc.want)
		}
	}
	if diff := cmp.Diff([]driverArg{{"double", "bool(true)"}}, m.Concrete); diff != "" {
		t.Errorf("concrete args (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"x=f32[N,4]"}, m.Inputs); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
}

func TestDriverLdflags(t *testing.T) {
	for goflags, want := range map[string]string{
		"":                                   "-w",
		"-mod=mod":                           "-w",
		"-mod=mod -ldflags=-X=main.v=1":      "-X=main.v=1 -w",
		"--ldflags=-linkmode=external -race": "-linkmode=external -w",
	} {
		t.Setenv("GOFLAGS", goflags)
		if got := driverLdflags(); got != want {
			t.Errorf("GOFLAGS=%q: driver -ldflags %q, want %q", goflags, got, want)
		}
	}
}

func TestUserPassHint(t *testing.T) {
	build := errors.New("building the driver: undefined: fxgenpass0.Nope")
	o := &options{UserPasses: []userPass{{"example.com/m/p", "Nope"}, {"example.com/m/q", "Fold"}}}
	got := userPassHint(build, o).Error()
	if !strings.HasPrefix(got, build.Error()) || !strings.Contains(got, "-pass example.com/m/p.Nope, -pass example.com/m/q.Fold: each must name an exported variable of type *passes.Pass") {
		t.Errorf("userPassHint: got %q", got)
	}
	if got := userPassHint(build, &options{}); got != build {
		t.Errorf("without -pass: got %v, want the build error as is", got)
	}
}
