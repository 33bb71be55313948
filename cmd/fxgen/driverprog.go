// This file defines the driver program: its source, its build in the
// model's module, and its run.

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// driverPath is the import path of the package the driver calls.
const driverPath = "github.com/fxgen/fxgen/driver"

// passesPath is the import path of the package of Pass, the type of a
// user's pass.
const passesPath = "github.com/fxgen/fxgen/passes"

// workspacePrefix begins the name of the hidden directory that holds the
// driver while fxgen runs (in the temporary directory), and of its
// virtual twin in the package directory; go's ./... patterns skip dot
// directories.
const workspacePrefix = ".fxgen-driver-"

// driverFiles are the paths of the driver run's inputs and outputs, all
// inside the workspace.
type driverFiles struct {
	// VirtualMain is where the build sees the driver's source: a path in
	// the package directory that exists only in the build overlay, so
	// that the driver builds in the model's module while nothing is
	// written there.
	VirtualMain string
	Main        string // the driver's source
	Exe         string // the driver binary
	Graph       string // the traced graph, as JSON
	Error       string // the failure, as JSON
}

func newDriverFiles(workspace, pkgDir string) driverFiles {
	return driverFiles{
		VirtualMain: filepath.Join(pkgDir, filepath.Base(workspace), "main.go"),
		Main:        filepath.Join(workspace, "main.go"),
		Exe:         filepath.Join(workspace, "driver.exe"),
		Graph:       filepath.Join(workspace, "graph.json"),
		Error:       filepath.Join(workspace, "error.json"),
	}
}

// driverSource returns the driver program for m.
func driverSource(m *model, o *options, files driverFiles) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// This file is a throwaway fxgen driver; fxgen deletes it after running it.\n\n")
	b.WriteString("package main\n\nimport (\n")
	fmt.Fprintf(&b, "\tfxgendriver %s\n", strconv.Quote(driverPath))
	fmt.Fprintf(&b, "\t%s %s\n", modelAlias, strconv.Quote(m.Pkg.PkgPath))
	names := make([]string, 0, len(m.Imports))
	for name := range m.Imports {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(&b, "\t%s %s\n", name, strconv.Quote(m.Imports[name]))
	}
	// The user's passes: their packages, under names of fxgen's.
	if len(o.UserPasses) > 0 {
		fmt.Fprintf(&b, "\tfxgenpasses %s\n", strconv.Quote(passesPath))
	}
	for i, p := range o.UserPasses {
		fmt.Fprintf(&b, "\tfxgenpass%d %s\n", i, strconv.Quote(p.Path))
	}
	b.WriteString(")\n\nfunc main() {\n")
	fmt.Fprintf(&b, "\tm := %s\n", m.Ctor)
	root := "m"
	if !m.Pointer {
		root = "&m"
	}
	fmt.Fprintf(&b, "\tfxgendriver.Main(%s, fxgendriver.Config{\n", root)
	field := func(name, value string) {
		if value != "" {
			fmt.Fprintf(&b, "\t\t%s: %s,\n", name, strconv.Quote(value))
		}
	}
	if len(m.Inputs) > 0 {
		b.WriteString("\t\tInputs: []string{")
		for _, in := range m.Inputs {
			fmt.Fprintf(&b, "%s, ", strconv.Quote(in))
		}
		b.WriteString("},\n")
	}
	if len(m.Concrete) > 0 {
		b.WriteString("\t\tConcrete: []fxgendriver.Arg{\n")
		for _, c := range m.Concrete {
			fmt.Fprintf(&b, "\t\t\t{Name: %s, Value: %s},\n", strconv.Quote(c.Name), c.Expr)
		}
		b.WriteString("\t\t},\n")
	}
	if len(o.Leaves) > 0 {
		b.WriteString("\t\tLeaves: []string{")
		for _, l := range o.Leaves {
			fmt.Fprintf(&b, "%s, ", strconv.Quote(l))
		}
		b.WriteString("},\n")
	}
	if len(o.UserPasses) > 0 {
		b.WriteString("\t\tPasses: []*fxgenpasses.Pass{")
		for i, p := range o.UserPasses {
			fmt.Fprintf(&b, "fxgenpass%d.%s, ", i, p.Name)
		}
		b.WriteString("},\n")
	}
	field("GraphFile", files.Graph)
	field("ErrorFile", files.Error)
	b.WriteString("\t})\n}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the driver: %v\n%s", err, b.Bytes())
	}
	return src, nil
}

// goCommand returns the go command to run: the one that runs fxgen under
// go generate or go tool, else go from PATH.
func goCommand() string {
	if root := os.Getenv("GOROOT"); root != "" {
		exe := filepath.Join(root, "bin", "go")
		if _, err := os.Stat(exe); err == nil {
			return exe
		}
		if _, err := os.Stat(exe + ".exe"); err == nil {
			return exe + ".exe"
		}
	}
	return "go"
}

// buildDriver builds the driver in the model's module. It runs go build in
// the current directory when that is inside the module, so that compiler
// messages have the paths the user expects, else in the package directory.
func buildDriver(ctx context.Context, m *model, files driverFiles, buildFlags []string) error {
	args := append([]string{"build", "-o", files.Exe, "-ldflags=" + driverLdflags()}, buildFlags...)
	args = append(args, files.VirtualMain)
	cmd := exec.CommandContext(ctx, goCommand(), args...)
	cmd.Dir = m.Dir
	if wd, err := os.Getwd(); err == nil && m.Pkg.Module != nil && within(wd, m.Pkg.Module.Dir) {
		cmd.Dir = wd
	}
	// go build's own work directory goes inside the workspace, so that
	// it is removed with it when the build is killed (an interrupt, a
	// killed go generate: go gets no chance to remove it) or when a later
	// run removes the workspace of a SIGKILLed fxgen.
	gotmp := filepath.Join(filepath.Dir(files.Exe), "gotmp")
	if err := os.Mkdir(gotmp, 0o700); err != nil {
		return err
	}
	cmd.Env = append(os.Environ(), "GOTMPDIR="+gotmp)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	supervise(cmd)
	wait, err := startTied(cmd)
	if err == nil {
		err = wait()
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("building the driver: %v\n%s", err, strings.TrimRight(out.String(), "\n"))
	}
	return nil
}

// driverLdflags returns the linker flags of the driver: the user's, from
// -ldflags in GOFLAGS, and -w, since the driver, built for one run, needs
// no DWARF (its tracebacks come from the symbol table), and linking
// without it takes a third less time.
func driverLdflags() string {
	flags := "-w"
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		if v, ok := strings.CutPrefix(strings.TrimPrefix(f, "-"), "-ldflags="); ok {
			flags = v + " " + flags
		} else if v, ok := strings.CutPrefix(strings.TrimPrefix(f, "-"), "ldflags="); ok {
			flags = v + " " + flags
		}
	}
	return flags
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// errInterrupted reports that fxgen was stopped by a signal.
var errInterrupted = errors.New("interrupted")
