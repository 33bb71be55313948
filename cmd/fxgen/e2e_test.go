// This file tests the real fxgen command end to end: the test binary runs
// as the command (TestMain calls main when asFxgen is set), on testdata
// models copied into throwaway modules.

package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fxgen/fxgen/internal/version"
)

// fxgenBin is the fxgen command the end-to-end tests run: this test
// binary, which TestMain turns into fxgen when asFxgen is set in its
// environment, or "" under -short.
var fxgenBin string

// asFxgen, set in the environment, makes the test binary run fxgen's main
// instead of the tests: the end-to-end tests run the command's own code
// without building it again.
const asFxgen = "FXGEN_TEST_AS_FXGEN"

func TestMain(m *testing.M) {
	if os.Getenv(asFxgen) == "1" {
		main()
		return
	}
	flag.Parse()
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	if bin := os.Getenv("FXGEN_TEST_BINARY"); bin != "" {
		// Run the end-to-end tests against another build of fxgen, such
		// as main's, to see which of them it fails.
		fxgenBin = bin
		return m.Run()
	}
	if !testing.Short() {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fxgenBin = exe
	}
	return m.Run()
}

// needFxgen skips end-to-end tests under -short.
func needFxgen(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end: builds and runs fxgen and its driver")
	}
	t.Parallel()
}

// newModule creates a module that uses this repository's fxgen (by a
// replace directive) and holds copies of the named testdata packages. It
// returns the module's directory.
func newModule(t *testing.T, pkgs ...string) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	// The module's own requirements first: every module that provides a
	// package the models import must be listed.
	text := regexp.MustCompile(`(?m)^module .*$`).ReplaceAllString(string(gomod), "module example.com/fxtest")
	text += fmt.Sprintf("\nrequire github.com/fxgen/fxgen v0.0.0\n\nreplace github.com/fxgen/fxgen => %s\n", root)
	writeFile(t, filepath.Join(mod, "go.mod"), text)
	writeFile(t, filepath.Join(mod, "go.sum"), string(gosum))
	for _, p := range pkgs {
		files, err := filepath.Glob(filepath.Join("testdata", p, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("testdata/%s: no Go files (%v)", p, err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(mod, p, filepath.Base(f)), string(data))
		}
	}
	return mod
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// testEnv is the environment of commands the tests run: offline, outside
// any workspace.
func testEnv(extra ...string) []string {
	return append(os.Environ(), append([]string{"GOPROXY=off", "GOWORK=off", "GOFILE=", "GOLINE=", "GOPACKAGE=", "FXGEN_CHECK=", asFxgen + "=1"}, extra...)...)
}

// result is a finished command.
type result struct {
	stdout, stderr string
	code           int
}

// runCmd runs name with args in dir and returns what it printed and its
// exit status.
func runCmd(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = testEnv(env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return result{stdout.String(), stderr.String(), code}
}

// fxgen runs the fxgen command in dir.
func fxgen(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return runCmd(t, dir, nil, fxgenBin, args...)
}

// wantCode fails the test if r did not exit with code.
func wantCode(t *testing.T, r result, code int, what string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("%s: exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", what, r.code, code, r.stdout, r.stderr)
	}
}

// snapshot returns every file under dir with its content, and fails the
// test if a driver directory is left behind.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), workspacePrefix) {
			t.Errorf("driver directory %s left behind", path)
			return filepath.SkipDir
		}
		if !d.IsDir() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files[path] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// noLeftovers fails the test if dir (a TMPDIR given to fxgen) holds
// anything.
func noLeftovers(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("%s left behind in fxgen's TMPDIR", e.Name())
	}
}

// sameFiles fails the test if the two snapshots differ.
func sameFiles(t *testing.T, before, after map[string]string) {
	t.Helper()
	for path, data := range after {
		if old, ok := before[path]; !ok {
			t.Errorf("file %s was created", path)
		} else if old != data {
			t.Errorf("file %s was changed", path)
		}
	}
	for path := range before {
		if _, ok := after[path]; !ok {
			t.Errorf("file %s was removed", path)
		}
	}
}

// lineOf returns the 1-based line of the first line of file containing s.
func lineOf(t *testing.T, file, s string) int {
	t.Helper()
	for i, line := range strings.Split(readFile(t, file), "\n") {
		if strings.Contains(line, s) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line containing %q", file, s)
	return 0
}

func TestEndToEndTiny(t *testing.T) {
	needFxgen(t)
	mod := newModule(t, "tiny")
	pkg := filepath.Join(mod, "tiny")
	out := filepath.Join(pkg, "tiny_fx.go")
	args := []string{"-type", "Tiny", "-input", "x=f32[N,4]", "-concrete", "double=true"}

	// Generate through go generate, as users do.
	r := runCmd(t, mod, []string{"FXGEN=" + fxgenBin}, "go", "generate", "./tiny")
	wantCode(t, r, 0, "go generate")
	gen := readFile(t, out)
	if !strings.HasPrefix(gen, header+"\n") || !strings.Contains(gen, `-concrete double=true`) {
		t.Fatalf("tiny_fx.go lacks the header or the command:\n%s", gen)
	}
	// Beside it, the test of the compiled model against the model, which
	// binds the concrete value in closures; go vet compiles it.
	genTest := readFile(t, filepath.Join(pkg, "tiny_fx_test.go"))
	if !strings.HasPrefix(genTest, header+"\n") || !strings.Contains(genTest, "func TestTinyCompiledMatchesEager(t *testing.T) {") || !strings.Contains(genTest, "return c.Forward(x, bool(true))") {
		t.Fatalf("tiny_fx_test.go is not the generated test:\n%s", genTest)
	}
	wantCode(t, runCmd(t, mod, nil, "go", "vet", "./tiny"), 0, "go vet ./tiny")

	// The graph file is written beside it, and -check (from the module
	// root) covers it: a stale graph file alone is stale.
	graphPath := filepath.Join(pkg, "tiny_fx.graph")
	graph := readFile(t, graphPath)
	if !strings.HasPrefix(graph, header+"\n") || !strings.Contains(graph, "placeholder") || !strings.Contains(graph, "\nflops ") {
		t.Fatalf("tiny_fx.graph lacks the header, the nodes or the totals:\n%s", graph)
	}
	writeFile(t, graphPath, strings.Replace(graph, "placeholder", "placeholder ", 1))
	r = fxgen(t, mod, append(args, "-check", "./tiny")...)
	wantCode(t, r, 3, "fxgen -check (stale graph file)")
	if !strings.Contains(r.stderr, "--- a/tiny/tiny_fx.graph\n+++ b/tiny/tiny_fx.graph\n") || strings.Contains(r.stderr, "tiny_fx.go\n") {
		t.Errorf("fxgen -check with a stale graph file: want it, and only it, reported stale:\n%s", r.stderr)
	}
	writeFile(t, graphPath, graph)

	// -print prints the traced graph as a table; -dump-after prints the
	// optimized graph on stderr; everything is fresh again, the same
	// bytes. -passes none writes other code, recorded in the header; the
	// check against the default pipeline's file fails.
	r = fxgen(t, pkg, append(args, "-print", "-dump-after", "lower-modules", "-check")...)
	wantCode(t, r, 0, "fxgen -print -dump-after lower-modules -check (fresh)")
	if !strings.Contains(r.stderr, "# graph after lower-modules") || !strings.Contains(r.stdout, "placeholder") || !strings.Contains(r.stdout, "call_module") {
		t.Errorf("fxgen -print -dump-after: stderr lacks the graph or stdout the traced table:\n%s\n%s", r.stderr, r.stdout)
	}
	wantCode(t, fxgen(t, pkg, append(args, "-passes", "none", "-check")...), 3, "fxgen -passes none -check")
	wantCode(t, fxgen(t, pkg, append(args, "-passes", "nope")...), 2, "fxgen -passes nope")

	// A model change makes the file stale; -check (or FXGEN_CHECK=1 under
	// go generate) says so with a unified diff and exit status 3, and
	// writes nothing; nor does -print.
	src := filepath.Join(pkg, "tiny.go")
	writeFile(t, src, strings.Replace(readFile(t, src), "MulScalar(2)", "MulScalar(3)", 1))
	before := snapshot(t, mod)
	r = runCmd(t, mod, []string{"FXGEN=" + fxgenBin, "FXGEN_CHECK=1"}, "go", "generate", "./tiny")
	stale := regexp.MustCompile(`(?s)^--- a/tiny_fx\.graph\n\+\+\+ b/tiny_fx\.graph\n@@ -\d+,\d+ \+\d+,\d+ @@\n.*\n-mul call_method mul\(fc, 2\.0\).*\n\+mul call_method mul\(fc, 3\.0\).*` +
		`\n--- a/tiny_fx\.go\n\+\+\+ b/tiny_fx\.go\n@@ -\d+,\d+ \+\d+,\d+ @@\n.*\n-.*2\.0.*\n\+.*3\.0.*\nfxgen: stale; run go generate to update\n`)
	if r.code == 0 || !stale.MatchString(r.stderr) || strings.Contains(r.stderr, "tiny_fx_test.go") {
		t.Errorf("FXGEN_CHECK=1 go generate (stale): exit status %d, want a failure with the diffs of tiny_fx.graph and tiny_fx.go alone, matching %s:\n%s", r.code, stale, r.stderr)
	}
	r = fxgen(t, pkg, append(args, "-print")...)
	wantCode(t, r, 0, "fxgen -print (stale)")
	if !strings.Contains(r.stdout, "3.0") {
		t.Errorf("fxgen -print printed no graph of the changed model:\n%s", r.stdout)
	}
	sameFiles(t, before, snapshot(t, mod))

	// A broken generated file does not stop regeneration.
	writeFile(t, out, gen+"\nfunc broken() { undefinedName() }\n")
	wantCode(t, runCmd(t, mod, nil, "go", "build", "./tiny"), 1, "go build with a broken generated file")
	wantCode(t, fxgen(t, pkg, args...), 0, "fxgen over a broken generated file")
	if got := readFile(t, out); got == gen || strings.Contains(got, "broken") {
		t.Errorf("tiny_fx.go was not regenerated for the changed model")
	}
	wantCode(t, runCmd(t, mod, nil, "go", "vet", "./tiny"), 0, "go vet ./tiny after regeneration")
	snapshot(t, mod)
}

// TestEndToEndUserPass runs a user's pass, from a package of the user's
// module, inside fxgen (-pass): it runs in the driver on the traced graph,
// before the built-in passes, and the header records it.
func TestEndToEndUserPass(t *testing.T) {
	needFxgen(t)
	mod := newModule(t, "tiny", "userpass")
	pkg := filepath.Join(mod, "tiny")
	r := fxgen(t, pkg, "-type", "Tiny", "-input", "x=f32[N,4]", "-concrete", "double=true", "-pass", "example.com/fxtest/userpass.Triple")
	wantCode(t, r, 0, "fxgen -pass")
	gen := readFile(t, filepath.Join(pkg, "tiny_fx.go"))
	if !strings.Contains(gen, "-pass example.com/fxtest/userpass.Triple") {
		t.Errorf("the header does not record -pass:\n%s", gen)
	}
	// The pass made the scale by 2 a scale by 3; the built-in passes then
	// fused the ReLU into the linear layer.
	if !strings.Contains(gen, "c.f32_3 = runtime.Float32Scalar(") || strings.Contains(gen, "f32_2") || !strings.Contains(gen, "runtime.ActReLU") {
		t.Errorf("the generated code does not scale by 3, or the built-in passes did not run after the user's:\n%s", gen)
	}
	if graph := readFile(t, filepath.Join(pkg, "tiny_fx.graph")); !strings.Contains(graph, "mul(fc, 3.0)") {
		t.Errorf("the graph file lacks the multiplication by 3:\n%s", graph)
	}
}

func TestEndToEndDynamicControlFlow(t *testing.T) {
	needFxgen(t)
	mod := newModule(t, "dynamic")
	pkg := filepath.Join(mod, "dynamic")
	line := lineOf(t, filepath.Join(pkg, "dynamic.go"), "want trace error")
	before := snapshot(t, mod)
	for _, tc := range []struct{ dir, file string }{
		{pkg, "dynamic.go"},                           // as under go generate
		{mod, filepath.Join("dynamic", "dynamic.go")}, // by hand, from the module root
	} {
		args := []string{"-type", "Dynamic", "-input", "x=f32[N,4]"}
		if tc.dir == mod {
			args = append(args, "./dynamic")
		}
		r := fxgen(t, tc.dir, args...)
		wantCode(t, r, 1, "fxgen on dynamic control flow")
		want := fmt.Sprintf("%s:%d: tracer: ", tc.file, line)
		if !strings.HasPrefix(r.stderr, want) {
			t.Errorf("stderr = %q, want it to begin with %q", r.stderr, want)
		}
	}
	sameFiles(t, before, snapshot(t, mod))
}

func TestEndToEndBadSignature(t *testing.T) {
	needFxgen(t)
	mod := newModule(t, "badsig")
	pkg := filepath.Join(mod, "badsig")
	line := lineOf(t, filepath.Join(pkg, "badsig.go"), "want signature error")
	before := snapshot(t, mod)
	r := fxgen(t, pkg, "-type", "BadSig", "-input", "x=f32[N,4]")
	wantCode(t, r, 1, "fxgen on a bad Forward")
	want := regexp.MustCompile(fmt.Sprintf(`^badsig\.go:%d:\d+: fxgen: Forward result 1 has type float64; want \*tensor\.Tensor\n$`, line))
	if !want.MatchString(r.stderr) {
		t.Errorf("stderr = %q, want a match for %s", r.stderr, want)
	}
	sameFiles(t, before, snapshot(t, mod))
}

func TestEndToEndDirectiveErrors(t *testing.T) {
	needFxgen(t)
	mod := newModule(t, "tiny")
	pkg := filepath.Join(mod, "tiny")
	forward := lineOf(t, filepath.Join(pkg, "tiny.go"), "func (m *Tiny) Forward")
	before := snapshot(t, mod)
	for _, tc := range []struct {
		env  []string
		args []string
		want string // regexp
	}{
		{[]string{"GOFILE=tiny.go", "GOLINE=9"}, []string{"-type", "Nope", "-input", "x=f32[N,4]"},
			`^tiny\.go:9: fxgen: -type Nope: no type Nope in package example\.com/fxtest/tiny`},
		{nil, []string{"-type", "Nope", "-input", "x=f32[N,4]"},
			`^fxgen: -type Nope: no type Nope in package example\.com/fxtest/tiny`},
		{nil, []string{"-type", "Tiny", "-input", "x=f32[N,4]"},
			fmt.Sprintf(`^tiny\.go:%d:\d+: fxgen: Forward parameter double has type bool: bind it with -concrete double=VALUE`, forward)},
		{nil, []string{"-type", "Tiny", "-input", "x=f32[N,4]", "-concrete", "double=maybe"},
			fmt.Sprintf(`^tiny\.go:%d:\d+: fxgen: -concrete double=maybe: not a bool`, forward)},
		{nil, []string{"-type", "Tiny", "-input", "y=f32[N,4]", "-concrete", "double=1"},
			`^tiny\.go:\d+:\d+: fxgen: -input y: Forward has no parameter y \(it has x, double\)`},
		{nil, []string{"-type", "Tiny", "-input", "x=f32[N,4]", "-concrete", "double=1", "-new", "NewTiny(3)"},
			`^tiny\.go:\d+:\d+: fxgen: -new "NewTiny\(3\)": too many arguments`},
		{nil, []string{"-type", "Tiny", "-input", "x=f32[N,4]", "-concrete", "double=1", "-leaf", "nosuch"},
			`tracer: leaf "nosuch" names no module of the model; its module paths are fc and its module types Linear, Tiny`},
	} {
		r := runCmd(t, pkg, tc.env, fxgenBin, tc.args...)
		wantCode(t, r, 1, fmt.Sprint(tc.args))
		if !regexp.MustCompile(tc.want).MatchString(r.stderr) {
			t.Errorf("fxgen %q: stderr = %q, want a match for %s", tc.args, r.stderr, tc.want)
		}
	}

	// A hand-written file in the output's place is never replaced.
	hand := filepath.Join(pkg, "hand.go")
	writeFile(t, hand, "package tiny\n")
	r := fxgen(t, pkg, "-type", "Tiny", "-input", "x=f32[N,4]", "-concrete", "double=1", "-output", "hand.go")
	wantCode(t, r, 1, "fxgen -output hand.go")
	if !strings.Contains(r.stderr, "hand.go exists and was not generated by fxgen") {
		t.Errorf("stderr = %q, want a refusal naming hand.go", r.stderr)
	}
	os.Remove(hand)
	sameFiles(t, before, snapshot(t, mod))
}

func TestEndToEndUsage(t *testing.T) {
	needFxgen(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"-bogus"}, "-bogus"},
		{[]string{"-input", "x=f32[N]"}, "-type"},
		{[]string{"-type", "M", "-input", "x"}, "-input"},
		{[]string{"-type", "M", "-input", "x=f32[N] y=q8[N]"}, "-input"},
		{[]string{"-type", "M", "-concrete", "train"}, "-concrete"},
		{[]string{"-type", "M", "-new", "New("}, "-new"},
		{[]string{"-type", "M", "-print=maybe"}, "-print"},
		{[]string{"-type", "M", "-input", "x=f32[N]", "-test=maybe"}, "-test"},
	} {
		r := fxgen(t, dir, tc.args...)
		wantCode(t, r, 2, fmt.Sprint(tc.args))
		if !strings.Contains(r.stderr, tc.flag) {
			t.Errorf("fxgen %q: stderr %q does not name %s", tc.args, r.stderr, tc.flag)
		}
	}
}

func TestEndToEndVersion(t *testing.T) {
	needFxgen(t)
	r := fxgen(t, t.TempDir(), "-version")
	wantCode(t, r, 0, "fxgen -version")
	if want := "fxgen " + version.Fallback + "\n"; r.stdout != want {
		t.Errorf("fxgen -version printed %q, want %q", r.stdout, want)
	}
}

func TestEndToEndUserOverlay(t *testing.T) {
	needFxgen(t)
	mod := newModule(t, "tiny")
	pkg := filepath.Join(mod, "tiny")
	// The user's overlay (in GOFLAGS) replaces the model's source; fxgen
	// must load and build the model through it.
	alt := filepath.Join(t.TempDir(), "tiny.go")
	writeFile(t, alt, strings.Replace(readFile(t, filepath.Join(pkg, "tiny.go")), "MulScalar(2)", "MulScalar(7)", 1))
	ov := filepath.Join(t.TempDir(), "overlay.json")
	writeFile(t, ov, fmt.Sprintf(`{"Replace": {%q: %q}}`, filepath.Join(pkg, "tiny.go"), alt))
	r := runCmd(t, pkg, []string{"GOFLAGS=-overlay=" + ov}, fxgenBin, "-type", "Tiny", "-input", "x=f32[N,4]", "-concrete", "double=true", "-print")
	wantCode(t, r, 0, "fxgen with a GOFLAGS overlay")
	if !strings.Contains(r.stdout, "7.0") {
		t.Errorf("the graph does not reflect the overlaid model:\n%s", r.stdout)
	}
	snapshot(t, mod)
}

// waitUntil polls cond every 50 ms for up to two minutes, and fails the
// test, with the command's stderr, if it never holds.
func waitUntil(t *testing.T, what string, stderr fmt.Stringer, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited two minutes and still not: %s; stderr:\n%s", what, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestEndToEndInterrupt(t *testing.T) {
	needFxgen(t)
	if runtime.GOOS == "windows" {
		t.Skip("sends SIGINT")
	}
	mod := newModule(t, "slow")
	pkg := filepath.Join(mod, "slow")
	before := snapshot(t, mod)
	cmd := exec.Command(fxgenBin, "-type", "Slow", "-input", "x=f32[N,4]")
	cmd.Dir = pkg
	tmp := t.TempDir()
	cmd.Env = testEnv("TMPDIR=" + tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// Wait until the driver is built (and so is running NewSlow).
	waitUntil(t, "the driver was built", &stderr, func() bool {
		exes, _ := filepath.Glob(filepath.Join(tmp, workspacePrefix+"*", "driver.exe"))
		return len(exes) > 0
	})
	time.Sleep(200 * time.Millisecond)
	// Two interrupts, as an impatient user sends: cleanup must still run.
	cmd.Process.Signal(os.Interrupt)
	time.Sleep(20 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Errorf("interrupted fxgen: %v, want exit status 1", err)
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr = %q, want it to say interrupted", stderr.String())
	}
	sameFiles(t, before, snapshot(t, mod))
	noLeftovers(t, tmp)
}
