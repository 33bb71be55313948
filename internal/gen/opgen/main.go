// Command opgen writes the Go and the docs that derive from fxgen's op
// table (the ir.Op values of package ir): the op name constants and the
// typed kernel calls of package ir, the methods and functions of package
// tensor, the standard leaf modules of package nn and the op reference
// docs/ops.md. It runs from package ir's go:generate directive:
//
//	//go:generate go run ../internal/gen/opgen -root ..
//
// Every file it writes starts with a generated-code header; a test in this
// package regenerates them in memory and fails when a committed copy is
// stale.
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"
	"sort"
)

var root = flag.String("root", ".", "the repository root the files are written under")

func main() {
	log.SetFlags(0)
	log.SetPrefix("opgen: ")
	flag.Parse()
	files, err := generate()
	if err != nil {
		log.Fatal(err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(*root, filepath.FromSlash(name))
		if old, err := os.ReadFile(path); err == nil && string(old) == string(files[name]) {
			continue
		}
		if err := writeAtomic(path, files[name]); err != nil {
			log.Fatal(err)
		}
	}
}

// writeAtomic writes data to path through a temporary file and a rename.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".opgen-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}
