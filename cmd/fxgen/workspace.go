// This file defines the driver's workspace: a directory in the system's
// temporary directory, never in the user's package, named after fxgen's
// process id so that a later run can remove what a killed run left.

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// newWorkspace creates the workspace of this run, removing first the
// workspaces of earlier runs whose fxgen is gone.
func newWorkspace() (string, error) {
	removeStale(os.TempDir(), workspacePrefix)
	return os.MkdirTemp("", fmt.Sprintf("%s%d-", workspacePrefix, os.Getpid()))
}

// ownerPid returns the process id recorded in name after prefix, as in
// .fxgen-driver-1234-567 or .m_fx.go.fxgen-1234-567.tmp.
func ownerPid(name, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0
}

// staleAge is how old a leftover without a recorded owner must be before
// it is removed: such directories come from fxgen versions that made their
// workspace inside the package.
const staleAge = time.Hour

// removeStale removes the entries of dir named prefix<pid>-... whose
// process is gone and that are not this process's, and, when
// legacy is set, the entries named prefix<digits> older than staleAge.
// Errors are ignored: a leftover that cannot be removed harms nothing.
func removeStale(dir, prefix string) {
	removeStaleEntries(dir, prefix, false)
}

func removeStaleEntries(dir, prefix string, legacy bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		if pid, ok := ownerPid(name, prefix); ok {
			if pid != os.Getpid() && !processAlive(pid) {
				os.RemoveAll(filepath.Join(dir, name))
			}
			continue
		}
		if legacy {
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > staleAge {
				os.RemoveAll(filepath.Join(dir, name))
			}
		}
	}
}

// removeStaleInPackage removes from the package directory what killed runs
// left: temporary output files of this version (named after their pid),
// and workspaces of older versions (after staleAge).
func removeStaleInPackage(dir string) {
	removeStaleEntries(dir, workspacePrefix, true)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		i := strings.Index(name, tempInfix)
		if !strings.HasPrefix(name, ".") || i < 0 || !strings.HasSuffix(name, ".tmp") {
			continue
		}
		if pid, ok := ownerPid(name[i:], tempInfix); ok && pid != os.Getpid() && !processAlive(pid) {
			os.Remove(filepath.Join(dir, name))
		}
	}
}
