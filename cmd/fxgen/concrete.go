// This file turns -concrete values and the -new constructor expression into
// Go source for the driver, checked against the model's package.

package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

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
