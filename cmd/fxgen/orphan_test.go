// This file tests the process-tree reading the orphan watch relies on.

package main

import (
	"os"
	"runtime"
	"testing"
)

func TestParentOf(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	if ppid, ok := parentOf(os.Getpid()); !ok || ppid != os.Getppid() {
		t.Errorf("parentOf(self) = %d, %v; want %d", ppid, ok, os.Getppid())
	}
	if isGoTool(os.Getpid()) {
		t.Errorf("the test binary is taken for go tool")
	}
	if _, ok := parentOf(-1); ok {
		t.Errorf("parentOf(-1) succeeded")
	}
}
