package nn

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"reflect"
	"strings"
	"testing"
)

// TestEveryParameterModuleRegistered: each module type of package nn that
// holds a tensor is registered, so a method value of it is walked.
func TestEveryParameterModuleRegistered(t *testing.T) {
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var holders []string
	modules := map[string]bool{} // types with a Forward method
	for _, f := range pkgs["nn"].Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "Forward" && fd.Recv != nil {
				if star, ok := fd.Recv.List[0].Type.(*ast.StarExpr); ok {
					modules[star.X.(*ast.Ident).Name] = true
				}
			}
		}
	}
	for _, f := range pkgs["nn"].Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, sp := range gd.Specs {
				ts, ok := sp.(*ast.TypeSpec)
				if !ok || !ts.Name.IsExported() || !modules[ts.Name.Name] {
					continue
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, fld := range st.Fields.List {
					if star, ok := fld.Type.(*ast.StarExpr); ok {
						if sel, ok := star.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Tensor" {
							holders = append(holders, ts.Name.Name)
							break
						}
					}
				}
			}
		}
	}
	if len(holders) < 5 {
		t.Fatalf("found only %v", holders)
	}
	listed := map[string]bool{}
	for _, m := range ownModules {
		listed[reflect.TypeOf(m).Elem().Name()] = true
	}
	for _, name := range holders {
		if !listed[name] {
			t.Errorf("nn.%s holds tensors but is not in ownModules (registry.go)", name)
		}
	}
}
