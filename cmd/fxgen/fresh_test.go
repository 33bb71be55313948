// This file tests fxgen as a new user meets it: in a fresh module of their
// own whose go.mod holds nothing but the tool line.

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFreshModule makes a module outside the repository with no go.sum, a
// replace to this checkout and the tool line, lets go mod tidy write its
// requirements (the module cache is the only source), and runs go
// generate, go build, go run and go test as a user would, with a test of
// the user's own that uses fxgentest and nothing internal. Then it changes
// the model's Forward without regenerating: the generated test must fail
// go test. Last, with Forward restored, go mod tidy again and
// FXGEN_CHECK=1 go generate: the files must still be fresh.
func TestFreshModule(t *testing.T) {
	needFxgen(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	writeFile(t, filepath.Join(mod, "go.mod"), "module example.com/fresh\n\ngo 1.26\n\n"+
		"require github.com/fxgen/fxgen v0.0.0\n\nreplace github.com/fxgen/fxgen => "+root+"\n\n"+
		"tool github.com/fxgen/fxgen/cmd/fxgen\n")
	model := filepath.Join(mod, "net", "net.go")
	writeFile(t, model, readFile(t, filepath.Join("testdata", "fresh", "net", "net.go")))
	writeFile(t, filepath.Join(mod, "net", "user_test.go"), readFile(t, filepath.Join("testdata", "fresh", "net", "user_test.go.txt")))
	writeFile(t, filepath.Join(mod, "main.go"), readFile(t, filepath.Join("testdata", "fresh", "main.go.txt")))
	env := []string{"GOFLAGS=-mod=mod -buildvcs=false", "GOSUMDB=off"}
	run := func(args ...string) result {
		t.Helper()
		return runCmd(t, mod, env, "go", args...)
	}
	step := func(args ...string) result {
		t.Helper()
		r := run(args...)
		wantCode(t, r, 0, "go "+strings.Join(args, " "))
		return r
	}
	step("mod", "tidy")
	step("generate", "./...")
	gen := readFile(t, filepath.Join(mod, "net", "net_fx.go"))
	genTest := readFile(t, filepath.Join(mod, "net", "net_fx_test.go"))
	step("build", "./...")
	if r := step("run", "."); strings.TrimSpace(r.stdout) != "true" {
		t.Errorf("go run: compiled and eager disagree: %q", r.stdout)
	}
	if r := step("test", "-v", "./net"); !strings.Contains(r.stdout, "--- PASS: TestNetCompiledMatchesEager") || !strings.Contains(r.stdout, "--- PASS: TestFixture") {
		t.Errorf("go test ran neither the generated test nor the user's:\n%s", r.stdout)
	}

	// A stale generated file: Forward changed, go generate not run.
	forward := readFile(t, model)
	writeFile(t, model, strings.Replace(forward, "tensor.Relu(", "tensor.Sigmoid(", 1))
	step("build", "./...") // stale code still builds ...
	r := run("test", "./net")
	if r.code == 0 || !strings.Contains(r.stdout, "TestNetCompiledMatchesEager") || !strings.Contains(r.stdout, "compiled differs from eager") || !strings.Contains(r.stdout, "run go generate") {
		t.Errorf("go test of a stale generated file: exit status %d, want a failure of the generated test:\n%s%s", r.code, r.stdout, r.stderr)
	}
	writeFile(t, model, forward)

	step("mod", "tidy")
	before := snapshot(t, mod)
	r = runCmd(t, mod, append(env, "FXGEN_CHECK=1"), "go", "generate", "./...")
	wantCode(t, r, 0, "FXGEN_CHECK=1 go generate ./... after go mod tidy")
	sameFiles(t, before, snapshot(t, mod))
	if readFile(t, filepath.Join(mod, "net", "net_fx.go")) != gen || readFile(t, filepath.Join(mod, "net", "net_fx_test.go")) != genTest {
		t.Errorf("FXGEN_CHECK=1 go generate changed the generated files")
	}
	entries, _ := os.ReadDir(filepath.Join(mod, "net"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), workspacePrefix) {
			t.Errorf("left behind %s", e.Name())
		}
	}
}

// TestDriverNeedsNoThirdPartyModule checks that the packages the driver
// program imports, built inside the user's module, come from fxgen and the
// standard library only.
func TestDriverNeedsNoThirdPartyModule(t *testing.T) {
	needFxgen(t)
	r := runCmd(t, ".", nil, "go", "list", "-deps", driverPath)
	wantCode(t, r, 0, "go list -deps "+driverPath)
	for _, p := range strings.Fields(r.stdout) {
		first, _, _ := strings.Cut(p, "/")
		if strings.Contains(first, ".") && !strings.HasPrefix(p, "github.com/fxgen/fxgen/") {
			t.Errorf("the driver imports %s", p)
		}
	}
}
