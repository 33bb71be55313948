// This file tests that write failures name the user's path, never the
// hidden temporary file of the atomic write, and leave no temporary file.
// On main, writing into a missing directory said
// "open /x/.m_fx.go.fxgen-262696359.tmp: no such file or directory".

package main

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestWriteErrorsNameTheUsersPath(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nodir", "m_fx.go")
	err := writeAtomic(missing, []byte("x"))
	if err == nil || strings.Contains(err.Error(), ".tmp") || !strings.Contains(err.Error(), "m_fx.go") {
		t.Errorf("writeAtomic into a missing directory: %v, want an error naming m_fx.go and no temporary file", err)
	}

	// A directory in the file's place: the rename fails.
	asDir := filepath.Join(dir, "d_fx.go")
	if err := os.Mkdir(asDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(asDir, "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err = writeAtomic(asDir, []byte("x"))
	if err == nil || strings.Contains(err.Error(), ".tmp") || !strings.HasPrefix(err.Error(), "writing ") {
		t.Errorf("writeAtomic over a directory: %v, want an error naming d_fx.go only", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

func TestRemoveStaleInPackage(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("process ids and liveness differ")
	}
	dir := t.TempDir()
	// 1073741824 (2^30) is above Linux's largest pid_max, so never alive;
	// 1 is init, always alive.
	for _, name := range []string{
		".m_fx.go.fxgen-1073741824-5.tmp",        // dead owner: removed
		".m_fx.go" + tempInfix + "1-5.tmp",       // owner alive (init): kept
		workspacePrefix + "1073741824-9",         // dead owner: removed
		workspacePrefix + "1-9",                  // owner alive: kept
		"m_fx.go",                                // not fxgen's scratch: kept
		".m_fx.go" + tempInfix + "notapid-5.tmp", // no owner: kept
	} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Workspaces of older fxgen versions (no pid in the name) go after an
	// hour.
	old, fresh := filepath.Join(dir, workspacePrefix+"123456789"), filepath.Join(dir, workspacePrefix+"987654321")
	for _, d := range []string{old, fresh} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	hoursAgo := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(old, hoursAgo, hoursAgo); err != nil {
		t.Fatal(err)
	}
	removeStaleInPackage(dir)
	var got []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := []string{workspacePrefix + "1-9", workspacePrefix + "987654321", ".m_fx.go" + tempInfix + "1-5.tmp", ".m_fx.go" + tempInfix + "notapid-5.tmp", "m_fx.go"}
	if strings.Join(sorted(got), " ") != strings.Join(sorted(want), " ") {
		t.Errorf("after removeStaleInPackage: %v, want %v", got, want)
	}
}

func sorted(s []string) []string {
	out := append([]string{}, s...)
	slices.Sort(out)
	return out
}
