// This file loads the model's package with go/packages (type-checked, with
// the overlay that blanks fxgen's own outputs) and turns load failures into
// the user's messages: compiler errors, a missing go.mod, a model in a
// test file.

package main

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// tensorPath is the import path of the package that defines Tensor.
const tensorPath = "github.com/fxgen/fxgen/tensor"

// modelAlias is the model package's name inside the driver.
const modelAlias = "fxgenmodel"

// resolveDir returns the directory of the single package that pattern
// names.
func resolveDir(ctx context.Context, pattern string) (string, error) {
	if fi, err := os.Stat(pattern); err == nil && fi.IsDir() {
		return filepath.Abs(pattern)
	}
	cfg := &packages.Config{Context: ctx, Mode: packages.NeedName | packages.NeedFiles}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		return "", err
	}
	if len(pkgs) != 1 {
		return "", fmt.Errorf("package pattern %q matches %d packages, want one", pattern, len(pkgs))
	}
	p := pkgs[0]
	files := append(p.GoFiles, p.IgnoredFiles...)
	if len(files) == 0 {
		if len(p.Errors) > 0 {
			return "", errors.New(relPosError(p.Errors[0]))
		}
		return "", fmt.Errorf("package %s has no Go files", p.PkgPath)
	}
	return filepath.Dir(files[0]), nil
}

// loadPackage loads and type-checks the package in dir through ov.
func loadPackage(ctx context.Context, dir string, ov *overlay, buildFlags []string) (*packages.Package, error) {
	cfg := &packages.Config{
		Context:    ctx,
		Dir:        dir,
		Mode:       packages.NeedName | packages.NeedFiles | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax | packages.NeedModule,
		BuildFlags: buildFlags,
		ParseFile: func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			// go list saw the overlay; the parser must too.
			if _, ok := ov.Replace[filename]; ok {
				var err error
				if src, err = ov.read(filename); err != nil {
					return nil, err
				}
			}
			return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		},
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		if !inModule(dir) {
			return nil, errNoModule(dir)
		}
		return nil, err
	}
	if len(pkgs) != 1 || pkgs[0].Module == nil && !inModule(dir) {
		if !inModule(dir) {
			return nil, errNoModule(dir)
		}
		return nil, fmt.Errorf("directory %s holds %d packages, want one", relPath(dir), len(pkgs))
	}
	p := pkgs[0]
	if len(p.Errors) > 0 {
		var msgs []string
		for i, e := range compilerErrors(p.Errors) {
			if i == 10 {
				msgs = append(msgs, "too many errors")
				break
			}
			msgs = append(msgs, relPosError(e))
		}
		return nil, &loadError{msgs}
	}
	if p.Types == nil || p.TypesInfo == nil {
		return nil, fmt.Errorf("package %s: no type information", p.PkgPath)
	}
	return p, nil
}

// loadError lists the errors of a package that does not load.
type loadError struct{ msgs []string }

func (e *loadError) Error() string { return strings.Join(e.msgs, "\n") }

// compilerErrors drops go list's errors when there are parse or type
// errors: they repeat the compiler's messages in another form.
func compilerErrors(errs []packages.Error) []packages.Error {
	var out []packages.Error
	for _, e := range errs {
		if e.Kind != packages.ListError {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return errs
	}
	return out
}

// relPosError prints a packages.Error with its file relative to the current
// directory.
func relPosError(e packages.Error) string {
	if e.Pos == "" || e.Pos == "-" {
		return e.Msg
	}
	pos := e.Pos
	if i := strings.Index(pos, ".go:"); i >= 0 {
		pos = relPath(pos[:i+3]) + pos[i+3:]
	}
	return pos + ": " + e.Msg
}

// inModule reports whether dir is inside a module: it or a parent holds a
// go.mod.
func inModule(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// errNoModule is the error for a package outside any module.
func errNoModule(dir string) error {
	return fmt.Errorf("%s is not in a Go module: there is no go.mod in it or any directory above it; fxgen builds its tracing driver in the model's module (run go mod init, and go get -tool github.com/fxgen/fxgen/cmd/fxgen)", dir)
}

// declaredInTest returns the position of a type named name declared in one
// of dir's _test.go files.
func declaredInTest(dir, name string) (token.Position, bool) {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, sp := range gd.Specs {
				if ts := sp.(*ast.TypeSpec); ts.Name.Name == name {
					return fset.Position(ts.Name.Pos()), true
				}
			}
		}
	}
	return token.Position{}, false
}
