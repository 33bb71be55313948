// This file defines model loading: go/packages loads and type-checks the
// package, and the directive is checked against the model before anything
// runs.

package main

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// tensorPath is the import path of the package that defines Tensor.
const tensorPath = "github.com/fxgen/fxgen/tensor"

// model is a loaded and checked model: everything the driver needs.
type model struct {
	Pkg     *packages.Package
	Dir     string // the package directory
	Obj     *types.TypeName
	Forward *types.Func
	Ctor    string            // constructor expression as written in the driver
	Local   string            // constructor expression as written in the model's package
	Pointer bool              // Ctor yields *T (else T, and the driver takes its address)
	Imports map[string]string // name → path of packages Ctor or Concrete use
	// Inputs and Concrete are in Forward's parameter order, which is how
	// the tracer binds them.
	Inputs   []string
	Concrete []driverArg
	// Args are Forward's parameters in order, as the model's own package
	// writes them: tensor parameter names, and the -concrete values as Go
	// expressions; Results is the number of Forward's results. The
	// generated test calls Forward with them.
	Args    []forwardArg
	Results int
}

// forwardArg is one parameter of Forward for the generated test.
type forwardArg struct {
	Name  string
	Local string // the -concrete value in the model package, or "" for a tensor
}

// driverArg is a -concrete value as a Go expression for the driver.
type driverArg struct {
	Name string
	Expr string
}

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

// checkModel checks the directive o against the loaded package and returns
// the model. at is the directive's position, when known.
func checkModel(p *packages.Package, dir string, o *options, at token.Position) (*model, error) {
	fset := p.Fset
	if p.Name == "main" {
		return nil, errorAt(fset, packageClause(p), "package %s is package main; a model package must be importable", p.PkgPath)
	}
	obj, ok := p.Types.Scope().Lookup(o.Type).(*types.TypeName)
	if !ok {
		if pos, found := declaredInTest(dir, o.Type); found {
			return nil, &posError{Pos: pos, Msg: fmt.Sprintf("-type %s: %s is declared in a test file, which is not part of the package fxgen builds; move the model to a file not ending in _test.go", o.Type, o.Type)}
		}
		return nil, &posError{Pos: at, Msg: fmt.Sprintf("-type %s: no type %s in package %s (%s)", o.Type, o.Type, p.PkgPath, relPath(dir))}
	}
	named, ok := types.Unalias(obj.Type()).(*types.Named)
	if !ok || named.Obj().Pkg() != p.Types {
		return nil, errorAt(fset, obj.Pos(), "-type %s: want a type declared in package %s", o.Type, p.Name)
	}
	if named.TypeParams().Len() > 0 {
		return nil, errorAt(fset, obj.Pos(), "-type %s: a generic type cannot be traced; declare a non-generic model type", o.Type)
	}
	m := &model{Pkg: p, Dir: dir, Obj: obj, Imports: map[string]string{}}

	fobj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), true, p.Types, "Forward")
	fn, ok := fobj.(*types.Func)
	if !ok {
		return nil, errorAt(fset, obj.Pos(), "type %s has no method Forward", o.Type)
	}
	m.Forward = fn
	if err := m.checkForward(o); err != nil {
		return nil, err
	}
	if err := m.checkConstructor(o); err != nil {
		return nil, err
	}
	return m, nil
}

// packageClause returns the position of the package clause of p's first
// file.
func packageClause(p *packages.Package) token.Pos {
	if len(p.Syntax) == 0 {
		return token.NoPos
	}
	return p.Syntax[0].Name.Pos()
}

// isTensor reports whether t is *tensor.Tensor.
func isTensor(t types.Type) bool {
	ptr, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(ptr.Elem()).(*types.Named)
	return ok && n.Obj().Name() == "Tensor" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == tensorPath
}

// checkForward checks Forward's signature against -input and -concrete and
// converts the concrete values.
func (m *model) checkForward(o *options) error {
	fset := m.Pkg.Fset
	fn := m.Forward
	sig := fn.Type().(*types.Signature)
	at := fn.Pos()
	if sig.Variadic() {
		return errorAt(fset, at, "Forward is variadic; fxgen traces a fixed list of parameters")
	}
	res := sig.Results()
	if res.Len() == 0 {
		return errorAt(fset, at, "Forward has no results; want one or more *tensor.Tensor")
	}
	for i := range res.Len() {
		if r := res.At(i); !isTensor(r.Type()) {
			return errorAt(fset, at, "Forward result %d has type %s; want *tensor.Tensor", i+1, typeString(r.Type(), m.Pkg.Types))
		}
	}
	inputs := map[string]string{}
	for _, in := range o.Inputs {
		inputs[in.Name] = in.Spec
	}
	concrete := map[string]string{}
	for _, c := range o.Concrete {
		concrete[c.Name] = c.Value
	}
	params := sig.Params()
	declared := map[string]bool{}
	for i := range params.Len() {
		declared[params.At(i).Name()] = true
	}
	for _, in := range o.Inputs {
		if !declared[in.Name] {
			return errorAt(fset, at, "-input %s: Forward has no parameter %s (it has %s)", in.Name, in.Name, paramList(params))
		}
	}
	for _, c := range o.Concrete {
		if !declared[c.Name] {
			return errorAt(fset, at, "-concrete %s: Forward has no parameter %s (it has %s)", c.Name, c.Name, paramList(params))
		}
	}
	for i := range params.Len() {
		v := params.At(i)
		name := v.Name()
		if name == "" || name == "_" {
			return errorAt(fset, v.Pos(), "Forward parameter %d is unnamed; name it so that -input or -concrete can refer to it", i+1)
		}
		switch {
		case isTensor(v.Type()):
			if _, ok := concrete[name]; ok {
				return errorAt(fset, v.Pos(), "-concrete %s: parameter %s is a tensor; give its type with -input instead", name, name)
			}
			spec, ok := inputs[name]
			if !ok {
				return errorAt(fset, v.Pos(), "Forward parameter %s is a tensor without -input; add -input \"%s=dtype[dims]\"", name, name)
			}
			m.Inputs = append(m.Inputs, spec)
			m.Args = append(m.Args, forwardArg{Name: name})
		default:
			if _, ok := inputs[name]; ok {
				return errorAt(fset, v.Pos(), "-input %s: Forward parameter %s has type %s, not *tensor.Tensor; bind it with -concrete %s=VALUE", name, name, typeString(v.Type(), m.Pkg.Types), name)
			}
			value, ok := concrete[name]
			if !ok {
				return errorAt(fset, v.Pos(), "Forward parameter %s has type %s: bind it with -concrete %s=VALUE", name, typeString(v.Type(), m.Pkg.Types), name)
			}
			expr, err := m.concreteExpr(v.Type(), value)
			if err != nil {
				return errorAt(fset, v.Pos(), "-concrete %s=%s: %v", name, value, err)
			}
			m.Concrete = append(m.Concrete, driverArg{Name: name, Expr: expr})
			local, _ := m.concreteExprIn(v.Type(), value, true)
			m.Args = append(m.Args, forwardArg{Name: name, Local: local})
		}
	}
	m.Results = res.Len()
	return nil
}

// paramList lists a tuple's names for messages.
func paramList(t *types.Tuple) string {
	if t.Len() == 0 {
		return "none"
	}
	names := make([]string, t.Len())
	for i := range t.Len() {
		names[i] = t.At(i).Name()
	}
	return strings.Join(names, ", ")
}

// typeString prints t qualified relative to pkg.
func typeString(t types.Type, pkg *types.Package) string {
	return types.TypeString(t, types.RelativeTo(pkg))
}

// concreteExpr converts value to a Go expression of type t, for the driver.
func (m *model) concreteExpr(t types.Type, value string) (string, error) {
	return m.concreteExprIn(t, value, false)
}

// concreteExprIn converts value to a Go expression of type t, for the
// driver or, when local is set, for a file of the model's package.
func (m *model) concreteExprIn(t types.Type, value string, local bool) (string, error) {
	basic, ok := t.Underlying().(*types.Basic)
	if !ok {
		return "", fmt.Errorf("type %s: only bool, integer, float and string parameters can be bound", typeString(t, m.Pkg.Types))
	}
	info := basic.Info()
	var lit string
	switch {
	case info&types.IsBoolean != 0:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return "", fmt.Errorf("not a bool (want true or false)")
		}
		lit = strconv.FormatBool(b)
	case info&types.IsUnsigned != 0:
		u, err := strconv.ParseUint(value, 0, bitSize(basic.Kind()))
		if err != nil {
			return "", fmt.Errorf("not a %s: %v", basic.Name(), numError(err))
		}
		lit = strconv.FormatUint(u, 10)
	case info&types.IsInteger != 0:
		i, err := strconv.ParseInt(value, 0, bitSize(basic.Kind()))
		if err != nil {
			return "", fmt.Errorf("not an %s: %v", basic.Name(), numError(err))
		}
		lit = strconv.FormatInt(i, 10)
	case info&types.IsFloat != 0:
		bits := 64
		if basic.Kind() == types.Float32 {
			bits = 32
		}
		f, err := strconv.ParseFloat(value, bits)
		if err != nil {
			return "", fmt.Errorf("not a %s: %v", basic.Name(), numError(err))
		}
		lit = strconv.FormatFloat(f, 'g', -1, bits)
	case info&types.IsString != 0:
		lit = strconv.Quote(value)
	default:
		return "", fmt.Errorf("type %s: only bool, integer, float and string parameters can be bound", typeString(t, m.Pkg.Types))
	}
	return m.typeExpr(t, basic, local) + "(" + lit + ")", nil
}

// numError returns the reason of a strconv error without the repeated
// function name and input.
func numError(err error) error {
	var ne *strconv.NumError
	if errors.As(err, &ne) {
		return ne.Err
	}
	return err
}

// bitSize returns the size in bits of an integer kind; int and uint are 64.
func bitSize(k types.BasicKind) int {
	switch k {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32:
		return 32
	}
	return 64
}

// typeExpr returns how the driver (or, when local is set, a file of the
// model's package) writes t: qualified when it is a named type the driver
// can refer to, else its basic underlying type.
func (m *model) typeExpr(t types.Type, basic *types.Basic, local bool) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || !n.Obj().Exported() || n.Obj().Pkg() == nil || n.TypeArgs().Len() > 0 {
		return basic.Name()
	}
	pkg := n.Obj().Pkg()
	if pkg == m.Pkg.Types {
		if local {
			return n.Obj().Name()
		}
		return modelAlias + "." + n.Obj().Name()
	}
	name := m.importName(pkg)
	return name + "." + n.Obj().Name()
}

// importName adds pkg to the driver's imports and returns its name there.
func (m *model) importName(pkg *types.Package) string {
	name := pkg.Name()
	for i := 2; ; i++ {
		path, ok := m.Imports[name]
		if !ok || path == pkg.Path() {
			break
		}
		name = fmt.Sprintf("%s%d", pkg.Name(), i)
	}
	m.Imports[name] = pkg.Path()
	return name
}

// checkConstructor checks -new, or the default New<T>(), and sets Ctor.
func (m *model) checkConstructor(o *options) error {
	fset := m.Pkg.Fset
	expr := o.New
	if expr == "" {
		name := "New" + o.Type
		fn, ok := m.Pkg.Types.Scope().Lookup(name).(*types.Func)
		if !ok {
			return errorAt(fset, m.Obj.Pos(), "no constructor %s: declare func %s() *%s, or give the model's constructor expression with -new", name, name, o.Type)
		}
		sig := fn.Type().(*types.Signature)
		if sig.Params().Len() > 0 {
			return errorAt(fset, fn.Pos(), "constructor %s takes parameters; give its arguments with -new \"%s(...)\"", name, name)
		}
		if sig.TypeParams().Len() > 0 {
			return errorAt(fset, fn.Pos(), "constructor %s is generic; give the model's constructor expression with -new", name)
		}
		expr = name + "()"
	}
	ctor, err := m.rewriteExpr(expr, o.New != "")
	if err != nil {
		return err
	}
	m.Ctor, m.Local = ctor, expr
	return nil
}

// rewriteExpr type-checks expr in the scope of the file that declares the
// model type and returns it as the driver must write it: package-level
// names of the model package qualified with the model alias, and imported
// packages added to the driver's imports. It checks that expr yields T or
// *T.
func (m *model) rewriteExpr(expr string, flagGiven bool) (string, error) {
	fset := m.Pkg.Fset
	pkg := m.Pkg.Types
	what := "constructor " + expr
	if flagGiven {
		what = "-new " + strconv.Quote(expr)
	}
	x, err := parser.ParseExprFrom(fset, "-new", expr, 0)
	if err != nil {
		return "", fmt.Errorf("%s: %v", what, err)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{},
		Uses:  map[*ast.Ident]types.Object{},
	}
	if err := types.CheckExpr(fset, pkg, m.Obj.Pos(), x, info); err != nil {
		return "", errorAt(fset, m.Obj.Pos(), "%s: %v", what, stripPos(err))
	}
	tv := info.Types[x]
	named := m.Obj.Type()
	if !tv.IsValue() {
		return "", errorAt(fset, m.Obj.Pos(), "%s is not an expression with a value; want a %s or *%s", what, m.Obj.Name(), m.Obj.Name())
	}
	switch t := tv.Type.(type) {
	case *types.Tuple:
		return "", errorAt(fset, m.Obj.Pos(), "%s yields %d values; want one %s or *%s", what, t.Len(), m.Obj.Name(), m.Obj.Name())
	case *types.Pointer:
		if !types.Identical(t.Elem(), named) {
			return "", errorAt(fset, m.Obj.Pos(), "%s has type %s; want %s or *%s", what, typeString(tv.Type, pkg), m.Obj.Name(), m.Obj.Name())
		}
		m.Pointer = true
	default:
		if !types.Identical(tv.Type, named) {
			return "", errorAt(fset, m.Obj.Pos(), "%s has type %s; want %s or *%s", what, typeString(tv.Type, pkg), m.Obj.Name(), m.Obj.Name())
		}
		m.Pointer = false
	}
	base := fset.File(x.Pos()).Base()
	var inserts []int // offsets to qualify
	for id, obj := range info.Uses {
		if pn, ok := obj.(*types.PkgName); ok {
			if name := m.importName(pn.Imported()); name != id.Name {
				return "", errorAt(fset, m.Obj.Pos(), "%s: package name %s clashes with another import", what, id.Name)
			}
			continue
		}
		if obj.Pkg() != pkg {
			continue
		}
		topLevel := obj.Parent() == pkg.Scope()
		if !obj.Exported() && (topLevel || obj.Parent() == nil) {
			return "", errorAt(fset, m.Obj.Pos(), "%s: %s is not exported, and the driver, another package, cannot refer to it; export it or use an exported constructor", what, id.Name)
		}
		if topLevel {
			inserts = append(inserts, int(id.Pos())-base)
		}
	}
	var b strings.Builder
	last := 0
	slices.Sort(inserts)
	for _, off := range inserts {
		b.WriteString(expr[last:off])
		b.WriteString(modelAlias + ".")
		last = off
	}
	b.WriteString(expr[last:])
	return b.String(), nil
}

// stripPos removes the position of the synthetic -new file from a type
// error: the expression is short and quoted in full.
func stripPos(err error) string {
	var te types.Error
	if errors.As(err, &te) {
		return te.Msg
	}
	return err.Error()
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
