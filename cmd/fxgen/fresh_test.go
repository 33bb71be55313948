// This file tests fxgen as a new user meets it: in a fresh module of their
// own whose go.mod holds nothing but the tool line.

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFreshModule makes a module with no go.sum, a replace to this checkout
// and the tool line, lets go mod tidy write its requirements (the module
// cache is the only source), and runs go generate, go build and go run as
// a user would; then go mod tidy again and a second generation, which must
// give the same bytes.
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
	writeFile(t, filepath.Join(mod, "net", "net.go"), readFile(t, filepath.Join("testdata", "fresh", "net", "net.go")))
	writeFile(t, filepath.Join(mod, "main.go"), readFile(t, filepath.Join("testdata", "fresh", "main.go.txt")))
	env := []string{"GOFLAGS=-mod=mod -buildvcs=false", "GOSUMDB=off"}
	step := func(args ...string) result {
		t.Helper()
		r := runCmd(t, mod, env, "go", args...)
		wantCode(t, r, 0, "go "+strings.Join(args, " "))
		return r
	}
	step("mod", "tidy")
	step("generate", "./...")
	gen := readFile(t, filepath.Join(mod, "net", "net_fx.go"))
	step("build", "./...")
	if r := step("run", "."); strings.TrimSpace(r.stdout) != "true" {
		t.Errorf("go run: compiled and eager disagree: %q", r.stdout)
	}
	step("mod", "tidy")
	step("generate", "./...")
	if got := readFile(t, filepath.Join(mod, "net", "net_fx.go")); got != gen {
		t.Errorf("the second generation, after go mod tidy, wrote different bytes")
	}
	if r := step("run", "."); strings.TrimSpace(r.stdout) != "true" {
		t.Errorf("go run after go mod tidy: %q", r.stdout)
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
