// This file holds the one update switch of fxgen's golden files.

package testutil

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// UpdateEnv is the environment variable that makes the golden tests
// rewrite the files they compare with, in every package at once:
//
//	FXGEN_UPDATE=1 go test ./...
const UpdateEnv = "FXGEN_UPDATE"

// Updating reports whether the golden tests should rewrite their files
// (UpdateEnv is 1).
func Updating() bool { return os.Getenv(UpdateEnv) == "1" }

// CompareFile compares got with the file at path, failing t with a line
// diff (-file +got) when they differ; when Updating, it writes got to path
// instead.
func CompareFile(t testing.TB, path string, got []byte) {
	t.Helper()
	if Updating() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run %s=1 go test to create it)", err, UpdateEnv)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")); diff != "" {
		t.Errorf("%s differs (-file +got); if the change is intended, run %s=1 go test ./...:\n%s", path, UpdateEnv, diff)
	}
}
