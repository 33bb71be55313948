// This file defines the test fxgen writes beside the generated file: it
// checks the compiled model against the model on random inputs, so that a
// generated file left stale by a change to Forward fails go test.

package main

import (
	"bytes"
	"fmt"
	"go/format"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// fxgentestPath is the import path of the package the generated test
// calls.
const fxgentestPath = "github.com/fxgen/fxgen/fxgentest"

// testPath returns the generated test's path for the generated file
// outPath: m_fx.go → m_fx_test.go.
func testPath(outPath string) string {
	return strings.TrimSuffix(outPath, ".go") + "_test.go"
}

// testSource returns the generated test for m, compiled into outPath.
func testSource(m *model, o *options, outPath string) ([]byte, error) {
	imports := map[string]string{"testing": "testing", "fxgentest": fxgentestPath}
	closures := len(m.Concrete) > 0 || len(m.Args) != len(m.Inputs)
	if closures {
		imports["tensor"] = tensorPath
	}
	for name, path := range m.Imports {
		if p, ok := imports[name]; ok && p != path {
			return nil, fmt.Errorf("the generated test would import %s as %s, and -new or -concrete uses %s under that name; rename that import, or turn the test off with -test=false", p, name, path)
		}
		imports[name] = path
	}
	names := make([]string, 0, len(imports))
	for name := range imports {
		names = append(names, name)
	}
	std := func(path string) bool { return !strings.Contains(strings.Split(path, "/")[0], ".") }
	sort.Slice(names, func(i, j int) bool {
		a, b := imports[names[i]], imports[names[j]]
		if std(a) != std(b) {
			return std(a)
		}
		return a < b
	})

	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n// fxgen %s\n\npackage %s\n\nimport (\n", header, o.command(), m.Pkg.Name)
	for i, name := range names {
		path := imports[name]
		if i > 0 && std(imports[names[i-1]]) && !std(path) {
			b.WriteString("\n")
		}
		if name == path[strings.LastIndex(path, "/")+1:] {
			fmt.Fprintf(&b, "\t%s\n", strconv.Quote(path))
		} else {
			fmt.Fprintf(&b, "\t%s %s\n", name, strconv.Quote(path))
		}
	}
	b.WriteString(")\n\n")
	T, gen := o.Type, filepath.Base(outPath)
	fmt.Fprintf(&b, "// Test%sCompiledMatchesEager checks %s against %s on random inputs:\n", T, gen, T)
	fmt.Fprintf(&b, "// it fails when %s.Forward changed and go generate was not run again.\n", T)
	fmt.Fprintf(&b, "func Test%sCompiledMatchesEager(t *testing.T) {\n", T)
	fmt.Fprintf(&b, "\tm := %s\n", m.Local)
	root := "m"
	if !m.Pointer {
		root = "&m"
	}
	specs := strconv.Quote(strings.Join(m.Inputs, " "))
	if !closures {
		fmt.Fprintf(&b, "\tfxgentest.MatchesEager(t, %s, m.Forward, New%sCompiled(%s).Forward)\n}\n", specs, T, root)
	} else {
		var params, args []string
		for _, a := range m.Args {
			if a.Local == "" {
				params = append(params, a.Name+" *tensor.Tensor")
				args = append(args, a.Name)
			} else {
				args = append(args, a.Local)
			}
		}
		results := "*tensor.Tensor"
		if m.Results > 1 {
			results = "(" + strings.Repeat("*tensor.Tensor, ", m.Results-1) + "*tensor.Tensor)"
		}
		fmt.Fprintf(&b, "\tc := New%sCompiled(%s)\n", T, root)
		fmt.Fprintf(&b, "\teager := func(%s) %s { return m.Forward(%s) }\n", strings.Join(params, ", "), results, strings.Join(args, ", "))
		fmt.Fprintf(&b, "\tcompiled := func(%s) %s { return c.Forward(%s) }\n", strings.Join(params, ", "), results, strings.Join(args, ", "))
		fmt.Fprintf(&b, "\tfxgentest.MatchesEager(t, %s, eager, compiled)\n}\n", specs)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the generated test (an fxgen bug): %v\n%s", err, b.Bytes())
	}
	return src, nil
}
