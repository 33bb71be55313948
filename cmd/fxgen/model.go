// This file defines model, what fxgen knows of the model type, and checks
// its Forward signature and its constructor against the directive.

package main

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
)

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
