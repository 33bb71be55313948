// This file defines the build overlay that blanks fxgen's own outputs, so a
// stale or broken generated file never stops the model from loading or the
// driver from building.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// overlay is a go build -overlay file's content: each absolute path maps
// to the absolute path of its replacement, or to "" to delete it.
type overlay struct {
	Replace map[string]string
}

// userOverlay returns the overlay named by -overlay in GOFLAGS, with its
// paths made absolute, or an empty overlay.
func userOverlay() (*overlay, error) {
	ov := &overlay{Replace: map[string]string{}}
	var file string
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		f = strings.TrimPrefix(f, "-")
		if v, ok := strings.CutPrefix(f, "-overlay="); ok {
			file = v
		} else if v, ok := strings.CutPrefix(f, "overlay="); ok {
			file = v
		}
	}
	if file == "" {
		return ov, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("GOFLAGS -overlay: %v", err)
	}
	var in overlay
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("GOFLAGS -overlay %s: %v", file, err)
	}
	for from, to := range in.Replace {
		if to != "" {
			to = absPath(to)
		}
		ov.Replace[absPath(from)] = to
	}
	return ov, nil
}

// absPath returns path made absolute against the current directory.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// blankGenerated adds to ov, for every non-test .go file in dir that begins
// with fxgen's header, a replacement holding only its build constraint and
// package clause. The replacements are written into scratch. It returns the
// blanked files, sorted.
func (ov *overlay) blankGenerated(dir, scratch string) ([]string, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var blanked []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := ov.read(name)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return nil, err
		}
		if !isOwned(src) {
			continue
		}
		blank, err := blankFile(name, src)
		if err != nil {
			return nil, err
		}
		repl := filepath.Join(scratch, fmt.Sprintf("blank%d_%s", len(blanked), filepath.Base(name)))
		if err := os.WriteFile(repl, blank, 0o644); err != nil {
			return nil, err
		}
		ov.Replace[name] = repl
		blanked = append(blanked, name)
	}
	return blanked, nil
}

// blankFile returns a file with src's build constraint and package clause
// and nothing else.
func blankFile(name string, src []byte) ([]byte, error) {
	pkgName := ""
	if f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.PackageClauseOnly|parser.ParseComments); err == nil {
		pkgName = f.Name.Name
	} else if m := packageLine.FindSubmatch(src); m != nil {
		// A broken file (a merge conflict at its top, NUL bytes): its
		// package line is enough to blank it.
		pkgName = string(m[1])
	} else {
		return nil, fmt.Errorf("%s: fxgen generated this file but it is too broken to find its package clause; delete it and run fxgen again", relPath(name))
	}
	var b bytes.Buffer
	b.WriteString(header + "\n// (blanked by fxgen while it regenerates this file)\n\n")
	for _, line := range bytes.Split(src, []byte("\n")) {
		if l := bytes.TrimSpace(line); bytes.HasPrefix(l, []byte("//go:build ")) {
			b.Write(l)
			b.WriteString("\n\n")
			break
		}
	}
	fmt.Fprintf(&b, "package %s\n", pkgName)
	return b.Bytes(), nil
}

// packageLine finds a package clause on a line of its own.
var packageLine = regexp.MustCompile(`(?m)^package[ \t]+([\p{L}_][\p{L}\p{Nd}_]*)[ \t]*\r?$`)

// read returns the content of path as the build sees it through ov.
func (ov *overlay) read(path string) ([]byte, error) {
	if repl, ok := ov.Replace[path]; ok {
		if repl == "" {
			return nil, os.ErrNotExist
		}
		return os.ReadFile(repl)
	}
	return os.ReadFile(path)
}

// write writes ov as JSON into dir and returns the -overlay flag that
// uses it, or nil when ov is empty.
func (ov *overlay) write(dir string) ([]string, error) {
	if len(ov.Replace) == 0 {
		return nil, nil
	}
	data, err := json.MarshalIndent(ov, "", "\t")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return nil, err
	}
	return []string{"-overlay=" + file}, nil
}
