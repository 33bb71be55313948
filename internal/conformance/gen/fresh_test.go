package main

import (
	"os"
	"testing"
)

// TestFresh regenerates compiled_gen.go in memory and fails when the
// committed copy differs: run go generate ./internal/conformance.
func TestFresh(t *testing.T) {
	want, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../compiled_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("internal/conformance/compiled_gen.go is stale: run go generate ./internal/conformance")
	}
}
