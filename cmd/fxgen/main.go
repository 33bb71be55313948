// This file defines fxgen's main flow: parse, load and check, build and run
// the driver, write or check the output.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/fxgen/fxgen/internal/version"
)

func usage() {
	fmt.Fprintf(os.Stderr, "usage: fxgen -type T -input name=dtype[dims] [flags] [package]\n")
	fmt.Fprintf(os.Stderr, "For more information, see: go doc github.com/fxgen/fxgen/cmd/fxgen\n")
	fmt.Fprintf(os.Stderr, "Flags:\n")
	flag.PrintDefaults()
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("fxgen: ")
	flag.Usage = usage
	flag.Parse()
	if *showVer {
		fmt.Println("fxgen", version.String())
		os.Exit(0)
	}
	os.Exit(run(flag.Args()))
}

// run runs fxgen and returns its exit status.
func run(args []string) int {
	o, err := parseOptions(args)
	if err != nil {
		log.Print(err)
		fmt.Fprintln(os.Stderr, "run 'fxgen -help' for usage")
		return 2
	}
	// Catch SIGINT and SIGTERM until fxgen returns: the first one cancels
	// the build or run under way, later ones are ignored so that the
	// cleanup (removing the driver directory) always completes.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// When go generate is killed, fxgen stops too.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cancelWhenOrphaned(ctx, cancel)
	err = generate(ctx, o)
	if err == nil {
		return 0
	}
	if ctx.Err() != nil {
		err = errInterrupted
	}
	var (
		pe *posError
		te *traceError
		le *loadError
		se *staleError
		ce *crashError
	)
	switch {
	case errors.As(err, &pe), errors.As(err, &te), errors.As(err, &le), errors.As(err, &ce):
		// Already positioned, like the compiler's messages.
		fmt.Fprintln(os.Stderr, err)
	case errors.As(err, &se):
		fmt.Fprint(os.Stderr, se.diff)
		return exitStale
	default:
		log.Print(err)
	}
	return 1
}

// exitStale is the exit status of -check when an output is stale: 1 means
// fxgen failed, so that CI can tell a file to regenerate from a model that
// does not trace.
const exitStale = 3

// staleError is -check finding the output out of date.
type staleError struct{ diff string }

func (e *staleError) Error() string { return e.diff }

// generate does fxgen's work for o. Nothing is written in the user's
// tree but the outputs, and those only when the whole run succeeded and
// the generated file type-checks with the package. The workspace (in the
// temporary directory) is removed before returning, also on failure and
// on panic.
func generate(ctx context.Context, o *options) (err error) {
	dir, err := resolveDir(ctx, o.Pattern)
	if err != nil {
		return err
	}
	outPath := filepath.Join(dir, defaultOutput(o.Type))
	if o.Output != "" {
		outPath = absPath(o.Output)
		if filepath.Dir(outPath) != dir {
			return fmt.Errorf("-output %s: the generated file belongs to the model's package and must be in its directory %s", o.Output, relPath(dir))
		}
	}
	if !o.Check && !o.Print {
		// Refuse early, before the slow part.
		if err := checkOverwrite(outPath); err != nil {
			return err
		}
		if o.Test {
			if err := checkOverwrite(testPath(outPath)); err != nil {
				return fmt.Errorf("%v (the generated test's place; -test=false turns it off)", err)
			}
		}
		removeStaleInPackage(dir)
	}

	workspace, err := newWorkspace()
	if err != nil {
		return err
	}
	defer func() {
		if rerr := os.RemoveAll(workspace); rerr != nil && err == nil {
			err = rerr
		}
	}()

	ov, err := userOverlay()
	if err != nil {
		return err
	}
	if _, err := ov.blankGenerated(dir, workspace); err != nil {
		return err
	}
	loadFlags, err := ov.write(workspace)
	if err != nil {
		return err
	}

	pkg, err := loadPackage(ctx, dir, ov, loadFlags)
	if err != nil {
		return err
	}
	m, err := checkModel(pkg, dir, o, directivePos())
	if err != nil {
		return err
	}

	files := newDriverFiles(workspace, dir)
	src, err := driverSource(m, o, files)
	if err != nil {
		return err
	}
	if err := os.WriteFile(files.Main, src, 0o644); err != nil {
		return err
	}
	// The build's overlay adds the driver; it is written beside the
	// loader's, which later loads still use.
	ov.Replace[files.VirtualMain] = files.Main
	buildFlags, err := ov.write(filepath.Join(workspace, "build"))
	delete(ov.Replace, files.VirtualMain)
	if err != nil {
		return err
	}
	if err := buildDriver(ctx, m, files, buildFlags); err != nil {
		return userPassHint(err, o)
	}
	if err := runDriver(ctx, m, files, o); err != nil {
		return err
	}
	graph, err := os.ReadFile(files.Graph)
	if err != nil {
		return fmt.Errorf("the driver wrote no graph: %v", err)
	}
	out, err := compileGraph(graph, m, o)
	if err != nil {
		return err
	}
	if err := checkNames(pkg, outPath, out.Go); err != nil {
		return err
	}
	if err := typeCheck(ctx, pkg, dir, outPath, out.Go, ov, loadFlags); err != nil {
		return err
	}
	if o.Print {
		os.Stdout.WriteString(out.Table)
	}
	outs := []outFile{{graphFile(outPath), out.Graph}, {outPath, out.Go}}
	if o.Test {
		src, err := testSource(m, o, outPath)
		if err != nil {
			return err
		}
		outs = append(outs, outFile{testPath(outPath), src})
	}
	if o.Check {
		var diffs []string
		for _, f := range outs {
			diff, err := staleDiff(f.path, f.data)
			if err != nil {
				return err
			}
			if diff != "" {
				diffs = append(diffs, diff)
			}
		}
		if len(diffs) > 0 {
			return &staleError{diff: strings.Join(diffs, "") + "fxgen: stale; run go generate to update\n"}
		}
		return nil
	}
	if o.Print {
		outs = nil // -print writes nothing but what -dot asks for
	}
	return writeOutputs(outs, o.Dot, out.Dot)
}

// writeOutputs stages every output, then renames them into place, the DOT
// file last: a failure to write one changes none.
func writeOutputs(files []outFile, dotPath, dot string) error {
	for _, f := range files {
		if err := checkOverwrite(f.path); err != nil {
			return err
		}
	}
	if dotPath != "" {
		files = append(files, outFile{absPath(dotPath), []byte(dot)})
	}
	var all []*staged
	abort := func() {
		for _, st := range all {
			st.abort()
		}
	}
	for _, f := range files {
		st, err := stage(f.path, f.data)
		if err != nil {
			abort()
			return err
		}
		all = append(all, st)
	}
	for i, st := range all {
		if err := st.commit(); err != nil {
			for _, rest := range all[i+1:] {
				rest.abort()
			}
			return err
		}
	}
	return nil
}

// outFile is one output of a run and its path.
type outFile struct {
	path string
	data []byte
}

// graphFile returns the path of the graph file beside the generated file
// at path: mlp_fx.go → mlp_fx.graph.
func graphFile(path string) string {
	return strings.TrimSuffix(path, ".go") + ".graph"
}

// directivePos returns the position of the //go:generate line under go
// generate, or an invalid position.
func directivePos() token.Position {
	file, line := os.Getenv("GOFILE"), os.Getenv("GOLINE")
	n, err := strconv.Atoi(line)
	if file == "" || err != nil {
		return token.Position{}
	}
	return token.Position{Filename: absPath(file), Line: n}
}

// userPassHint adds to a failed driver build what -pass needs, when the
// user named passes: their names are Go code in the driver, so a wrong
// one is a compile error there.
func userPassHint(err error, o *options) error {
	if len(o.UserPasses) == 0 || errors.Is(err, context.Canceled) {
		return err
	}
	var names []string
	for _, p := range o.UserPasses {
		names = append(names, p.String())
	}
	return fmt.Errorf("%v\n(-pass %s: each must name an exported variable of type *passes.Pass in a package the model's module provides)", err, strings.Join(names, ", -pass "))
}
