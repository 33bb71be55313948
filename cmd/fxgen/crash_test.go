// This file tests the summaries of crashed and stopped drivers on
// tracebacks as the Go runtime prints them.

package main

import (
	"os"
	"strings"
	"testing"
)

// inModelDir puts the traceback raw in the current directory, as if the
// model package were there, so that messages show relative paths.
func inModelDir(t *testing.T, raw string) (string, string) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(raw, "/m/bad", wd), wd
}

func TestSummarizeCrash(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		code      int
		want      string // the first line
	}{
		{"constructor panic", `panic: ctor boom

goroutine 1 [running]:
example.com/m/bad.NewCtorPanic(...)
	/m/bad/bad.go:29
main.main()
	/m/bad/.fxgen-driver-1-2/main.go:9 +0x25
exit status 2
`, 2, "bad.go:29: fxgen: the model panicked in NewCtorPanic: ctor boom"},
		{"panic of an error value, with the model's output first", `loading weights...
panic: runtime error: index out of range [5] with length 3 [recovered]

goroutine 7 [running]:
example.com/m/bad.(*M).Forward.func1()
	/m/bad/m.go:40 +0x1d
created by example.com/m/bad.(*M).Forward in goroutine 1
	/m/bad/m.go:38 +0x99
`, 2, "m.go:40: fxgen: the model panicked in (*M).Forward.func1: runtime error: index out of range [5] with length 3"},
		{"stack overflow", `runtime: goroutine stack exceeds 8388608-byte limit
fatal error: stack overflow

runtime stack:
runtime.throw({0x5, 0xe})
	/usr/lib/go/src/runtime/panic.go:1101 +0x48

goroutine 1 gp=0xc000002380 m=0 mp=0x6 [running]:
example.com/m/bad.(*Recurse).deep(0xc000010000?, 0x1?, 0x1)
	/m/bad/bad.go:92 +0x5c fp=0xc0200e0388
example.com/m/bad.(*Recurse).deep(0xc000010000?, 0x1?, 0x1)
	/m/bad/bad.go:93 +0x25 fp=0xc0200e03b0
...additional frames elided...
`, 2, "bad.go:92: fxgen: the driver died in (*Recurse).deep: stack overflow (unbounded recursion in the model?)"},
		{"-trimpath build", "panic: trimmed\n\ngoroutine 1 [running]:\nexample.com/trim/pkg.NewM(...)\n\texample.com/trim/pkg/m.go:7 +0x1\n", 2, "m.go:7: fxgen: the model panicked in NewM: trimmed"},
		{"os.Exit", "some output\n", 3, "fxgen: the driver exited with status 3 before it wrote the graph: model code called os.Exit (or log.Fatal) while the model was built or traced"},
		{"panic outside the model", "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/x/main.go:3 +0x1\n", 2, "fxgen: the driver panicked outside the model's package: boom"},
		{"no output", "", 1, "fxgen: the driver exited with status 1 before it wrote the graph: model code called os.Exit (or log.Fatal) while the model was built or traced"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, dir := inModelDir(t, tc.raw)
			raw = untrimPaths(raw, "example.com/trim/pkg", dir)
			got, _, _ := strings.Cut(summarizeCrash(raw, tc.code, dir).Error(), "\n")
			if got != tc.want {
				t.Errorf("first line\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestSummarizeTimeout(t *testing.T) {
	raw := `SIGQUIT: quit
PC=0x46f1e1 m=0 sigcode=0

goroutine 0 gp=0x5 m=0 mp=0x6 [idle]:
runtime.futex(0x5, 0x80, 0x0)
	/usr/lib/go/src/runtime/sys_linux_amd64.s:557 +0x21 fp=0x7ffc

goroutine 1 gp=0xc000002380 m=nil [sleep]:
time.Sleep(0x34630b8a000)
	/usr/lib/go/src/runtime/time.go:363 +0x165
example.com/m/bad.NewHangCtor()
	/m/bad/bad.go:128 +0x1d
main.main()
	/m/bad/.fxgen-driver-9-1/main.go:8 +0x13
`
	raw, dir := inModelDir(t, raw)
	e := summarizeTimeout(raw, durationString("3s"), dir)
	got, _, _ := strings.Cut(e.Error(), "\n")
	if want := "bad.go:128: fxgen: the model did not finish within -timeout 3s: it was still in NewHangCtor here"; got != want {
		t.Errorf("first line\n%s\nwant\n%s", got, want)
	}
	e.Verbose = true
	if !strings.Contains(e.Error(), "SIGQUIT: quit") {
		t.Errorf("-v does not show the raw stacks:\n%s", e.Error())
	}
}

type durationString string

func (d durationString) String() string { return string(d) }

func TestShortFunc(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/m/bad.NewCtorPanic(...)":                      "NewCtorPanic",
		"example.com/m/bad.(*Recurse).deep(0xc0?, 0x1?, 0x1)":      "(*Recurse).deep",
		"example.com/m/bad.(*GoPanic).Forward.func1()":             "(*GoPanic).Forward.func1",
		"example.com/m/bad.(*GoPanic).Forward":                     "(*GoPanic).Forward",
		"main.main()":                                              "main",
		"example.com/m/v2/bad.Generic[...](0x1)":                   "Generic[...]",
		"example.com/m/bad.(*M).Forward(0xc000010000, {0x1, 0x2})": "(*M).Forward",
	} {
		if got := shortFunc(in); got != want {
			t.Errorf("shortFunc(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOwnerPid(t *testing.T) {
	for _, tc := range []struct {
		name, prefix string
		want         int
	}{
		{workspacePrefix + "123-456", workspacePrefix, 123},
		{workspacePrefix + "1234567", workspacePrefix, 0}, // an older version's name: no owner
		{workspacePrefix + "x-1", workspacePrefix, 0},
		{tempInfix + "77-8.tmp", tempInfix, 77},
	} {
		name, prefix, want := tc.name, tc.prefix, tc.want
		pid, ok := ownerPid(name, prefix)
		if pid != want || ok != (want != 0) {
			t.Errorf("ownerPid(%q) = %d, %v; want %d", name, pid, ok, want)
		}
	}
}
