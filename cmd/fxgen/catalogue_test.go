// This file is the catalogue of bad inputs run through the real command:
// misbehaving and untraceable models, bad directives, broken generated
// files and signals. Every case checks the exit status, the first line of
// the message with its position, that no file of the module changed, and
// that nothing was left behind, in the module or in fxgen's TMPDIR. The
// models share one package (testdata/bad), so the model package is built
// once and each case builds only its small driver.
//
// On main before this work, these cases failed: a panicking constructor,
// a goroutine panic and a recursion printed raw Go traces through the
// driver; os.Exit gave "the driver wrote no output"/"the driver failed";
// HangCtor and Spin hung for ever (no -timeout); Flip was accepted and its
// output depended on chance; Clash and ClashFn exited 0 with a file that
// broke the package; -output ../other wrote a file of package bad into
// another directory; -dot wrote g.dot although the run failed; TestOnly
// was "no type TestOnly"; 0*N was accepted.

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// kernelVariantRun is set when the tests run again only to exercise other
// kernel tiers (-tags noasm, FXGEN_ISA): the catalogue, which tests the
// command and takes tens of seconds of builds, is skipped then.
var kernelVariantRun = os.Getenv("FXGEN_ISA") != ""

// needCatalogue is needFxgen, and skips the catalogue on kernel-variant
// runs.
func needCatalogue(t *testing.T) {
	t.Helper()
	if kernelVariantRun {
		t.Skip("the catalogue tests the command; this run is for other kernel tiers")
	}
	needFxgen(t)
}

// catalogueCase is one fxgen run in the bad package that must fail.
type catalogueCase struct {
	name  string
	args  []string
	code  int
	first string // regexp for the first line of stderr; %[1]d is the "want:" line
	tag   string // the "want:" tag whose line %[1]d is, or ""
	pkg   string // the package directory, if not bad
}

func TestCatalogueMisbehavingModels(t *testing.T) {
	needCatalogue(t)
	mod := newModule(t, "bad", "clashimport")
	pkg := filepath.Join(mod, "bad")
	src := filepath.Join(pkg, "bad.go")
	in := []string{"-input", "x=f32[N,4]"}
	cases := []catalogueCase{
		{"constructor panics", []string{"-type", "CtorPanic"}, 1, `^bad\.go:%[1]d: fxgen: the model panicked in NewCtorPanic: ctor boom$`, "ctor panic", ""},
		{"Forward panics", []string{"-type", "ForwardPanic"}, 1, `^bad\.go:%[1]d: tracer: panic while tracing: forward boom$`, "forward panic", ""},
		{"goroutine panics", []string{"-type", "GoPanic"}, 1, `^bad\.go:%[1]d: fxgen: the model panicked in \(\*GoPanic\)\.Forward\.func1: goroutine boom$`, "goroutine panic", ""},
		{"trace error in a goroutine", []string{"-type", "GoTrace"}, 1, `^bad\.go:%[1]d: fxgen: the model panicked in \(\*GoTrace\)\.Forward\.func1: .*tracer: .*Item`, "goroutine trace error", ""},
		{"unbounded recursion", []string{"-type", "Recurse"}, 1, `^bad\.go:(%[1]d|%[3]d): fxgen: the driver died in \(\*Recurse\)\.deep: stack overflow`, "recursion", ""},
		{"os.Exit(3) in the constructor", []string{"-type", "ExitCtor"}, 1, `^fxgen: the driver exited with status 3 before it wrote the graph: model code called os\.Exit`, "", ""},
		{"os.Exit(0) in Forward", []string{"-type", "ExitZero"}, 1, `^fxgen: the driver exited with status 0 before it wrote the graph`, "", ""},
		{"log.Fatal in Forward", []string{"-type", "Fatal"}, 1, `^fxgen: the driver exited with status 1 before it wrote the graph`, "", ""},
		{"constructor never returns", []string{"-type", "HangCtor", "-timeout", "2s"}, 1, `^bad\.go:%[1]d: fxgen: the model did not finish within -timeout 2s: it was still in NewHangCtor here$`, "hang ctor", ""},
		{"Forward never returns", []string{"-type", "Spin", "-timeout", "2s"}, 1, `^bad\.go:(%[1]d|%[2]d): fxgen: the model did not finish within -timeout 2s: it was still in \(\*Spin\)\.Forward here$`, "spin", ""},
		{"trace depends on global state", []string{"-type", "Flip"}, 1, `^bad\.go:%[1]d: tracer: Forward does not trace the same way twice: node 2 is call_method neg`, "flip", ""},
		{"trace depends on global state, from the module root", []string{"-type", "Flip", "./bad"}, 1, `^bad/bad\.go:%[1]d: tracer: Forward does not trace the same way twice`, "flip", "."},
		{"dynamic control flow", []string{"-type", "Dynamic"}, 1, `^bad\.go:%[1]d: tracer: `, "dynamic", ""},
		{"shape whose size wraps around", []string{"-type", "HugeShape", "-input", "x=f32[4]"}, 1, `^bad\.go:%[1]d: tracer: reshape: cannot reshape \[4\] to \[4611686018427387905 4\]: the target has more elements than an int can count`, "huge shape", ""},
		{"reads a tensor a closure holds", []string{"-type", "ReadsCaptured"}, 1, `^bad\.go:%[1]d: tracer: Item\(\) reads the value of a tensor \(f32\[1\]\) that the model holds where the tracer cannot name it`, "reads captured", ""},
		// With -dot, which is not written either (sameFiles below).
		{"generated type name taken", []string{"-type", "Clash", "-dot", "g.dot"}, 1, `^bad\.go:%[1]d:6: fxgen: ClashCompiled is declared here, and the generated file clash_fx\.go declares ClashCompiled too`, "clash type", ""},
		{"generated constructor name taken", []string{"-type", "ClashFn"}, 1, `^bad\.go:%[1]d:6: fxgen: NewClashFnCompiled is declared here, and the generated file clash_fn_fx\.go declares`, "clash func", ""},
		{"model in a test file", []string{"-type", "TestOnly"}, 1, `^testonly_test\.go:%[1]d:6: fxgen: -type TestOnly: TestOnly is declared in a test file`, "test file", ""},
		{"no such type", []string{"-type", "Nope"}, 1, `^fxgen: -type Nope: no type Nope in package example\.com/fxtest/bad`, "", ""},
		{"-output in another directory", []string{"-type", "Good", "-output", "../other/good_fx.go"}, 1, `^fxgen: -output \.\./other/good_fx\.go: the generated file belongs to the model's package and must be in its directory`, "", ""},
		{"-output in a subdirectory", []string{"-type", "Good", "-output", "sub/good_fx.go"}, 1, `^fxgen: -output sub/good_fx\.go: the generated file belongs`, "", ""},
		{"-output over a hand-written file", []string{"-type", "Good", "-output", "bad.go"}, 1, `^fxgen: bad\.go exists and was not generated by fxgen`, "", ""},
		{"-output a test file", []string{"-type", "Good", "-output", "good_fx_test.go"}, 2, `^fxgen: -output good_fx_test\.go: want a \.go file name`, "", ""},
		{"-dot into a missing directory", []string{"-type", "Good", "-dot", "nodir/g.dot"}, 1, `^fxgen: writing nodir/g\.dot: no such file or directory$`, "", ""},
		{"zero coefficient", []string{"-type", "Good", "-input", "x=f32[0*N,4]"}, 2, `^fxgen: -input: "x=f32\[0\*N,4\]": dim "0\*N": the coefficient must be at least 1$`, "", ""},
		{"negative size", []string{"-type", "Good", "-input", "x=f32[-2*3]"}, 2, `^fxgen: -input: "x=f32\[-2\*3\]": dim "-2\*3": the coefficient must be at least 1$`, "", ""},
		{"-timeout 0", []string{"-type", "Good", "-timeout", "0s"}, 2, `^fxgen: -timeout 0s: want a positive duration`, "", ""},
		{"generated file does not compile with the package", []string{"-type", "M"}, 1, `^fxgen: the generated file m_fx\.go would not compile with the package; nothing was written:$`, "", "clashimport"},
	}
	before := snapshot(t, mod)
	t.Run("cases", func(t *testing.T) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				args := tc.args
				if !strings.Contains(strings.Join(args, " "), "-input") {
					args = append(append([]string{}, in...), args...)
				}
				dir, file := pkg, src
				if tc.pkg != "" {
					dir = filepath.Join(mod, tc.pkg)
				}
				if tc.tag == "test file" {
					file = filepath.Join(pkg, "testonly_test.go")
				}
				line := 0
				if tc.tag != "" {
					line = lineOf(t, file, "// want: "+tc.tag)
				}
				pattern := tc.first
				if strings.Contains(pattern, "%[") {
					pattern = fmt.Sprintf(pattern, line, line+1, line-1)
				}
				want := regexp.MustCompile(pattern)
				tmp := t.TempDir()
				r := runCmd(t, dir, []string{"TMPDIR=" + tmp}, fxgenBin, args...)
				wantCode(t, r, tc.code, tc.name)
				first, _, _ := strings.Cut(r.stderr, "\n")
				if !want.MatchString(first) {
					t.Errorf("first line %q, want a match for %s\nstderr:\n%s", first, want, r.stderr)
				}
				if strings.Count(r.stderr, "\n") > 12 || strings.Contains(r.stderr, "goroutine 1 [") {
					t.Errorf("the message is not short, or holds a raw trace:\n%s", r.stderr)
				}
				if strings.Contains(r.stderr, tmp) || strings.Contains(r.stderr, workspacePrefix) || strings.Contains(r.stderr, tempInfix) {
					t.Errorf("the message names fxgen's temporary files:\n%s", r.stderr)
				}
				noLeftovers(t, tmp)
			})
		}
	})
	sameFiles(t, before, snapshot(t, mod))
	if _, err := os.Stat(filepath.Join(mod, "other")); err == nil {
		t.Errorf("-output ../other created a directory")
	}

	// -v shows the raw trace under the one-line summary.
	r := runCmd(t, pkg, []string{"TMPDIR=" + t.TempDir()}, fxgenBin, "-type", "CtorPanic", "-input", "x=f32[N,4]", "-v")
	wantCode(t, r, 1, "-v")
	if !strings.Contains(r.stderr, "goroutine 1 [running]") || !strings.HasPrefix(r.stderr, "bad.go:") {
		t.Errorf("-v: want the summary, then the raw trace:\n%s", r.stderr)
	}
}

// TestCatalogueBrokenGeneratedFiles checks that whatever damage a
// generated file suffered, fxgen replaces it, and that -check works on a
// checkout it must not write to.
func TestCatalogueBrokenGeneratedFiles(t *testing.T) {
	needCatalogue(t)
	mod := newModule(t, "bad")
	pkg := filepath.Join(mod, "bad")
	out := filepath.Join(pkg, "good_fx.go")
	args := []string{"-type", "Good", "-input", "x=f32[N,4]"}
	tmp := t.TempDir()
	env := []string{"TMPDIR=" + tmp}
	wantCode(t, runCmd(t, pkg, env, fxgenBin, append(args, "-dot", "good.dot")...), 0, "fxgen -type Good")
	gen := readFile(t, out)
	if readFile(t, filepath.Join(pkg, "good.dot")) == "" {
		t.Errorf("-dot wrote nothing")
	}
	os.Remove(filepath.Join(pkg, "good.dot"))

	// -check writes nothing anywhere in the module: not even a directory
	// that it removes again (main made .fxgen-driver-* in the package).
	mtimes := dirTimes(t, mod)
	before := snapshot(t, mod)
	time.Sleep(10 * time.Millisecond)
	wantCode(t, runCmd(t, pkg, env, fxgenBin, append(args, "-check")...), 0, "fxgen -check")
	sameFiles(t, before, snapshot(t, mod))
	if after := dirTimes(t, mod); fmt.Sprint(after) != fmt.Sprint(mtimes) {
		t.Errorf("-check touched directories of the module:\nbefore %v\nafter  %v", mtimes, after)
	}
	noLeftovers(t, tmp)

	for _, tc := range []struct{ name, content string }{
		{"merge conflict at the top", "<<<<<<< HEAD\n" + gen + "=======\n" + strings.Replace(gen, "Relu", "Gelu", -1) + ">>>>>>> other\n"},
		{"NUL bytes", strings.Replace(gen, "\npackage ", "\n\x00\x00\npackage ", 1) + "\x00garbage\x00\n"},
		{"truncated", gen[:len(gen)/2]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writeFile(t, out, tc.content)
			r := runCmd(t, pkg, env, fxgenBin, args...)
			wantCode(t, r, 0, "fxgen over a broken generated file")
			if got := readFile(t, out); got != gen {
				t.Errorf("good_fx.go was not regenerated:\n%s", got)
			}
			noLeftovers(t, tmp)
		})
	}
	snapshot(t, mod)
}

// dirTimes returns the modification time of every directory under dir.
func dirTimes(t *testing.T, dir string) map[string]time.Time {
	t.Helper()
	times := map[string]time.Time{}
	filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err == nil && fi.IsDir() {
			times[path] = fi.ModTime()
		}
		return nil
	})
	return times
}

// TestCatalogueOutsideModule checks that a package outside any module is
// named as such (main said "directory . holds 0 packages"), like every
// catalogue case: exit status, first line, no file changed, nothing left.
func TestCatalogueOutsideModule(t *testing.T) {
	needCatalogue(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "m", "m.go"), "package m\n\ntype M struct{}\n")
	before := snapshot(t, dir)
	tmp := t.TempDir()
	r := runCmd(t, filepath.Join(dir, "m"), []string{"GOFLAGS=", "GO111MODULE=", "TMPDIR=" + tmp}, fxgenBin, "-type", "M", "-input", "x=f32[N]")
	wantCode(t, r, 1, "outside a module")
	want := regexp.MustCompile(`^fxgen: \S+/m is not in a Go module: there is no go\.mod in it or any directory above it`)
	if first, _, _ := strings.Cut(r.stderr, "\n"); !want.MatchString(first) {
		t.Errorf("first line %q, want a match for %s", first, want)
	}
	sameFiles(t, before, snapshot(t, dir))
	noLeftovers(t, tmp)
}

// TestCatalogueSignals checks that a SIGKILLed fxgen takes its driver
// with it and that the next run removes what it left, and that fxgen
// stops without writing when go generate is killed.
func TestCatalogueSignals(t *testing.T) {
	needCatalogue(t)
	if runtime.GOOS != "linux" {
		t.Skip("uses /proc and the parent-death signal")
	}
	mod := newModule(t, "bad")
	pkg := filepath.Join(mod, "bad")
	before := snapshot(t, mod)

	tmp := t.TempDir()
	cmd := exec.Command(fxgenBin, "-type", "HangCtor", "-input", "x=f32[N,4]", "-timeout", "10m")
	cmd.Dir = pkg
	cmd.Env = testEnv("TMPDIR=" + tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	driver := waitForDriver(t, tmp)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	waitGone(t, driver)
	if left, _ := filepath.Glob(filepath.Join(tmp, workspacePrefix+"*")); len(left) != 1 {
		t.Fatalf("after SIGKILL, want the killed run's workspace in TMPDIR, found %v", left)
	}
	sameFiles(t, before, snapshot(t, mod))
	// The next run removes the dead run's workspace.
	wantCode(t, runCmd(t, pkg, []string{"TMPDIR=" + tmp}, fxgenBin, "-type", "Nope", "-input", "x=f32[N,4]"), 1, "next run")
	noLeftovers(t, tmp)

	// SIGTERM to go generate alone: fxgen notices it was orphaned, ends
	// its driver and exits without writing.
	gen := exec.Command("go", "generate", "-run", "HangCtor", "./bad")
	gen.Dir = mod
	gen.Env = testEnv("FXGEN="+fxgenBin, "TMPDIR="+tmp)
	if err := gen.Start(); err != nil {
		t.Fatal(err)
	}
	defer gen.Process.Kill()
	driver = waitForDriver(t, tmp)
	gen.Process.Signal(syscall.SIGTERM)
	gen.Wait()
	waitGone(t, driver)
	deadline := time.Now().Add(10 * time.Second)
	for {
		left, _ := filepath.Glob(filepath.Join(tmp, "*"))
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the orphaned fxgen did not clean up: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
	sameFiles(t, before, snapshot(t, mod))
}

// TestCatalogueInterruptDuringBuild interrupts fxgen while go build links
// the driver (held there by a -toolexec wrapper): fxgen must stop at
// once, write nothing and leave nothing in TMPDIR. Before the build got a
// GOTMPDIR inside fxgen's workspace, the killed go build left its
// go-build* work directory in TMPDIR.
func TestCatalogueInterruptDuringBuild(t *testing.T) {
	needCatalogue(t)
	if runtime.GOOS == "windows" {
		t.Skip("sends SIGINT; the wrapper is a shell script")
	}
	mod := newModule(t, "bad")
	pkg := filepath.Join(mod, "bad")
	before := snapshot(t, mod)
	scripts := t.TempDir()
	linking := filepath.Join(scripts, "linking")
	wrapper := filepath.Join(scripts, "slowlink.sh")
	writeFile(t, wrapper, "#!/bin/sh\ncase \"$1\" in *link) case \"$*\" in *-V=full*) ;; *) : > "+linking+"; sleep 60;; esac;; esac\nexec \"$@\"\n")
	if err := os.Chmod(wrapper, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	cmd := exec.Command(fxgenBin, "-type", "Good", "-input", "x=f32[N,4]")
	cmd.Dir = pkg
	cmd.Env = testEnv("TMPDIR="+tmp, "GOFLAGS=-toolexec="+wrapper)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitUntil(t, "go build reached the driver's link", &stderr, func() bool {
		_, err := os.Stat(linking)
		return err == nil
	})
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("fxgen interrupted during the build: %v, want exit status 1", err)
	}
	if first, _, _ := strings.Cut(stderr.String(), "\n"); first != "fxgen: interrupted" {
		t.Errorf("first line %q, want \"fxgen: interrupted\"", first)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("fxgen took %v to stop after the interrupt", d)
	}
	sameFiles(t, before, snapshot(t, mod))
	noLeftovers(t, tmp)
}

// waitForDriver waits until a driver built in tmp runs and returns its
// process id.
func waitForDriver(t *testing.T, tmp string) int {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		procs, _ := filepath.Glob("/proc/[0-9]*/exe")
		for _, p := range procs {
			if exe, err := os.Readlink(p); err == nil && strings.HasPrefix(exe, tmp+"/") && strings.HasSuffix(exe, "driver.exe") {
				pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
				return pid
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("no driver started in time")
	return 0
}

// waitGone waits until process pid has ended (or is a zombie).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("driver %d still runs 10s after fxgen went", pid)
}
