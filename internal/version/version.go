// Package version says which fxgen generated a file: generated files name
// it in their first line.
package version

import (
	"regexp"
	"runtime/debug"
)

// Module is fxgen's module path.
const Module = "github.com/fxgen/fxgen"

// Fallback is the version of this source tree, named when the build does
// not carry a released version of the fxgen module: a build in this
// repository, from a local checkout (a replace directive) or at a commit
// between releases. It is a constant so that generated files stay the same
// bytes whatever the build.
const Fallback = "v0.1.0-dev"

// release matches a released semantic version: no pseudo-version (a
// commit between releases), no build metadata (+dirty, +incompatible).
var (
	release = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)
	pseudo  = regexp.MustCompile(`[0-9]{14}-[0-9a-f]{12}$`)
)

// String returns the version of the fxgen module this program was built
// with, when that is a release (v1.2.3, v1.3.0-rc.1), and Fallback
// otherwise.
func String() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Fallback
	}
	return fromBuildInfo(bi)
}

func fromBuildInfo(bi *debug.BuildInfo) string {
	mod := &bi.Main
	if mod.Path != Module {
		mod = nil
		for _, d := range bi.Deps {
			if d.Path == Module {
				mod = d
				break
			}
		}
	}
	if mod == nil || mod.Replace != nil {
		return Fallback
	}
	return Released(mod.Version)
}

// Released returns v when it is a released version, else Fallback.
func Released(v string) string {
	if !release.MatchString(v) || pseudo.MatchString(v) {
		return Fallback
	}
	return v
}
