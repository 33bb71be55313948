// This file checks the generated file before it replaces the old one:
// the names it declares must be free in the package, and the package must
// type-check with it, so that fxgen never writes code that breaks the
// build.

package main

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	goruntime "runtime"
	"strconv"

	"golang.org/x/tools/go/packages"
)

// checkNames returns an error, at the clashing declaration, when the
// generated file src declares a package-level name that another file of
// the package already declares. p was loaded with fxgen's own outputs
// blanked, so its scope holds only the user's names.
func checkNames(p *packages.Package, outPath string, src []byte) error {
	f, err := parser.ParseFile(token.NewFileSet(), outPath, src, parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("the generated code for %s does not parse (an fxgen bug): %v", relPath(outPath), err)
	}
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" && d.Name.Name != "_" {
				names = append(names, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name != "_" {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	for _, name := range names {
		obj := p.Types.Scope().Lookup(name)
		if obj == nil {
			continue
		}
		pos := p.Fset.Position(obj.Pos())
		if pos.Filename == outPath {
			continue // the old generated file, blanked
		}
		return &posError{Pos: pos, Msg: fmt.Sprintf("%s is declared here, and the generated file %s declares %s too; rename yours, or pick another -type", name, relPath(outPath), name)}
	}
	return nil
}

// typeCheck type-checks the package p, as loaded with fxgen's outputs
// blanked, with the generated file src in place of outPath. It checks in
// process: the package's files and the generated one from source, their
// imports from export data (one go list of what is already built, a few
// hundred milliseconds). If the imports do not load that way, it loads
// the whole package again with go/packages (typeCheckWith), which
// compiles it and takes seconds.
func typeCheck(ctx context.Context, p *packages.Package, dir, outPath string, src []byte, ov *overlay, buildFlags []string) error {
	fset := p.Fset
	gen, err := parser.ParseFile(fset, outPath, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("the generated code for %s does not parse (an fxgen bug): %v", relPath(outPath), err)
	}
	// One universe of imported packages, from export data: the package's
	// own imports and the generated file's.
	files := []*ast.File{gen}
	goFiles := map[string]bool{}
	for _, name := range p.GoFiles {
		goFiles[name] = true
	}
	for _, f := range p.Syntax {
		name := fset.Position(f.Package).Filename
		if name == outPath {
			continue
		}
		if !goFiles[name] {
			// A file the go command generated (cgo): only a full
			// reload checks such a package faithfully.
			return typeCheckWith(ctx, dir, outPath, src, ov)
		}
		files = append(files, f)
	}
	seen := map[string]bool{}
	var paths []string
	for _, f := range files {
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil || path == "unsafe" || path == "C" || seen[path] {
				continue
			}
			seen[path] = true
			paths = append(paths, path)
		}
	}
	known := map[string]*types.Package{"unsafe": types.Unsafe}
	if len(paths) > 0 {
		cfg := &packages.Config{Context: ctx, Dir: dir, Mode: packages.NeedName | packages.NeedTypes, BuildFlags: buildFlags}
		imported, err := packages.Load(cfg, paths...)
		if err != nil {
			return typeCheckWith(ctx, dir, outPath, src, ov)
		}
		for _, ip := range imported {
			if len(ip.Errors) > 0 || ip.Types == nil {
				return typeCheckWith(ctx, dir, outPath, src, ov)
			}
			known[ip.PkgPath] = ip.Types
		}
	}
	var msgs []string
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if tp := known[path]; tp != nil {
				return tp, nil
			}
			return nil, fmt.Errorf("package %s not loaded", path)
		}),
		Sizes: types.SizesFor("gc", goruntime.GOARCH),
		Error: func(err error) {
			if len(msgs) == 10 {
				msgs = append(msgs, "too many errors")
			}
			if len(msgs) > 10 {
				return
			}
			if te, ok := err.(types.Error); ok {
				pos := te.Fset.Position(te.Pos)
				pos.Filename = relPath(pos.Filename)
				msgs = append(msgs, fmt.Sprintf("%s: %s", pos, te.Msg))
				return
			}
			msgs = append(msgs, err.Error())
		},
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Module.GoVersion
	}
	conf.Check(p.PkgPath, fset, files, nil)
	if len(msgs) > 0 {
		return &loadError{append([]string{fmt.Sprintf("fxgen: the generated file %s would not compile with the package; nothing was written:", relPath(outPath))}, msgs...)}
	}
	return nil
}

// importerFunc is a types.Importer.
type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// typeCheckWith type-checks the package in dir again with the generated
// file src in place of outPath, seen through ov, and returns the
// package's errors, if any, with the user's paths. The overlay goes to
// go/packages as contents, since outPath may not exist on disk yet.
func typeCheckWith(ctx context.Context, dir, outPath string, src []byte, ov *overlay) error {
	contents := map[string][]byte{outPath: src}
	for from, to := range ov.Replace {
		if to == "" || from == outPath {
			continue
		}
		data, err := os.ReadFile(to)
		if err != nil {
			return err
		}
		contents[from] = data
	}
	cfg := &packages.Config{
		Context: ctx,
		Dir:     dir,
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Overlay: contents,
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return err
	}
	var msgs []string
	for _, p := range pkgs {
		for i, e := range compilerErrors(p.Errors) {
			if i == 10 {
				msgs = append(msgs, "too many errors")
				break
			}
			msgs = append(msgs, relPosError(e))
		}
	}
	if len(msgs) > 0 {
		return &loadError{append([]string{fmt.Sprintf("fxgen: the generated file %s would not compile with the package; nothing was written:", relPath(outPath))}, msgs...)}
	}
	return nil
}
