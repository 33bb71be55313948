// This file defines how fxgen reports positions: file:line:col relative to
// the current directory, like the Go compiler.

package main

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
)

// posError is a problem at a source position.
type posError struct {
	Pos token.Position
	Msg string
}

func (e *posError) Error() string {
	if !e.Pos.IsValid() {
		return "fxgen: " + e.Msg
	}
	p := e.Pos
	p.Filename = relPath(p.Filename)
	return fmt.Sprintf("%s: fxgen: %s", p, e.Msg)
}

// errorAt returns a posError at pos in fset.
func errorAt(fset *token.FileSet, pos token.Pos, format string, args ...any) error {
	var p token.Position
	if pos.IsValid() {
		p = fset.Position(pos)
	}
	return &posError{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// relPath returns path relative to the current directory when that is
// shorter, as the go command prints paths.
func relPath(path string) string {
	if !filepath.IsAbs(path) {
		return path
	}
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || len(rel) >= len(path) {
		return path
	}
	return rel
}
