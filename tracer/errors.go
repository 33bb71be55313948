// This file defines TraceError, the error of a model that cannot be traced.

package tracer

import (
	"fmt"
	"path/filepath"
	goruntime "runtime"
	"strings"
)

// TraceError says where (the model's file and line) and why a model cannot
// be traced, and what to do about it.
type TraceError struct {
	File string // absolute path of the model's source file
	Line int
	Msg  string
}

// Error prints the error as the Go compiler would: FILE:LINE: tracer: MSG.
func (e *TraceError) Error() string {
	if e.File == "" {
		return "tracer: " + e.Msg
	}
	return fmt.Sprintf("%s:%d: tracer: %s", e.File, e.Line, e.Msg)
}

// fxgenPackages are skipped when looking for the user's frame.
var fxgenPackages = map[string]bool{
	"github.com/fxgen/fxgen/tensor":    true,
	"github.com/fxgen/fxgen/tensor/nn": true,
	"github.com/fxgen/fxgen/tracer":    true,
	"github.com/fxgen/fxgen/ir":        true,
	"github.com/fxgen/fxgen/runtime":   true,
	"runtime":                          true,
	"reflect":                          true,
}

// funcPackage returns the import path of a function's package from its
// qualified name, e.g. github.com/fxgen/fxgen/tensor.(*Tensor).Relu.
func funcPackage(name string) string {
	slash := strings.LastIndexByte(name, '/')
	dot := strings.IndexByte(name[slash+1:], '.')
	if dot < 0 {
		return name
	}
	return name[:slash+1+dot]
}

// callerPos returns the file and line of the innermost frame outside
// fxgen's own packages: the model code that called the op.
func callerPos() (file string, line int) {
	pcs := make([]uintptr, 64)
	n := goruntime.Callers(2, pcs)
	frames := goruntime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !fxgenPackages[funcPackage(f.Function)] && f.File != "" {
			return f.File, f.Line
		}
		if !more {
			return "", 0
		}
	}
}

// errorAt returns a TraceError at the caller's position.
func errorAt(format string, args ...any) *TraceError {
	file, line := callerPos()
	return &TraceError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func baseName(file string) string {
	if file == "" {
		return ""
	}
	return filepath.Base(file)
}
